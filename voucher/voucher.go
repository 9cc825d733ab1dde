package voucher

import (
	"encoding/base64"
	"net/url"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// Voucher is a code (object "voucher"), standing alone or in a campaign.
// Every field of the hosted API's table is written: gift only for GIFT_VOUCHER,
// loyalty_card only for LOYALTY_CARD and discount only for DISCOUNT_VOUCHER,
// the others null.
type Voucher struct {
	ID          string               `json:"id"`
	Code        string               `json:"code"`
	Campaign    *string              `json:"campaign"` // the campaign's name, filled on read
	CampaignID  *string              `json:"campaign_id"`
	Category    *string              `json:"category"` // the category's name, filled on read
	CategoryID  *string              `json:"category_id"`
	Categories  []*campaign.Category `json:"categories"`
	Type        campaign.VoucherType `json:"type"`
	Discount    *campaign.Discount   `json:"discount"`
	Gift        *Gift                `json:"gift"`
	LoyaltyCard *LoyaltyCard         `json:"loyalty_card"`
	campaign.Validity
	Active                     bool                              `json:"active"`
	AdditionalInfo             *string                           `json:"additional_info"`
	Metadata                   promotype.Metadata                `json:"metadata"`
	Assets                     *Assets                           `json:"assets"`
	IsReferralCode             bool                              `json:"is_referral_code"`
	CreatedAt                  promotype.Time                    `json:"created_at"`
	UpdatedAt                  *promotype.Time                   `json:"updated_at"`
	HolderID                   *string                           `json:"holder_id"`
	ReferrerID                 *string                           `json:"referrer_id"`
	Object                     string                            `json:"object"`
	Publish                    *Publish                          `json:"publish"`
	Redemption                 *Redemption                       `json:"redemption"`
	ValidationRulesAssignments *promotype.List[*rule.Assignment] `json:"validation_rules_assignments"`

	ProjectID          string          `json:"-"`
	BinnedAt           *promotype.Time `json:"-"`
	RedemptionQuantity *int64          `json:"-"` // null: unlimited
	RedeemedQuantity   int64           `json:"-"`
	PublishCount       int64           `json:"-"`
	// ReservedUntil is the latest expiry of the session reservations the
	// voucher holds (redemption.SessionStore); nil when it holds none.
	// Stores maintain it; a reservation past it no longer counts.
	ReservedUntil *promotype.Time `json:"-"`
}

// Gift is a gift card's credits, in the smallest currency unit: Balance =
// Amount − SubtractedAmount − what redemptions spent.
type Gift struct {
	Amount           int64            `json:"amount"`
	SubtractedAmount int64            `json:"subtracted_amount"`
	Balance          int64            `json:"balance"`
	Effect           *campaign.Effect `json:"effect,omitempty"`
}

// LoyaltyCard is a loyalty card's points.
type LoyaltyCard struct {
	Points               int64   `json:"points"`
	Balance              int64   `json:"balance"`
	NextExpirationDate   *string `json:"next_expiration_date,omitempty"`
	NextExpirationPoints *int64  `json:"next_expiration_points,omitempty"`
	PendingPoints        *int64  `json:"pending_points,omitempty"`
	ExpiredPoints        *int64  `json:"expired_points,omitempty"`
	SubtractedPoints     *int64  `json:"subtracted_points,omitempty"`
}

// Assets link to the QR code and barcode images of a voucher code.
type Assets struct {
	QR      Asset `json:"qr"`
	Barcode Asset `json:"barcode"`
}

// Asset is one image of a code. ID is the code in unpadded base64url; URL is
// /v1/assets/{qr|barcode}/{id}, a path relative to the API's base address.
// The engine does not render the images.
type Asset struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// Publish summarizes a voucher's publications.
type Publish struct {
	Object string `json:"object"`
	Count  int64  `json:"count"`
	URL    string `json:"url"`
}

// Redemption summarizes a voucher's redemptions; a null quantity means
// unlimited. RedeemedAmount is written for gift cards, RedeemedPoints for
// loyalty cards.
type Redemption struct {
	Quantity         *int64 `json:"quantity"`
	RedeemedQuantity int64  `json:"redeemed_quantity"`
	RedeemedAmount   *int64 `json:"redeemed_amount,omitempty"`
	RedeemedPoints   *int64 `json:"redeemed_points,omitempty"`
	Object           string `json:"object"`
	URL              string `json:"url"`
}

// Clone returns a deep copy. Fields filled on read (names, categories,
// assets, summaries, assignments) are not copied.
func (v *Voucher) Clone() *Voucher {
	c := *v
	c.CampaignID = promotype.ClonePtr(v.CampaignID)
	c.CategoryID = promotype.ClonePtr(v.CategoryID)
	c.Discount = v.Discount.Clone()
	c.Gift = promotype.ClonePtr(v.Gift)
	if c.Gift != nil {
		c.Gift.Effect = promotype.ClonePtr(v.Gift.Effect)
	}
	c.LoyaltyCard = v.LoyaltyCard.clone()
	c.Validity = v.Validity.Clone()
	c.AdditionalInfo = promotype.ClonePtr(v.AdditionalInfo)
	c.Metadata = v.Metadata.Clone()
	c.UpdatedAt = promotype.ClonePtr(v.UpdatedAt)
	c.HolderID = promotype.ClonePtr(v.HolderID)
	c.ReferrerID = promotype.ClonePtr(v.ReferrerID)
	c.BinnedAt = promotype.ClonePtr(v.BinnedAt)
	c.RedemptionQuantity = promotype.ClonePtr(v.RedemptionQuantity)
	c.ReservedUntil = promotype.ClonePtr(v.ReservedUntil)
	c.Campaign, c.Category, c.Categories, c.Assets, c.Publish, c.Redemption, c.ValidationRulesAssignments = nil, nil, nil, nil, nil, nil, nil
	return &c
}

func (l *LoyaltyCard) clone() *LoyaltyCard {
	if l == nil {
		return nil
	}
	c := *l
	c.NextExpirationDate = promotype.ClonePtr(l.NextExpirationDate)
	c.NextExpirationPoints = promotype.ClonePtr(l.NextExpirationPoints)
	c.PendingPoints = promotype.ClonePtr(l.PendingPoints)
	c.ExpiredPoints = promotype.ClonePtr(l.ExpiredPoints)
	c.SubtractedPoints = promotype.ClonePtr(l.SubtractedPoints)
	return &c
}

// AssetID is the id of a code's QR and barcode assets: the code in unpadded
// base64url, so it is stable and names the code it shows.
func AssetID(code string) string { return base64.RawURLEncoding.EncodeToString([]byte(code)) }

// normalize fills the fields every voucher response carries that come from
// the stored ones: object, assets, the summaries, the empty lists.
func (v *Voucher) normalize() *Voucher {
	v.Object = "voucher"
	if v.Metadata == nil {
		v.Metadata = promotype.Metadata{}
	}
	if v.Categories == nil {
		v.Categories = []*campaign.Category{}
	}
	id := AssetID(v.Code)
	v.Assets = &Assets{
		QR:      Asset{ID: id, URL: "/v1/assets/qr/" + id},
		Barcode: Asset{ID: id, URL: "/v1/assets/barcode/" + id},
	}
	esc := url.PathEscape(v.Code)
	v.Publish = &Publish{Object: "list", Count: v.PublishCount, URL: "/v1/vouchers/" + esc + "/publications?page=1&limit=10"}
	v.Redemption = &Redemption{
		Quantity:         promotype.ClonePtr(v.RedemptionQuantity),
		RedeemedQuantity: v.RedeemedQuantity,
		Object:           "list",
		URL:              "/v1/vouchers/" + esc + "/redemptions?page=1&limit=10",
	}
	switch v.Type {
	case campaign.GiftVoucher:
		v.Redemption.RedeemedAmount = promotype.Ptr[int64](0)
		if g := v.Gift; g != nil { // balance = amount − subtracted − redeemed
			*v.Redemption.RedeemedAmount = g.Amount - g.SubtractedAmount - g.Balance
		}
	case campaign.LoyaltyCard:
		v.Redemption.RedeemedPoints = promotype.Ptr[int64](0)
		if l := v.LoyaltyCard; l != nil {
			// balance = points − expired − subtracted − redeemed
			*v.Redemption.RedeemedPoints = l.Points - l.Balance
			for _, p := range []*int64{l.SubtractedPoints, l.ExpiredPoints} {
				if p != nil {
					*v.Redemption.RedeemedPoints -= *p
				}
			}
		}
	}
	if v.ValidationRulesAssignments == nil {
		v.ValidationRulesAssignments = campaign.EmptyAssignments()
	}
	return v
}

// ListSpec is what GET /v1/vouchers accepts. Boolean fields (active,
// is_referral_code) filter as the strings "true" and "false".
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at", "code"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"id":               promotype.FieldString,
		"code":             promotype.FieldString,
		"campaign_id":      promotype.FieldString,
		"category_id":      promotype.FieldString,
		"type":             promotype.FieldString,
		"holder_id":        promotype.FieldString,
		"active":           promotype.FieldString,
		"is_referral_code": promotype.FieldString,
		"created_at":       promotype.FieldTime,
		"updated_at":       promotype.FieldTime,
		"start_date":       promotype.FieldTime,
		"expiration_date":  promotype.FieldTime,
	},
}

// Field returns the value of a filterable or orderable field of v, as lists
// see it (stores filtering in memory use it).
func (v *Voucher) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: v.ID}
	case "code":
		return promotype.Value{Str: v.Code}
	case "campaign_id":
		return promotype.StringValue(v.CampaignID)
	case "category_id":
		return promotype.StringValue(v.CategoryID)
	case "type":
		return promotype.Value{Str: string(v.Type)}
	case "holder_id":
		return promotype.StringValue(v.HolderID)
	case "active":
		return promotype.Value{Str: boolString(v.Active)}
	case "is_referral_code":
		return promotype.Value{Str: boolString(v.IsReferralCode)}
	case "created_at":
		return promotype.Value{Time: v.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(v.UpdatedAt)
	case "start_date":
		return promotype.TimeValue(v.StartDate)
	case "expiration_date":
		return promotype.TimeValue(v.ExpirationDate)
	case FieldStartOrMin:
		if v.StartDate == nil {
			return promotype.Value{Time: minTime}
		}
		return promotype.Value{Time: *v.StartDate}
	case FieldExpirationOrMax:
		if v.ExpirationDate == nil {
			return promotype.Value{Time: maxTime}
		}
		return promotype.Value{Time: *v.ExpirationDate}
	}
	return promotype.Value{Null: true}
}

// The instants a null start_date and expiration_date stand for.
var (
	minTime = promotype.NewTime(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC))
	maxTime = promotype.NewTime(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC))
)

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// CampaignFields are the fields a campaign's vouchers take from it, set on
// every voucher of the campaign not yet published nor redeemed when the
// campaign is updated (the CAMPAIGN.VOUCHERS_UPDATE action).
type CampaignFields struct {
	CategoryID *string
	// Discount replaces the discount of DISCOUNT_VOUCHER vouchers.
	Discount *campaign.Discount
	// GiftAmount and GiftEffect replace those of GIFT_VOUCHER vouchers;
	// their balance becomes GiftAmount − subtracted_amount.
	GiftAmount *int64
	GiftEffect *campaign.Effect
	Validity   campaign.Validity
}

// FieldsOf returns the fields the vouchers of c take from it.
func FieldsOf(c *campaign.Campaign) CampaignFields {
	f := CampaignFields{CategoryID: promotype.ClonePtr(c.CategoryID), Validity: c.Validity.Clone()}
	if v := c.Voucher; v != nil {
		f.Discount = v.Discount.Clone()
		if v.Gift != nil {
			f.GiftAmount = promotype.ClonePtr(v.Gift.Amount)
			f.GiftEffect = promotype.ClonePtr(v.Gift.Effect)
		}
	}
	return f
}

// Applies reports whether a campaign update changes v: only vouchers not
// yet published nor redeemed follow their campaign.
func (f CampaignFields) Applies(v *Voucher) bool {
	return v.PublishCount == 0 && v.RedeemedQuantity == 0
}

// Apply sets f on v (stores call it on each voucher Applies accepts).
func (f CampaignFields) Apply(v *Voucher) {
	v.CategoryID = promotype.ClonePtr(f.CategoryID)
	v.Validity = f.Validity.Clone()
	switch v.Type {
	case campaign.DiscountVoucher:
		if f.Discount != nil {
			v.Discount = f.Discount.Clone()
		}
	case campaign.GiftVoucher:
		if f.GiftAmount != nil && v.Gift != nil {
			spent := v.Gift.Amount - v.Gift.SubtractedAmount - v.Gift.Balance
			v.Gift.Amount = *f.GiftAmount
			v.Gift.Balance = *f.GiftAmount - v.Gift.SubtractedAmount - spent
			v.Gift.Effect = promotype.ClonePtr(f.GiftEffect)
		}
	}
}

// Template returns the voucher every generated voucher of c starts as:
// every field but the id and the code.
func Template(c *campaign.Campaign, now promotype.Time) *Voucher {
	v := &Voucher{
		ProjectID:      c.ProjectID,
		CampaignID:     promotype.Ptr(c.ID),
		CategoryID:     promotype.ClonePtr(c.CategoryID),
		Validity:       c.Validity.Clone(),
		Active:         true,
		Metadata:       promotype.Metadata{},
		CreatedAt:      now,
		IsReferralCode: c.Voucher != nil && c.Voucher.IsReferralCode,
	}
	s := c.Voucher
	if s == nil {
		return v
	}
	v.Type = s.Type
	v.RedemptionQuantity = promotype.ClonePtr(s.Redemption.Quantity)
	switch s.Type {
	case campaign.DiscountVoucher:
		v.Discount = s.Discount.Clone()
	case campaign.GiftVoucher:
		if s.Gift != nil && s.Gift.Amount != nil {
			v.Gift = &Gift{Amount: *s.Gift.Amount, Balance: *s.Gift.Amount, Effect: promotype.ClonePtr(s.Gift.Effect)}
		}
	case campaign.LoyaltyCard:
		if s.LoyaltyCard != nil && s.LoyaltyCard.Points != nil {
			v.LoyaltyCard = &LoyaltyCard{Points: *s.LoyaltyCard.Points, Balance: *s.LoyaltyCard.Points}
		}
	}
	return v
}
