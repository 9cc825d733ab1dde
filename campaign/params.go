package campaign

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// MaxVouchersCount bounds the vouchers_count of a campaign create.
const MaxVouchersCount = 10_000_000

// Params is the body of a campaign create (POST /v1/campaigns). Name is
// required; campaign_type defaults to DISCOUNT_COUPONS; each type takes the
// fields the hosted service takes for it (voucher.discount for DISCOUNT_COUPONS
// and REFERRAL_PROGRAM, voucher.gift for GIFT_VOUCHERS, voucher.loyalty_card
// for LOYALTY_PROGRAM, no voucher for PROMOTION).
type Params struct {
	Name                            *string            `json:"name" validate:"omitempty,min=1,max=300"`
	Description                     *string            `json:"description" validate:"omitempty,max=1000"`
	Type                            *Type              `json:"type" validate:"omitempty,oneof=AUTO_UPDATE STATIC STANDALONE"`
	JoinOnce                        *bool              `json:"join_once"`
	AutoJoin                        *bool              `json:"auto_join"`
	UseVoucherMetadataSchema        *bool              `json:"use_voucher_metadata_schema"`
	VouchersCount                   *int64             `json:"vouchers_count" validate:"omitempty,gte=0,lte=10000000"`
	StartDate                       *promotype.Time    `json:"start_date"`
	ExpirationDate                  *promotype.Time    `json:"expiration_date"`
	ValidityTimeframe               *ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int              `json:"validity_day_of_week"`
	ValidityHours                   *ValidityHours     `json:"validity_hours"`
	ActivityDurationAfterPublishing *string            `json:"activity_duration_after_publishing"`
	CategoryID                      *string            `json:"category_id"`
	Category                        *string            `json:"category" validate:"omitempty,min=1,max=300"`
	Metadata                        promotype.Metadata `json:"metadata"`
	// AccessSettings (Areas and Stores, an enterprise feature) is accepted and ignored.
	AccessSettings         json.RawMessage   `json:"access_settings,omitempty"`
	ValidationRules        []string          `json:"validation_rules" validate:"omitempty,max=1"`
	CampaignType           *CampaignType     `json:"campaign_type" validate:"omitempty,oneof=DISCOUNT_COUPONS REFERRAL_PROGRAM GIFT_VOUCHERS LOYALTY_PROGRAM PROMOTION"`
	Voucher                *VoucherParams    `json:"voucher"`
	ReferralProgram        *ReferralSettings `json:"referral_program"`
	Promotion              *PromotionParams  `json:"promotion"`
	LoyaltyTiersExpiration json.RawMessage   `json:"loyalty_tiers_expiration,omitempty"`
}

// VoucherParams are the campaign voucher settings of a create.
type VoucherParams struct {
	Type           *VoucherType         `json:"type" validate:"omitempty,oneof=DISCOUNT_VOUCHER GIFT_VOUCHER LOYALTY_CARD"`
	Discount       *Discount            `json:"discount"`
	Gift           *GiftSettings        `json:"gift"`
	LoyaltyCard    *LoyaltyCardSettings `json:"loyalty_card"`
	CodeConfig     *CodeConfig          `json:"code_config"`
	Redemption     *RedemptionParams    `json:"redemption"`
	IsReferralCode *bool                `json:"is_referral_code"`
}

// RedemptionParams sets how many times a voucher can be redeemed (null: unlimited).
type RedemptionParams struct {
	Quantity *int64 `json:"quantity" validate:"omitempty,gte=1"`
}

// PromotionParams is the promotion part of a PROMOTION campaign create:
// its tiers, created with it (hierarchy 1..n in array order when omitted).
type PromotionParams struct {
	Tiers []TierParams `json:"tiers"`
}

// UpdateParams is the body of a campaign update (PUT /v1/campaigns/{id}).
// Absent fields are left unchanged, and so are null ones except the
// ClearableFields, which null removes (see Clear); fields the campaign's type
// does not take are refused. metadata given is merged into the stored
// metadata, then unset_metadata_fields are removed.
type UpdateParams struct {
	StartDate                       *promotype.Time    `json:"start_date"`
	ExpirationDate                  *promotype.Time    `json:"expiration_date"`
	ValidityTimeframe               *ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int              `json:"validity_day_of_week"`
	ValidityHours                   *ValidityHours     `json:"validity_hours"`
	Description                     *string            `json:"description" validate:"omitempty,max=1000"`
	Category                        *string            `json:"category" validate:"omitempty,min=1,max=300"`
	CategoryID                      *string            `json:"category_id"`
	Metadata                        promotype.Metadata `json:"metadata"`
	UnsetMetadataFields             []string           `json:"unset_metadata_fields"`
	AccessSettings                  json.RawMessage    `json:"access_settings"`
	ActivityDurationAfterPublishing *string            `json:"activity_duration_after_publishing"`
	JoinOnce                        *bool              `json:"join_once"`
	AutoJoin                        *bool              `json:"auto_join"`
	// Type may change only between AUTO_UPDATE and STATIC.
	Type                   *Type             `json:"type"`
	Discount               *Discount         `json:"discount"`
	ReferralProgram        *ReferralSettings `json:"referral_program"`
	Gift                   *GiftSettings     `json:"gift"`
	LoyaltyTiersExpiration json.RawMessage   `json:"loyalty_tiers_expiration,omitempty"`
	// Options holds recalculate_tiers of a loyalty program: whether its
	// members' tiers are computed again under the update's settings (the
	// loyalty service reads it).
	Options json.RawMessage `json:"options"`
	// Clear names nullable fields the update removes (their JSON names, from
	// ClearableFields). In JSON a field given as null is cleared; an absent
	// field is unchanged.
	Clear []string `json:"-"`
}

// ClearableFields are the fields of a campaign an update can clear with null.
var ClearableFields = []string{"start_date", "expiration_date", "validity_timeframe", "validity_day_of_week",
	"validity_hours", "description", "activity_duration_after_publishing", "category", "category_id"}

// UnmarshalJSON decodes the body and records the clearable fields given as
// null in Clear.
func (in *UpdateParams) UnmarshalJSON(b []byte) error {
	type plain UpdateParams
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	nulls, err := NullFields(b, ClearableFields)
	if err != nil {
		return err
	}
	p.Clear = nulls
	*in = UpdateParams(p)
	return nil
}

// NullFields returns those of names that the JSON object b gives as null,
// in the order of names.
func NullFields(b []byte, names []string) ([]string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	var out []string
	for _, k := range names {
		if v, ok := raw[k]; ok && isNull(v) {
			out = append(out, k)
		}
	}
	return out, nil
}

// clearFields removes the fields in.Clear names (validated by checkClear):
// the validity fields from v, the others from c (either may be nil).
// category and category_id both remove the campaign's category.
func (in UpdateParams) clearFields(c *Campaign, v *Validity) {
	for _, k := range in.Clear {
		if slices.Contains(ValidityFields, k) {
			if v != nil {
				v.Clear(k)
			}
			continue
		}
		if c == nil {
			continue
		}
		switch k {
		case "description":
			c.Description = nil
		case "activity_duration_after_publishing":
			c.ActivityDurationAfterPublishing = nil
		case "category", "category_id":
			c.CategoryID = nil
		}
	}
}

// checkClear refuses an unknown name in Clear, and a field both cleared and
// given a value (only possible through the Go API).
func (in UpdateParams) checkClear() error {
	given := in.validity().given()
	given["description"] = in.Description != nil
	given["activity_duration_after_publishing"] = in.ActivityDurationAfterPublishing != nil
	// Clearing one of category and category_id while naming the category
	// by the other sets it: the clear comes first.
	given["category"], given["category_id"] = in.Category != nil, in.CategoryID != nil
	return checkCleared(in.Clear, given)
}

// checkCleared refuses a name of names that given does not hold, and one
// given holds true (a field both given and cleared).
func checkCleared(names []string, given map[string]bool) error {
	for _, k := range names {
		g, ok := given[k]
		switch {
		case !ok:
			return promotype.InvalidPayload("Property %s cannot be cleared with null", k)
		case g:
			return promotype.InvalidPayload("Property .%s is both given and cleared", k)
		}
	}
	return nil
}

// InvalidCampaign is the 400 invalid_campaign error: a body whose fields do
// not fit the campaign's type, or a change the campaign's state forbids.
func InvalidCampaign(format string, args ...any) *promotype.Error {
	return promotype.BadRequest("invalid_campaign", "Invalid campaign", format, args...)
}

// build checks a create body and returns the campaign it describes (not
// stored, without category) and the number of vouchers to generate.
func (in Params) build(env promotype.Env, projectID string) (*Campaign, int64, error) {
	if err := validate.Struct(in); err != nil {
		return nil, 0, err
	}
	if in.Name == nil {
		return nil, 0, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	if err := in.validity().Check(); err != nil {
		return nil, 0, err
	}
	if err := checkISODuration(".activity_duration_after_publishing", in.ActivityDurationAfterPublishing); err != nil {
		return nil, 0, err
	}
	if in.Category != nil && in.CategoryID != nil {
		return nil, 0, promotype.InvalidPayload("Pass only one of the properties 'category' and 'category_id'")
	}
	ct := in.campaignType()
	c := &Campaign{
		ID:           env.IDs.NewID(promotype.PrefixCampaign),
		ProjectID:    projectID,
		Name:         *in.Name,
		Description:  promotype.ClonePtr(in.Description),
		CampaignType: ct,
		Type:         AutoUpdate,
		Active:       true,
		Metadata:     in.Metadata.Clone(),
		CreatedAt:    env.Clock.Now(),

		ActivityDurationAfterPublishing: promotype.ClonePtr(in.ActivityDurationAfterPublishing),
	}
	if ct == Promotion || ct == LoyaltyProgram {
		c.Type = Static // as the hosted service answers them
	}
	if in.Type != nil {
		c.Type = *in.Type
	}
	if c.Type == Standalone && ct != DiscountCoupons && ct != GiftVouchers {
		return nil, 0, InvalidCampaign("A STANDALONE campaign must be a DISCOUNT_COUPONS or GIFT_VOUCHERS campaign, not %s", ct)
	}
	c.JoinOnce = in.JoinOnce != nil && *in.JoinOnce
	c.AutoJoin = in.AutoJoin != nil && *in.AutoJoin
	// A loyalty program uses the voucher metadata schema unless told
	// otherwise, as the hosted service answers it.
	// Every voucher campaign uses the voucher metadata schema unless told
	// otherwise, as the hosted service answers (docs/behaviour.md).
	c.UseVoucherMetadataSchema = ct != Promotion
	if in.UseVoucherMetadataSchema != nil {
		c.UseVoucherMetadataSchema = *in.UseVoucherMetadataSchema
	}
	c.forceJoinOnce()
	in.validity().Apply(&c.Validity)
	if err := CheckValidity(c.Validity); err != nil {
		return nil, 0, err
	}
	var count int64
	if in.VouchersCount != nil {
		count = *in.VouchersCount
	}
	if ct == Promotion {
		switch {
		case in.Voucher != nil:
			return nil, 0, InvalidCampaign("Property 'voucher' is not allowed for PROMOTION campaign")
		case count > 0:
			return nil, 0, InvalidCampaign("Property 'vouchers_count' is not allowed for PROMOTION campaign")
		}
		c.CreationStatus, c.VouchersGenerationStatus = StatusDone, StatusDone
	} else {
		if in.Promotion != nil {
			return nil, 0, InvalidCampaign("Property 'promotion' is allowed only for PROMOTION campaign")
		}
		v, err := in.Voucher.settings(ct)
		if err != nil {
			return nil, 0, err
		}
		c.Voucher = v
		c.CreationStatus, c.VouchersGenerationStatus = StatusInProgress, StatusInProgress
		if count == 0 {
			// Nothing to generate (its vouchers come later: added,
			// imported, published): the hosted service answers DONE at
			// once (docs/behaviour.md, "Campaigns and categories").
			c.CreationStatus, c.VouchersGenerationStatus = StatusDone, StatusDone
		}
	}
	if in.ReferralProgram != nil {
		if ct != ReferralProgram {
			return nil, 0, InvalidCampaign("Property 'referral_program' is allowed only for REFERRAL_PROGRAM campaign")
		}
		c.ReferralProgram = in.ReferralProgram.Clone()
		if err := c.ReferralProgram.check(env.IDs); err != nil {
			return nil, 0, err
		}
	}
	if len(in.LoyaltyTiersExpiration) > 0 && !isNull(in.LoyaltyTiersExpiration) {
		if ct != LoyaltyProgram {
			return nil, 0, InvalidCampaign("Property 'loyalty_tiers_expiration' is allowed only for LOYALTY_PROGRAM campaign")
		}
		if !isObject(in.LoyaltyTiersExpiration) {
			return nil, 0, promotype.InvalidPayload("Property .loyalty_tiers_expiration must be object")
		}
		c.LoyaltyTiersExpiration = compact(in.LoyaltyTiersExpiration)
	}
	return c, count, nil
}

// campaignType is the campaign_type given, or the one voucher.type implies
// (as the hosted service infers it), or DISCOUNT_COUPONS.
func (in Params) campaignType() CampaignType {
	switch {
	case in.CampaignType != nil:
		return *in.CampaignType
	case in.Voucher != nil && in.Voucher.Type != nil:
		switch *in.Voucher.Type {
		case LoyaltyCard:
			return LoyaltyProgram
		case GiftVoucher:
			return GiftVouchers
		}
	}
	return DiscountCoupons
}

// forceJoinOnce applies the hosted API's fixed values: always true for loyalty
// campaigns, always false for standalone ones.
func (c *Campaign) forceJoinOnce() {
	switch {
	case c.CampaignType == LoyaltyProgram:
		c.JoinOnce = true
	case c.Type == Standalone:
		c.JoinOnce = false
	}
}

// settings checks the voucher part of a create for a campaign of type ct.
func (p *VoucherParams) settings(ct CampaignType) (*VoucherSettings, error) {
	if p == nil {
		p = &VoucherParams{}
	}
	vt := ct.VoucherType()
	if p.Type != nil && *p.Type != vt {
		return nil, InvalidCampaign("Property 'voucher.type' must be %s for %s campaign", vt, ct)
	}
	v := &VoucherSettings{Type: vt, IsReferralCode: ct == ReferralProgram}
	if p.IsReferralCode != nil && *p.IsReferralCode != v.IsReferralCode {
		return nil, InvalidCampaign("Property 'voucher.is_referral_code' must be %t for %s campaign", v.IsReferralCode, ct)
	}
	switch vt {
	case DiscountVoucher:
		if p.Discount == nil {
			return nil, InvalidCampaign("Property 'discount' is required for %s campaign", ct)
		}
		d := p.Discount.Clone() // Validate fills defaults: never in the caller's value
		if err := d.Validate(".voucher.discount"); err != nil {
			return nil, err
		}
		v.Discount = d
	case GiftVoucher:
		if p.Gift == nil {
			return nil, InvalidCampaign("Property 'gift' is required for %s campaign", ct)
		}
		g, err := p.Gift.check(".voucher.gift")
		if err != nil {
			return nil, err
		}
		v.Gift = g
	case LoyaltyCard:
		if p.LoyaltyCard == nil {
			return nil, InvalidCampaign("Property 'loyalty_card' is required for %s campaign", ct)
		}
		if err := p.LoyaltyCard.check(".voucher.loyalty_card"); err != nil {
			return nil, err
		}
		v.LoyaltyCard = p.LoyaltyCard.Clone()
	}
	for _, f := range []struct {
		t     VoucherType
		given bool
	}{{DiscountVoucher, p.Discount != nil}, {GiftVoucher, p.Gift != nil}, {LoyaltyCard, p.LoyaltyCard != nil}} {
		if f.given && f.t != vt {
			return nil, InvalidCampaign("Property 'voucher.%s' is not allowed for %s campaign", fieldOf(f.t), ct)
		}
	}
	if p.Redemption != nil {
		if err := validate.Struct(p.Redemption); err != nil {
			return nil, promotype.InvalidPayload("Property .voucher.redemption.quantity must be >= 1")
		}
		v.Redemption.Quantity = promotype.ClonePtr(p.Redemption.Quantity)
	}
	cfg := CodeConfig{}
	if p.CodeConfig != nil {
		cfg = *p.CodeConfig
	}
	norm, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	v.CodeConfig = norm
	return v, nil
}

// fieldOf names the type-specific property of a voucher type.
func fieldOf(t VoucherType) string {
	switch t {
	case GiftVoucher:
		return "gift"
	case LoyaltyCard:
		return "loyalty_card"
	}
	return "discount"
}

// check validates gift settings and fills the default effect.
func (g *GiftSettings) check(path string) (*GiftSettings, error) {
	if g.Amount == nil {
		return nil, promotype.InvalidPayload("Property %s must have required property 'amount'", path)
	}
	if *g.Amount <= 0 {
		return nil, promotype.InvalidPayload("Property %s.amount must be > 0", path)
	}
	out := &GiftSettings{Amount: promotype.ClonePtr(g.Amount), Effect: promotype.ClonePtr(g.Effect)}
	if out.Effect == nil {
		out.Effect = promotype.Ptr(EffectApplyToOrder)
	} else if *out.Effect != EffectApplyToOrder && *out.Effect != EffectApplyToItems {
		return nil, promotype.InvalidPayload("Property %s.effect must be equal to one of the allowed values: APPLY_TO_ORDER, APPLY_TO_ITEMS", path)
	}
	return out, nil
}

// check validates loyalty card settings.
func (l *LoyaltyCardSettings) check(path string) error {
	if l.Points == nil {
		return promotype.InvalidPayload("Property %s must have required property 'points'", path)
	}
	if *l.Points < 0 {
		return promotype.InvalidPayload("Property %s.points must be >= 0", path)
	}
	if l.ExpirationRules == nil {
		return nil
	}
	return l.ExpirationRules.Check(path + ".expiration_rules")
}

// Check validates expiration rules given at path (named in the error).
func (r *ExpirationRules) Check(path string) error {
	switch r.PeriodType {
	case "MONTH":
		if r.PeriodValue == nil || *r.PeriodValue < 1 {
			return promotype.InvalidPayload("Property %s.period_value must be >= 1 for period_type MONTH", path)
		}
	case "FIXED_DAY_OF_YEAR":
		if r.FixedMonth == nil || *r.FixedMonth < 1 || *r.FixedMonth > 12 {
			return promotype.InvalidPayload("Property %s.fixed_month must be between 1 and 12 for period_type FIXED_DAY_OF_YEAR", path)
		}
		if r.FixedDay == nil || *r.FixedDay < 1 || *r.FixedDay > 31 {
			return promotype.InvalidPayload("Property %s.fixed_day must be between 1 and 31 for period_type FIXED_DAY_OF_YEAR", path)
		}
	default:
		return promotype.InvalidPayload("Property %s.period_type must be equal to one of the allowed values: FIXED_DAY_OF_YEAR, MONTH", path)
	}
	if r.RoundingType != nil && !slices.Contains([]string{"END_OF_MONTH", "END_OF_QUARTER", "END_OF_HALF_YEAR", "END_OF_YEAR", "PARTICULAR_MONTH"}, *r.RoundingType) {
		return promotype.InvalidPayload("Property %s.rounding_type must be equal to one of the allowed values: END_OF_MONTH, END_OF_QUARTER, END_OF_HALF_YEAR, END_OF_YEAR, PARTICULAR_MONTH", path)
	}
	return nil
}

// apply checks an update body against c and changes c (not the category,
// which the service resolves).
func (in UpdateParams) apply(c *Campaign) error {
	if err := validate.Struct(in); err != nil {
		return err
	}
	if err := in.validity().Check(); err != nil {
		return err
	}
	if err := checkISODuration(".activity_duration_after_publishing", in.ActivityDurationAfterPublishing); err != nil {
		return err
	}
	if in.Category != nil && in.CategoryID != nil {
		return promotype.InvalidPayload("Pass only one of the properties 'category' and 'category_id'")
	}
	if in.Type != nil && *in.Type != c.Type {
		switch {
		case c.Type == Standalone:
			return InvalidCampaign("The type of a STANDALONE campaign cannot be changed")
		case *in.Type == Standalone:
			return InvalidCampaign("A campaign cannot be changed to STANDALONE")
		case *in.Type != AutoUpdate && *in.Type != Static:
			return promotype.InvalidPayload("Property .type must be equal to one of the allowed values: AUTO_UPDATE, STATIC")
		}
	}
	ct := c.CampaignType
	var discount *Discount
	if in.Discount != nil {
		if ct != DiscountCoupons && ct != ReferralProgram {
			return InvalidCampaign("Property 'discount' is allowed only for DISCOUNT_COUPONS and REFERRAL_PROGRAM campaigns")
		}
		discount = in.Discount.Clone()
		if err := discount.Validate(".discount"); err != nil {
			return err
		}
	}
	var gift *GiftSettings
	if in.Gift != nil {
		if ct != GiftVouchers {
			return InvalidCampaign("Property 'gift' is allowed only for GIFT_VOUCHERS campaigns")
		}
		var err error
		if gift, err = in.Gift.check(".gift"); err != nil {
			return err
		}
	}
	if in.ReferralProgram != nil && ct != ReferralProgram {
		return InvalidCampaign("Property 'referral_program' is allowed only for REFERRAL_PROGRAM campaigns")
	}
	lte := len(in.LoyaltyTiersExpiration) > 0 && !isNull(in.LoyaltyTiersExpiration)
	if lte {
		if ct != LoyaltyProgram {
			return InvalidCampaign("Property 'loyalty_tiers_expiration' is allowed only for LOYALTY_PROGRAM campaigns")
		}
		if !isObject(in.LoyaltyTiersExpiration) {
			return promotype.InvalidPayload("Property .loyalty_tiers_expiration must be object")
		}
	}
	if ct == Promotion && (in.ActivityDurationAfterPublishing != nil || in.JoinOnce != nil || in.AutoJoin != nil || in.Type != nil) {
		return InvalidCampaign("Properties 'activity_duration_after_publishing', 'join_once', 'auto_join' and 'type' are not allowed for PROMOTION campaigns")
	}

	if err := in.checkClear(); err != nil {
		return err
	}
	v := c.Validity.Clone()
	in.validity().Apply(&v)
	in.clearFields(nil, &v)
	if err := CheckValidity(v); err != nil {
		return err
	}
	c.Validity = v
	if in.Description != nil {
		c.Description = promotype.ClonePtr(in.Description)
	}
	if in.Metadata != nil || len(in.UnsetMetadataFields) > 0 {
		c.Metadata = in.metadataOf(c.Metadata)
	}
	if in.ActivityDurationAfterPublishing != nil {
		c.ActivityDurationAfterPublishing = promotype.ClonePtr(in.ActivityDurationAfterPublishing)
	}
	in.clearFields(c, nil)
	if in.JoinOnce != nil {
		c.JoinOnce = *in.JoinOnce
	}
	if in.AutoJoin != nil {
		c.AutoJoin = *in.AutoJoin
	}
	if in.Type != nil {
		c.Type = *in.Type
	}
	c.forceJoinOnce()
	if discount != nil {
		c.Voucher.Discount = discount
	}
	if gift != nil {
		c.Voucher.Gift = gift
	}
	if in.ReferralProgram != nil {
		c.ReferralProgram = in.ReferralProgram.Clone()
	}
	if lte {
		c.LoyaltyTiersExpiration = compact(in.LoyaltyTiersExpiration)
	}
	return nil
}

func checkISODuration(path string, s *string) error {
	if s == nil {
		return nil
	}
	if _, err := ParseDuration(*s); err != nil {
		return promotype.InvalidPayload("Property %s must be an ISO 8601 duration (e.g. P24D)", path)
	}
	return nil
}

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

func isObject(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}

// compact returns a JSON value in canonical form (no spaces, object keys
// sorted, numbers as written), so every store gives it back the same.
func compact(b json.RawMessage) json.RawMessage {
	return Canonical(b)
}

// Canonical re-encodes a JSON value without spaces and with object keys
// sorted (numbers keep their text); invalid JSON comes back as it is.
func Canonical(b json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return slices.Clone(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return slices.Clone(b)
	}
	return out
}

// validity returns the validity fields of a create body.
func (in Params) validity() ValidityParams {
	return ValidityParams{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate, ValidityTimeframe: in.ValidityTimeframe,
		ValidityDayOfWeek: in.ValidityDayOfWeek, ValidityHours: in.ValidityHours}
}

// validity returns the validity fields of an update body.
func (in UpdateParams) validity() ValidityParams {
	return ValidityParams{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate, ValidityTimeframe: in.ValidityTimeframe,
		ValidityDayOfWeek: in.ValidityDayOfWeek, ValidityHours: in.ValidityHours}
}
