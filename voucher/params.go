package voucher

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// MaxCodeLength bounds an explicit voucher code.
const MaxCodeLength = 300

// GiftParams are the credits of a gift card create or update (balance is
// derived: amount − subtracted_amount).
type GiftParams struct {
	Amount *int64           `json:"amount"`
	Effect *campaign.Effect `json:"effect"`
}

// LoyaltyCardParams are the points of a loyalty card create or update.
type LoyaltyCardParams struct {
	Points *int64 `json:"points"`
}

// Params is the body of a voucher create: POST /v1/vouchers (Code, or
// CodeConfig, or a default random code) and POST /v1/vouchers/{code} (the
// path gives the code; Code and CodeConfig are ignored). Type is required,
// with its type-specific object: discount (DISCOUNT_VOUCHER), gift
// (GIFT_VOUCHER) or loyalty_card (LOYALTY_CARD). campaign or campaign_id
// may name a STANDALONE campaign (or the LOYALTY_PROGRAM campaign a
// LOYALTY_CARD needs), whose voucher type must match.
type Params struct {
	Code        *string               `json:"code"`
	CodeConfig  *campaign.CodeConfig  `json:"code_config"`
	Type        *campaign.VoucherType `json:"type" validate:"omitempty,oneof=DISCOUNT_VOUCHER GIFT_VOUCHER LOYALTY_CARD"`
	Discount    *campaign.Discount    `json:"discount"`
	Gift        *GiftParams           `json:"gift"`
	LoyaltyCard *LoyaltyCardParams    `json:"loyalty_card"`
	Campaign    *string               `json:"campaign"`
	CampaignID  *string               `json:"campaign_id"`
	Common
	ValidationRules []string `json:"validation_rules"`
}

// inferType is the voucher type the one type-specific object given implies,
// as the hosted service infers it when type is absent; nil when none or
// several are given.
func inferType(d *campaign.Discount, g *GiftParams, l *LoyaltyCardParams) *campaign.VoucherType {
	var t campaign.VoucherType
	n := 0
	if d != nil {
		t, n = campaign.DiscountVoucher, n+1
	}
	if g != nil {
		t, n = campaign.GiftVoucher, n+1
	}
	if l != nil {
		t, n = campaign.LoyaltyCard, n+1
	}
	if n != 1 {
		return nil
	}
	return &t
}

// Common are the fields every way of making a voucher takes. Each params
// type embeds it, so its fields are flat in the JSON; it validates itself
// (check).
type Common struct {
	Category   *string `json:"category" validate:"omitempty,min=1,max=300"`
	CategoryID *string `json:"category_id"`
	campaign.ValidityParams
	Active         *bool                      `json:"active"`
	AdditionalInfo *string                    `json:"additional_info" validate:"omitempty,max=1000"`
	Metadata       promotype.Metadata         `json:"metadata"`
	Redemption     *campaign.RedemptionParams `json:"redemption"`
}

// CampaignParams is the body of POST /v1/campaigns/{id}/vouchers (with
// vouchers_count above 1, an async generation) and
// POST /v1/campaigns/{id}/vouchers/{code}. The vouchers take the campaign's
// settings; the fields given here override them.
type CampaignParams struct {
	VouchersCount *int64               `json:"vouchers_count" validate:"omitempty,gte=1,lte=10000000"`
	CodeConfig    *campaign.CodeConfig `json:"code_config"`
	Common
}

// UpdateParams is the body of PUT /v1/vouchers/{code}. Absent fields are
// left unchanged; metadata given replaces the stored metadata. The code,
// type and campaign of a voucher never change.
type UpdateParams struct {
	Type        *campaign.VoucherType `json:"type"`
	Discount    *campaign.Discount    `json:"discount"`
	Gift        *GiftParams           `json:"gift"`
	LoyaltyCard *LoyaltyCardParams    `json:"loyalty_card"`
	Common
	// Clear names validity fields the update removes (their JSON names,
	// from campaign.ValidityFields), as a campaign update does. In JSON a
	// validity field given as null is cleared; an absent one is unchanged.
	Clear []string `json:"-"`
}

// UnmarshalJSON decodes the body and records the validity fields given as
// null in Clear.
func (in *UpdateParams) UnmarshalJSON(b []byte) error {
	type plain UpdateParams
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	nulls, err := campaign.NullFields(b, campaign.ValidityFields)
	if err != nil {
		return err
	}
	p.Clear = nulls
	*in = UpdateParams(p)
	return nil
}

// ImportItem is one voucher of POST /v1/campaigns/{id}/import: a code (required)
// and the fields that override the campaign's settings.
type ImportItem struct {
	Code        *string            `json:"code"`
	Gift        *GiftParams        `json:"gift"`
	LoyaltyCard *LoyaltyCardParams `json:"loyalty_card"`
	Common
}

// CheckCode validates an explicit code: 1 to MaxCodeLength characters of
// any kind but control characters.
func CheckCode(path, code string) error {
	if code == "" {
		return promotype.InvalidPayload("Property %s must NOT have fewer than 1 characters", path)
	}
	if utf8.RuneCountInString(code) > MaxCodeLength {
		return promotype.InvalidPayload("Property %s must NOT have more than %d characters", path, MaxCodeLength)
	}
	if !utf8.ValidString(code) || strings.IndexFunc(code, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return promotype.InvalidPayload("Property %s must not hold control characters", path)
	}
	return nil
}

// check validates the common fields.
func (c Common) check() error {
	if err := validate.Struct(c); err != nil {
		return err
	}
	if c.Category != nil && c.CategoryID != nil {
		return promotype.InvalidPayload("Pass only one of the properties 'category' and 'category_id'")
	}
	if c.Redemption != nil && c.Redemption.Quantity != nil && *c.Redemption.Quantity < 1 {
		return promotype.InvalidPayload("Property .redemption.quantity must be >= 1")
	}
	return c.ValidityParams.Check()
}

// apply copies the common fields (but the category) onto v.
func (c Common) apply(v *Voucher) error {
	c.ValidityParams.Apply(&v.Validity)
	if err := campaign.CheckValidity(v.Validity); err != nil {
		return err
	}
	if c.Active != nil {
		v.Active = *c.Active
	}
	if c.AdditionalInfo != nil {
		v.AdditionalInfo = promotype.ClonePtr(c.AdditionalInfo)
	}
	if c.Metadata != nil {
		v.Metadata = c.Metadata.Clone()
	}
	if c.Redemption != nil {
		v.RedemptionQuantity = promotype.ClonePtr(c.Redemption.Quantity)
	}
	return nil
}

// typed sets the type-specific object of v from the parameters given;
// objects of another type are refused.
func typed(v *Voucher, discount *campaign.Discount, gift *GiftParams, loyalty *LoyaltyCardParams, create bool) error {
	for _, f := range []struct {
		t     campaign.VoucherType
		name  string
		given bool
	}{{campaign.DiscountVoucher, "discount", discount != nil}, {campaign.GiftVoucher, "gift", gift != nil}, {campaign.LoyaltyCard, "loyalty_card", loyalty != nil}} {
		if f.given && f.t != v.Type {
			return promotype.InvalidPayload("Property .%s is allowed only for %s vouchers", f.name, f.t)
		}
	}
	switch v.Type {
	case campaign.DiscountVoucher:
		if discount == nil {
			if create {
				return promotype.InvalidPayload("Payload must have required property 'discount' for a DISCOUNT_VOUCHER")
			}
			return nil
		}
		d := discount.Clone() // Validate fills defaults: never in the caller's value
		if err := d.Validate(".discount"); err != nil {
			return err
		}
		v.Discount = d
	case campaign.GiftVoucher:
		if gift == nil {
			if create {
				return promotype.InvalidPayload("Payload must have required property 'gift' for a GIFT_VOUCHER")
			}
			return nil
		}
		g := v.Gift
		if g == nil {
			g = &Gift{}
		}
		if gift.Amount == nil && create {
			return promotype.InvalidPayload("Property .gift must have required property 'amount'")
		}
		if gift.Amount != nil {
			if *gift.Amount <= 0 {
				return promotype.InvalidPayload("Property .gift.amount must be > 0")
			}
			spent := g.Amount - g.SubtractedAmount - g.Balance // what redemptions took stays taken
			g.Amount = *gift.Amount
			g.Balance = g.Amount - g.SubtractedAmount - spent
		}
		if gift.Effect != nil {
			if *gift.Effect != campaign.EffectApplyToOrder && *gift.Effect != campaign.EffectApplyToItems {
				return promotype.InvalidPayload("Property .gift.effect must be equal to one of the allowed values: APPLY_TO_ORDER, APPLY_TO_ITEMS")
			}
			g.Effect = promotype.ClonePtr(gift.Effect)
		} else if g.Effect == nil {
			g.Effect = promotype.Ptr(campaign.EffectApplyToOrder)
		}
		v.Gift = g
	case campaign.LoyaltyCard:
		if loyalty == nil {
			if create {
				return promotype.InvalidPayload("Payload must have required property 'loyalty_card' for a LOYALTY_CARD")
			}
			return nil
		}
		if loyalty.Points == nil {
			if create {
				return promotype.InvalidPayload("Property .loyalty_card must have required property 'points'")
			}
			return nil
		}
		if *loyalty.Points < 0 {
			return promotype.InvalidPayload("Property .loyalty_card.points must be >= 0")
		}
		l := v.LoyaltyCard
		if l == nil {
			l = &LoyaltyCard{}
		}
		spent := l.Points - l.Balance
		l.Points = *loyalty.Points
		l.Balance = l.Points - spent
		v.LoyaltyCard = l
	}
	return nil
}
