package campaign

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// PrefixTemplate starts the id of a campaign template.
const PrefixTemplate = "camp_tpl_"

// Template is a campaign template (object "campaign_template"): a stored
// campaign definition, the create body of a DISCOUNT_COUPONS or
// GIFT_VOUCHERS campaign without the campaign's own name, category and code
// count, made from an existing campaign or promotion tier. Campaigns and
// promotion tiers are created from it (CreateCampaign, CreateTier).
type Template struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  *string         `json:"description"`
	CampaignType CampaignType    `json:"campaign_type"`
	CreatedAt    promotype.Time  `json:"created_at"`
	UpdatedAt    *promotype.Time `json:"updated_at"`
	Object       string          `json:"object"`

	// Definition is what a campaign created from the template is created
	// with (before the setup's own values).
	Definition Params `json:"-"`
	ProjectID  string `json:"-"`
}

// Clone returns a deep copy.
func (t *Template) Clone() *Template {
	c := *t
	c.Description = promotype.ClonePtr(t.Description)
	c.UpdatedAt = promotype.ClonePtr(t.UpdatedAt)
	c.Definition = cloneParams(t.Definition)
	return &c
}

// cloneParams deep-copies p through its JSON form, as a store keeps it.
func cloneParams(p Params) Params {
	raw, err := json.Marshal(p)
	if err != nil {
		panic("campaign: a template definition does not encode: " + err.Error())
	}
	var out Params
	if err := json.Unmarshal(raw, &out); err != nil {
		panic("campaign: a template definition does not decode: " + err.Error())
	}
	return out
}

// Field returns a list field (TemplateListSpec).
func (t *Template) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: t.ID}
	case "name":
		return promotype.Value{Str: t.Name}
	case "campaign_type":
		return promotype.Value{Str: string(t.CampaignType)}
	}
	return promotype.Value{Null: true}
}

// TemplateListSpec is what the template list accepts: order by id,
// filters on the id, name and campaign type.
var TemplateListSpec = promotype.ListSpec{
	Orders:       []string{"id"},
	DefaultOrder: "id",
	Fields: map[string]promotype.FieldKind{
		"id": promotype.FieldString, "name": promotype.FieldString, "campaign_type": promotype.FieldString,
	},
}

// TemplateStore is the storage port of campaign templates. A template's
// name is unique in its project.
type TemplateStore interface {
	// InsertCampaignTemplate stores t (duplicate_found for a taken id or
	// name).
	InsertCampaignTemplate(ctx context.Context, t *Template) error
	// UpdateCampaignTemplate replaces the template t.ID (not_found;
	// duplicate_found for a name another template holds).
	UpdateCampaignTemplate(ctx context.Context, t *Template) error
	// GetCampaignTemplate returns the template id (not_found).
	GetCampaignTemplate(ctx context.Context, projectID, id string) (*Template, error)
	// ListCampaignTemplates returns the project's templates matching q's
	// conditions, ordered by id in q's direction, those past the id after
	// only ("" for from the start), at most q.Limit of them.
	ListCampaignTemplates(ctx context.Context, projectID string, q promotype.Query, after string) ([]*Template, error)
	// CountCampaignTemplates counts the project's templates.
	CountCampaignTemplates(ctx context.Context, projectID string) (int, error)
	// DeleteCampaignTemplate removes the template id (not_found).
	DeleteCampaignTemplate(ctx context.Context, projectID, id string) error
}

// TemplateServiceStore is what the template service reads and writes
// through: the templates and the campaigns and tiers they are made from.
type TemplateServiceStore interface {
	TemplateStore
	Store
}

// TemplateService is the campaign templates API: templates made from
// campaigns and promotion tiers, and campaigns and tiers made from them
// through the campaigns API and the tier service.
type TemplateService struct {
	store TemplateServiceStore
	env   promotype.Env
	api   *API
	tiers *TierService
}

// NewTemplateService returns the templates API over the campaigns API and
// the tier service.
func NewTemplateService(store TemplateServiceStore, env promotype.Env, api *API, tiers *TierService) *TemplateService {
	return &TemplateService{store: store, env: env, api: api, tiers: tiers}
}

// TemplateParams is the create body of a template: exactly one of
// CampaignID (a DISCOUNT_COUPONS or GIFT_VOUCHERS campaign, by id or name)
// and PromotionTierID, and the template's Name. Empty strings are not
// given.
type TemplateParams struct {
	CampaignID      string `json:"campaign_id"`
	PromotionTierID string `json:"promotion_tier_id"`
	Name            string `json:"name"`
	Description     string `json:"description"`
}

// TemplateUpdate is the update body of a template; an empty value keeps
// the field as it is.
type TemplateUpdate struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// TemplateCopy is the body of a template's copy to another project: the
// destination and, when not empty, a new name and description.
type TemplateCopy struct {
	Name                 string `json:"name"`
	Description          string `json:"description"`
	DestinationProjectID string `json:"destination_project_id"`
}

// checkName refuses an empty or too long template name.
func checkName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return promotype.InvalidPayload("Payload must have required property 'name'")
	case len(name) > 300:
		return promotype.InvalidPayload("Property .name must not have more than 300 characters")
	}
	return nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateTemplate makes a template of a campaign or a promotion tier. A
// tier's template is a DISCOUNT_COUPONS definition with the tier's
// discount, validity and metadata. Another campaign type, both sources or
// none, or a missing name is 400; a taken name 409.
func (s *TemplateService) CreateTemplate(ctx context.Context, projectID string, in TemplateParams) (*Template, error) {
	if (in.CampaignID == "") == (in.PromotionTierID == "") {
		return nil, promotype.InvalidPayload("Payload must have exactly one of the properties 'campaign_id' and 'promotion_tier_id'")
	}
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	var def Params
	if in.CampaignID != "" {
		c, err := s.api.Get(ctx, projectID, in.CampaignID)
		if err != nil {
			return nil, err
		}
		if c.CampaignType != DiscountCoupons && c.CampaignType != GiftVouchers {
			return nil, InvalidCampaign("A template is made of a DISCOUNT_COUPONS or GIFT_VOUCHERS campaign; campaign %s is %s", c.ID, c.CampaignType)
		}
		def = campaignDefinition(c)
	} else {
		t, err := s.tiers.Get(ctx, projectID, in.PromotionTierID)
		if err != nil {
			return nil, err
		}
		def = tierDefinition(t)
	}
	now := s.env.Clock.Now()
	t := &Template{ID: s.env.IDs.NewID(PrefixTemplate), Name: in.Name, Description: optional(in.Description),
		CampaignType: *def.CampaignType, CreatedAt: now, Object: "campaign_template", Definition: cloneParams(def), ProjectID: projectID}
	if err := s.store.InsertCampaignTemplate(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// campaignDefinition is the create body campaign c was made with, without
// its name, category and code count; its validation rule goes with it.
func campaignDefinition(c *Campaign) Params {
	ct, typ := c.CampaignType, c.Type
	p := Params{Description: c.Description, Type: &typ, JoinOnce: &c.JoinOnce, AutoJoin: &c.AutoJoin,
		UseVoucherMetadataSchema: &c.UseVoucherMetadataSchema, StartDate: c.StartDate, ExpirationDate: c.ExpirationDate,
		ValidityTimeframe: c.ValidityTimeframe, ValidityDayOfWeek: c.ValidityDayOfWeek, ValidityHours: c.ValidityHours,
		ActivityDurationAfterPublishing: c.ActivityDurationAfterPublishing, Metadata: c.Metadata, CampaignType: &ct}
	if v := c.Voucher; v != nil {
		vt, cc := v.Type, v.CodeConfig
		p.Voucher = &VoucherParams{Type: &vt, Discount: v.Discount, Gift: v.Gift, CodeConfig: &cc,
			Redemption: &RedemptionParams{Quantity: v.Redemption.Quantity}}
	}
	if a := c.ValidationRulesAssignments; a != nil && len(a.Data) > 0 {
		p.ValidationRules = []string{a.Data[0].RuleID}
	}
	return p
}

// tierDefinition is the DISCOUNT_COUPONS create body of a campaign giving
// tier t's discount.
func tierDefinition(t *PromotionTier) Params {
	ct, vt := DiscountCoupons, DiscountVoucher
	p := Params{CampaignType: &ct, StartDate: t.StartDate, ExpirationDate: t.ExpirationDate,
		ValidityTimeframe: t.ValidityTimeframe, ValidityDayOfWeek: t.ValidityDayOfWeek, ValidityHours: t.ValidityHours,
		Metadata: t.Metadata, Voucher: &VoucherParams{Type: &vt, Discount: t.Action.Discount}}
	if a := t.ValidationRuleAssignments; a != nil && len(a.Data) > 0 {
		p.ValidationRules = []string{a.Data[0].RuleID}
	}
	return p
}

// rename sets the name and description of t that are not empty.
func (t *Template) rename(name, description string) error {
	if name != "" {
		if err := checkName(name); err != nil {
			return err
		}
		t.Name = name
	}
	if description != "" {
		t.Description = &description
	}
	return nil
}

// GetTemplate returns the template id of the project (404 not_found).
func (s *TemplateService) GetTemplate(ctx context.Context, projectID, id string) (*Template, error) {
	return s.store.GetCampaignTemplate(ctx, projectID, id)
}

// UpdateTemplate renames or re-describes the template id.
func (s *TemplateService) UpdateTemplate(ctx context.Context, projectID, id string, in TemplateUpdate) (*Template, error) {
	t, err := s.store.GetCampaignTemplate(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	if err := t.rename(in.Name, in.Description); err != nil {
		return nil, err
	}
	t.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := s.store.UpdateCampaignTemplate(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// DeleteTemplate deletes the template id; what was made of it stays.
func (s *TemplateService) DeleteTemplate(ctx context.Context, projectID, id string) error {
	return s.store.DeleteCampaignTemplate(ctx, projectID, id)
}

// TemplateListParams are the template list's parameters. Zero values mean
// not given: Limit 10, Order "id" (or "-id"), from the first template,
// no total, no filter.
type TemplateListParams struct {
	Limit           int
	Order           string
	StartingAfterID string
	IncludeTotal    bool
	Filter          promotype.Filter
}

// TemplateList is a page of templates: has_more and the id to go on after;
// total (every template of the project) only when asked for.
type TemplateList struct {
	Object            string      `json:"object"`
	DataRef           string      `json:"data_ref"`
	Data              []*Template `json:"data"`
	Total             *int        `json:"total,omitempty"`
	HasMore           bool        `json:"has_more"`
	MoreStartingAfter *string     `json:"more_starting_after,omitempty"`
}

// ListTemplates lists the project's templates (400 invalid_query_params
// for a bad limit, order or filter).
func (s *TemplateService) ListTemplates(ctx context.Context, projectID string, p TemplateListParams) (*TemplateList, error) {
	q, err := promotype.ListParams{Limit: p.Limit, Order: p.Order, Filter: p.Filter}.Query(TemplateListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	q.Limit++
	rows, err := s.store.ListCampaignTemplates(ctx, projectID, q, p.StartingAfterID)
	if err != nil {
		return nil, err
	}
	page := promotype.NewCursorList(rows, limit, func(t *Template) string { return t.ID })
	out := &TemplateList{Object: "list", DataRef: "data", Data: page.Data, HasMore: page.HasMore, MoreStartingAfter: page.MoreStartingAfter}
	if p.IncludeTotal {
		n, err := s.store.CountCampaignTemplates(ctx, projectID)
		if err != nil {
			return nil, err
		}
		out.Total = &n
	}
	return out, nil
}

// CopyTemplate copies the template id of project from to the project
// in.DestinationProjectID (which the caller has checked it may write),
// named in.Name (the source's name when empty). Its validation rule is
// left out: rules belong to their project.
func (s *TemplateService) CopyTemplate(ctx context.Context, from, id string, in TemplateCopy) (*Template, error) {
	if in.DestinationProjectID == "" {
		return nil, promotype.InvalidPayload("Payload must have required property 'destination_project_id'")
	}
	t, err := s.store.GetCampaignTemplate(ctx, from, id)
	if err != nil {
		return nil, err
	}
	if err := t.rename(in.Name, in.Description); err != nil {
		return nil, err
	}
	t.ID, t.ProjectID, t.CreatedAt, t.UpdatedAt = s.env.IDs.NewID(PrefixTemplate), in.DestinationProjectID, s.env.Clock.Now(), nil
	t.Definition.ValidationRules = nil
	if err := s.store.InsertCampaignTemplate(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// CreatedResource is a resource a setup created besides the campaign or
// tier itself.
type CreatedResource struct {
	ID     string `json:"id"`
	Object string `json:"object"`
}

// CampaignSetup is the answer of a campaign created from a template.
type CampaignSetup struct {
	CreatedResources []CreatedResource `json:"created_resources"`
	Campaign         *Campaign         `json:"campaign"`
	Object           string            `json:"object"`
}

// TemplateCampaignParams are what a campaign created from a template
// changes of the template's definition: Name is required; the other fields
// replace the template's when given (nil or empty: the template's).
type TemplateCampaignParams struct {
	Name                            string             `json:"name"`
	Description                     string             `json:"description"`
	Type                            *Type              `json:"type" validate:"omitempty,oneof=AUTO_UPDATE STATIC STANDALONE"`
	JoinOnce                        *bool              `json:"join_once"`
	AutoJoin                        *bool              `json:"auto_join"`
	UseVoucherMetadataSchema        *bool              `json:"use_voucher_metadata_schema"`
	VouchersCount                   *int64             `json:"vouchers_count"`
	StartDate                       *promotype.Time    `json:"start_date"`
	ExpirationDate                  *promotype.Time    `json:"expiration_date"`
	ValidityTimeframe               *ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek               []int              `json:"validity_day_of_week"`
	ValidityHours                   *ValidityHours     `json:"validity_hours"`
	ActivityDurationAfterPublishing string             `json:"activity_duration_after_publishing"`
	CategoryID                      string             `json:"category_id"`
	Category                        string             `json:"category"`
	Metadata                        promotype.Metadata `json:"metadata"`
	AccessSettings                  json.RawMessage    `json:"access_settings"`
	Voucher                         *TemplateVoucher   `json:"voucher"`
}

// TemplateVoucher is what a campaign created from a template may change of
// its vouchers: the code config and the redemption quantity.
type TemplateVoucher struct {
	CodeConfig *CodeConfig         `json:"code_config"`
	Redemption *RedemptionSettings `json:"redemption"`
}

// CreateCampaign creates a campaign from the template id, with in's values
// over the template's, through the campaigns API (a voucher campaign
// generates its vouchers as any created campaign does).
func (s *TemplateService) CreateCampaign(ctx context.Context, projectID, id string, in TemplateCampaignParams) (*CampaignSetup, error) {
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	t, err := s.store.GetCampaignTemplate(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	p := t.Definition
	p.Name = &in.Name
	set(&p.Description, optional(in.Description))
	set(&p.Type, in.Type)
	set(&p.JoinOnce, in.JoinOnce)
	set(&p.AutoJoin, in.AutoJoin)
	set(&p.UseVoucherMetadataSchema, in.UseVoucherMetadataSchema)
	set(&p.VouchersCount, in.VouchersCount)
	set(&p.StartDate, in.StartDate)
	set(&p.ExpirationDate, in.ExpirationDate)
	set(&p.ValidityTimeframe, in.ValidityTimeframe)
	set(&p.ValidityHours, in.ValidityHours)
	set(&p.ActivityDurationAfterPublishing, optional(in.ActivityDurationAfterPublishing))
	set(&p.CategoryID, optional(in.CategoryID))
	set(&p.Category, optional(in.Category))
	if in.ValidityDayOfWeek != nil {
		p.ValidityDayOfWeek = slices.Clone(in.ValidityDayOfWeek)
	}
	if in.Metadata != nil {
		p.Metadata = in.Metadata
	}
	p.AccessSettings = in.AccessSettings
	if v := in.Voucher; v != nil && p.Voucher != nil {
		set(&p.Voucher.CodeConfig, v.CodeConfig)
		if v.Redemption != nil {
			p.Voucher.Redemption = &RedemptionParams{Quantity: v.Redemption.Quantity}
		}
	}
	c, err := s.api.Create(ctx, projectID, p)
	if err != nil {
		return nil, err
	}
	return &CampaignSetup{CreatedResources: []CreatedResource{}, Campaign: c, Object: "campaign_setup"}, nil
}

// set replaces *dst by v when v is given.
func set[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// TierSetup is the answer of a promotion tier created from a template.
type TierSetup struct {
	CreatedResources []CreatedResource `json:"created_resources"`
	PromotionTier    *PromotionTier    `json:"promotion_tier"`
	Object           string            `json:"object"`
}

// TemplateTierParams are the promotion tier created from a template:
// CampaignID (a PROMOTION campaign) and Name are required; the other
// fields replace the template's when given.
type TemplateTierParams struct {
	CampaignID string             `json:"campaign_id"`
	Name       string             `json:"name"`
	Banner     string             `json:"banner"`
	Metadata   promotype.Metadata `json:"metadata"`
	Hierarchy  *int               `json:"hierarchy"`
	Active     *bool              `json:"active"`
	ValidityParams
	Category   string `json:"category"`
	CategoryID string `json:"category_id"`
}

// CreateTier adds a promotion tier made from the template id (a
// DISCOUNT_COUPONS template: its discount is the tier's action) to the
// PROMOTION campaign in.CampaignID, through the tier service.
func (s *TemplateService) CreateTier(ctx context.Context, projectID, id string, in TemplateTierParams) (*TierSetup, error) {
	if in.CampaignID == "" {
		return nil, promotype.InvalidPayload("Payload must have required property 'campaign_id'")
	}
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	t, err := s.store.GetCampaignTemplate(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	def := t.Definition
	if t.CampaignType != DiscountCoupons || def.Voucher == nil || def.Voucher.Discount == nil {
		return nil, promotype.BadRequest("invalid_template", "Invalid template",
			"A promotion tier is made of a DISCOUNT_COUPONS template; template %s is %s", t.ID, t.CampaignType)
	}
	tp := TierParams{Name: &in.Name, Banner: optional(in.Banner), Action: &TierAction{Discount: def.Voucher.Discount},
		Metadata: def.Metadata, ValidationRules: def.ValidationRules, Active: in.Active, Hierarchy: in.Hierarchy,
		ValidityParams: ValidityParams{StartDate: def.StartDate, ExpirationDate: def.ExpirationDate,
			ValidityTimeframe: def.ValidityTimeframe, ValidityDayOfWeek: def.ValidityDayOfWeek, ValidityHours: def.ValidityHours},
		Category: optional(in.Category), CategoryID: optional(in.CategoryID)}
	if in.Metadata != nil {
		tp.Metadata = in.Metadata
	}
	set(&tp.StartDate, in.StartDate)
	set(&tp.ExpirationDate, in.ExpirationDate)
	set(&tp.ValidityTimeframe, in.ValidityTimeframe)
	set(&tp.ValidityHours, in.ValidityHours)
	if in.ValidityDayOfWeek != nil {
		tp.ValidityDayOfWeek = slices.Clone(in.ValidityDayOfWeek)
	}
	tier, err := s.tiers.Create(ctx, projectID, in.CampaignID, tp)
	if err != nil {
		return nil, err
	}
	return &TierSetup{CreatedResources: []CreatedResource{}, PromotionTier: tier, Object: "promotion_tier_setup"}, nil
}
