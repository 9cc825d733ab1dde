package campaign

import (
	"encoding/json"
	"slices"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// CampaignType is what a campaign is for.
type CampaignType string

// Campaign types.
const (
	DiscountCoupons CampaignType = "DISCOUNT_COUPONS"
	GiftVouchers    CampaignType = "GIFT_VOUCHERS"
	LoyaltyProgram  CampaignType = "LOYALTY_PROGRAM"
	Promotion       CampaignType = "PROMOTION"
	ReferralProgram CampaignType = "REFERRAL_PROGRAM"
)

// HasVouchers reports whether campaigns of type t hold vouchers (all but PROMOTION).
func (t CampaignType) HasVouchers() bool { return t != Promotion }

// VoucherType returns the type of the vouchers of a campaign of type t ("" for PROMOTION).
func (t CampaignType) VoucherType() VoucherType {
	switch t {
	case DiscountCoupons, ReferralProgram:
		return DiscountVoucher
	case GiftVouchers:
		return GiftVoucher
	case LoyaltyProgram:
		return LoyaltyCard
	}
	return ""
}

// Type tells how a campaign gets its vouchers.
type Type string

// Campaign types of voucher handling.
const (
	AutoUpdate Type = "AUTO_UPDATE" // can receive new vouchers after creation
	Static     Type = "STATIC"      // vouchers are published manually
	Standalone Type = "STANDALONE"  // a campaign of single vouchers
)

// Status is a campaign's creation_status and vouchers_generation_status.
type Status string

// Campaign statuses.
const (
	StatusDone       Status = "DONE"
	StatusInProgress Status = "IN_PROGRESS"
	StatusFailed     Status = "FAILED"
	StatusDraft      Status = "DRAFT"
	StatusModifying  Status = "MODIFYING"
)

// VoucherType is the kind of a voucher.
type VoucherType string

// Voucher types.
const (
	DiscountVoucher VoucherType = "DISCOUNT_VOUCHER"
	GiftVoucher     VoucherType = "GIFT_VOUCHER"
	LoyaltyCard     VoucherType = "LOYALTY_CARD"
)

// Campaign is a set of vouchers (or, for PROMOTION, of promotion tiers)
// sharing their settings (object "campaign"). Every field of the hosted API's
// table is written, null or empty when not set, except readonly and
// access_settings_assignments (Areas and Stores, an enterprise feature), and
// the fields the hosted service omits when unset (its OpenAPI declares them
// non-nullable): voucher, referral_program, loyalty_tiers_expiration,
// promotion and the recurring validity windows.
type Campaign struct {
	ID                       string           `json:"id"`
	Name                     string           `json:"name"`
	Description              *string          `json:"description"`
	CampaignType             CampaignType     `json:"campaign_type"`
	Type                     Type             `json:"type"`
	Voucher                  *VoucherSettings `json:"voucher,omitempty"`
	AutoJoin                 bool             `json:"auto_join"`
	JoinOnce                 bool             `json:"join_once"`
	UseVoucherMetadataSchema bool             `json:"use_voucher_metadata_schema"`
	Validity
	ActivityDurationAfterPublishing *string            `json:"activity_duration_after_publishing"`
	VouchersCount                   int64              `json:"vouchers_count"`
	Active                          bool               `json:"active"`
	Metadata                        promotype.Metadata `json:"metadata"`
	CreatedAt                       promotype.Time     `json:"created_at"`
	UpdatedAt                       *promotype.Time    `json:"updated_at"`
	Category                        *string            `json:"category"` // the category's name, filled on read
	CreationStatus                  Status             `json:"creation_status"`
	VouchersGenerationStatus        Status             `json:"vouchers_generation_status"`
	Protected                       bool               `json:"protected"`
	CategoryID                      *string            `json:"category_id"`
	Categories                      []*Category        `json:"categories"`
	Object                          string             `json:"object"`
	ReferralProgram                 *ReferralSettings  `json:"referral_program,omitempty"`
	LoyaltyTiersExpiration          json.RawMessage    `json:"loyalty_tiers_expiration,omitempty"`
	// Promotion is the tier list of a PROMOTION campaign (null for the
	// others). Tiers arrive with the promotion tiers endpoints; until then
	// the list is empty.
	Promotion                  *promotype.List[*PromotionTier]   `json:"promotion,omitempty"`
	ValidationRulesAssignments *promotype.List[*rule.Assignment] `json:"validation_rules_assignments"`

	ProjectID string          `json:"-"`
	BinnedAt  *promotype.Time `json:"-"` // set once the campaign is deleted (without force)
	// Revision counts accepted updates; an update's async action sets the
	// status back to DONE only if no later update came meanwhile.
	Revision int `json:"-"`
	// AsyncActionID is the async action the call that returned the
	// campaign started: on Create, the generation of its vouchers
	// (CAMPAIGN.VOUCHERS_GENERATE; empty when there is nothing to
	// generate); on Update, the copy of its settings to its vouchers
	// (CAMPAIGN.VOUCHERS_UPDATE). Empty on reads; never stored nor sent.
	// Engine.AsyncActions().Wait(ctx, projectID, c.AsyncActionID) waits
	// for it.
	AsyncActionID string `json:"-"`
}

// MarshalJSON writes the campaign with vouchers_count null for a PROMOTION
// campaign (it has tiers, not vouchers), as the hosted service answers it.
func (c Campaign) MarshalJSON() ([]byte, error) {
	type plain Campaign
	out := struct {
		plain
		VouchersCount *int64 `json:"vouchers_count"`
	}{plain: plain(c)}
	if c.CampaignType != Promotion {
		out.VouchersCount = &c.VouchersCount
	}
	return json.Marshal(out)
}

// VoucherSettings are the settings every voucher of a campaign starts with
// (the campaign's "voucher" object). The validity fields mirror the
// campaign's and are written only when set.
type VoucherSettings struct {
	Type              VoucherType          `json:"type"`
	Discount          *Discount            `json:"discount,omitempty"`
	Gift              *GiftSettings        `json:"gift,omitempty"`
	LoyaltyCard       *LoyaltyCardSettings `json:"loyalty_card,omitempty"`
	Redemption        RedemptionSettings   `json:"redemption"`
	CodeConfig        CodeConfig           `json:"code_config"`
	IsReferralCode    bool                 `json:"is_referral_code"`
	StartDate         *promotype.Time      `json:"start_date,omitempty"`
	ExpirationDate    *promotype.Time      `json:"expiration_date,omitempty"`
	ValidityTimeframe *ValidityTimeframe   `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek []int                `json:"validity_day_of_week,omitempty"`
	ValidityHours     *ValidityHours       `json:"validity_hours,omitempty"`
}

// RedemptionSettings limit how many times a voucher can be redeemed; a null
// quantity means unlimited.
type RedemptionSettings struct {
	Quantity *int64 `json:"quantity"`
}

// GiftSettings are the credits every gift card of a campaign starts with.
type GiftSettings struct {
	Amount *int64  `json:"amount"`
	Effect *Effect `json:"effect,omitempty"`
}

// LoyaltyCardSettings are the points every loyalty card of a campaign starts
// with and the default point expiration.
type LoyaltyCardSettings struct {
	Points          *int64           `json:"points"`
	ExpirationRules *ExpirationRules `json:"expiration_rules,omitempty"`
}

// ExpirationRules say when loyalty points expire.
type ExpirationRules struct {
	PeriodType    string  `json:"period_type"`
	PeriodValue   *int    `json:"period_value,omitempty"`
	RoundingType  *string `json:"rounding_type,omitempty"`
	RoundingValue *int    `json:"rounding_value,omitempty"`
	FixedMonth    *int    `json:"fixed_month,omitempty"`
	FixedDay      *int    `json:"fixed_day,omitempty"`
}

// ReferralSettings defines a referral campaign's referee reward and trigger.
type ReferralSettings struct {
	ConversionEventType *string              `json:"conversion_event_type,omitempty"`
	CustomEvent         *ReferralCustomEvent `json:"custom_event,omitempty"`
	RefereeReward       *RefereeReward       `json:"referee_reward,omitempty"`
	// ReferralTiers are the referrer's rewards (see ReferralTier): the
	// hosted API has no endpoint for them, so they are configured with
	// the campaign. Omitted when there are none.
	ReferralTiers []ReferralTier `json:"referral_tiers,omitempty"`
}

// ReferralCustomEvent names the custom event that converts a referral.
type ReferralCustomEvent struct {
	ID   *string `json:"id,omitempty"`
	Name *string `json:"name,omitempty"`
}

// RefereeReward is what the referred customer gets.
type RefereeReward struct {
	RelatedObjectParent *RelatedObjectParent `json:"related_object_parent,omitempty"`
	Type                *string              `json:"type,omitempty"`
	Amount              *int64               `json:"amount,omitempty"`
}

// RelatedObjectParent names the campaign a referee reward comes from.
type RelatedObjectParent struct {
	ID     *string `json:"id,omitempty"`
	Name   *string `json:"name,omitempty"`
	Object *string `json:"object,omitempty"`
}

// CodeConfig says how voucher codes are generated: Pattern (each '#' is a
// random character of Charset, other characters are literal) between Prefix
// and Postfix. Stored configs are normalized ([CodeConfig.Normalize]):
// Length is the number of '#' in Pattern.
type CodeConfig struct {
	Length  *int    `json:"length,omitempty"`
	Charset *string `json:"charset,omitempty"`
	Prefix  *string `json:"prefix,omitempty"`
	Postfix *string `json:"postfix,omitempty"`
	Pattern *string `json:"pattern,omitempty"`
}

// tiersRef is the data_ref of a PROMOTION campaign's promotion object and of
// tier lists, as the hosted service answers them.
const tiersRef = "tiers"

// EmptyAssignments is the validation_rules_assignments list of a resource
// without assignments.
func EmptyAssignments() *promotype.List[*rule.Assignment] {
	return promotype.NewList[*rule.Assignment](nil, 0, promotype.Query{})
}

// Clone returns a deep copy. Derived fields filled on read (category name,
// categories, the lists) are not copied.
func (c *Campaign) Clone() *Campaign {
	out := *c
	out.Description = promotype.ClonePtr(c.Description)
	out.Voucher = c.Voucher.Clone()
	out.Validity = c.Validity.Clone()
	out.ActivityDurationAfterPublishing = promotype.ClonePtr(c.ActivityDurationAfterPublishing)
	out.Metadata = c.Metadata.Clone()
	out.UpdatedAt = promotype.ClonePtr(c.UpdatedAt)
	out.CategoryID = promotype.ClonePtr(c.CategoryID)
	out.ReferralProgram = c.ReferralProgram.Clone()
	out.LoyaltyTiersExpiration = slices.Clone(c.LoyaltyTiersExpiration)
	out.BinnedAt = promotype.ClonePtr(c.BinnedAt)
	out.Category, out.Categories, out.Promotion, out.ValidationRulesAssignments = nil, nil, nil, nil
	return &out
}

// Clone returns a deep copy (nil for nil).
func (v *VoucherSettings) Clone() *VoucherSettings {
	if v == nil {
		return nil
	}
	c := *v
	c.Discount = v.Discount.Clone()
	if v.Gift != nil {
		g := GiftSettings{Amount: promotype.ClonePtr(v.Gift.Amount), Effect: promotype.ClonePtr(v.Gift.Effect)}
		c.Gift = &g
	}
	c.LoyaltyCard = v.LoyaltyCard.Clone()
	c.Redemption.Quantity = promotype.ClonePtr(v.Redemption.Quantity)
	c.CodeConfig = v.CodeConfig.Clone()
	c.StartDate, c.ExpirationDate, c.ValidityTimeframe, c.ValidityDayOfWeek, c.ValidityHours = nil, nil, nil, nil, nil
	return &c
}

// Clone returns a deep copy (nil for nil).
func (l *LoyaltyCardSettings) Clone() *LoyaltyCardSettings {
	if l == nil {
		return nil
	}
	c := LoyaltyCardSettings{Points: promotype.ClonePtr(l.Points)}
	if r := l.ExpirationRules; r != nil {
		e := ExpirationRules{PeriodType: r.PeriodType, PeriodValue: promotype.ClonePtr(r.PeriodValue),
			RoundingType: promotype.ClonePtr(r.RoundingType), RoundingValue: promotype.ClonePtr(r.RoundingValue),
			FixedMonth: promotype.ClonePtr(r.FixedMonth), FixedDay: promotype.ClonePtr(r.FixedDay)}
		c.ExpirationRules = &e
	}
	return &c
}

// Clone returns a deep copy (nil for nil).
func (r *ReferralSettings) Clone() *ReferralSettings {
	if r == nil {
		return nil
	}
	b, _ := json.Marshal(r)
	var c ReferralSettings
	_ = json.Unmarshal(b, &c)
	return &c
}

// Clone returns a deep copy.
func (c CodeConfig) Clone() CodeConfig {
	return CodeConfig{Length: promotype.ClonePtr(c.Length), Charset: promotype.ClonePtr(c.Charset),
		Prefix: promotype.ClonePtr(c.Prefix), Postfix: promotype.ClonePtr(c.Postfix), Pattern: promotype.ClonePtr(c.Pattern)}
}

// normalize fills what every campaign response carries.
func (c *Campaign) normalize() *Campaign {
	c.Object = "campaign"
	if len(c.Metadata) == 0 {
		// A campaign without metadata answers null, as the hosted service
		// answers one created without (docs/behaviour.md, issue 29).
		c.Metadata = nil
	}
	if c.Categories == nil {
		c.Categories = []*Category{}
	}
	if v := c.Voucher; v != nil {
		v.StartDate = promotype.ClonePtr(c.StartDate)
		v.ExpirationDate = promotype.ClonePtr(c.ExpirationDate)
		v.ValidityTimeframe = promotype.ClonePtr(c.ValidityTimeframe)
		v.ValidityDayOfWeek = slices.Clone(c.ValidityDayOfWeek)
		v.ValidityHours = c.ValidityHours.Clone()
	}
	if c.CampaignType == Promotion && c.Promotion == nil {
		c.Promotion = promotype.NewList[*PromotionTier](nil, 0, promotype.Query{}).WithRef(tiersRef)
	}
	if c.ValidationRulesAssignments == nil {
		c.ValidationRulesAssignments = EmptyAssignments()
	}
	if len(c.LoyaltyTiersExpiration) == 0 {
		c.LoyaltyTiersExpiration = nil
	}
	return c
}

// Category groups campaigns and vouchers (object "category").
type Category struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Hierarchy int             `json:"hierarchy"`
	CreatedAt promotype.Time  `json:"created_at"`
	UpdatedAt *promotype.Time `json:"updated_at,omitempty"` // omitted before an update, as the hosted service
	Object    string          `json:"object"`

	ProjectID string `json:"-"`
}

// Clone returns a copy.
func (c *Category) Clone() *Category {
	out := *c
	out.UpdatedAt = promotype.ClonePtr(c.UpdatedAt)
	return &out
}

func (c *Category) normalize() *Category {
	c.Object = "category"
	return c
}
