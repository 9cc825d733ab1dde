package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
)

type campaignRow struct {
	bun.BaseModel `bun:"table:promo_campaigns,alias:c"`

	ProjectID                string          `bun:"project_id,pk"`
	ID                       string          `bun:"id,pk"`
	Name                     string          `bun:"name"`
	CampaignType             string          `bun:"campaign_type"`
	Type                     string          `bun:"type"`
	CategoryID               *string         `bun:"category_id"`
	CreationStatus           string          `bun:"creation_status"`
	VouchersGenerationStatus string          `bun:"vouchers_generation_status"`
	VoucherType              *string         `bun:"voucher_type"`
	Active                   string          `bun:"active"`
	IsReferralCode           string          `bun:"is_referral_code"`
	VouchersCount            int64           `bun:"vouchers_count"`
	Revision                 int             `bun:"revision"`
	StartDate                *time.Time      `bun:"start_date"`
	ExpirationDate           *time.Time      `bun:"expiration_date"`
	Data                     json.RawMessage `bun:"data"`
	CreatedAt                time.Time       `bun:"created_at"`
	UpdatedAt                *time.Time      `bun:"updated_at"`
	BinnedAt                 *time.Time      `bun:"binned_at"`

	Total int `bun:"total,scanonly"`
}

func (r *campaignRow) listTotal() int { return r.Total }

// campaignData is every field of a campaign that is not a column of its own.
type campaignData struct {
	Description                     *string                     `json:"description,omitempty"`
	Voucher                         *campaign.VoucherSettings   `json:"voucher,omitempty"`
	AutoJoin                        bool                        `json:"auto_join,omitempty"`
	JoinOnce                        bool                        `json:"join_once,omitempty"`
	UseVoucherMetadataSchema        bool                        `json:"use_voucher_metadata_schema,omitempty"`
	ValidityTimeframe               *campaign.ValidityTimeframe `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek               []int                       `json:"validity_day_of_week"` // null and [] differ
	ValidityHours                   *campaign.ValidityHours     `json:"validity_hours,omitempty"`
	ActivityDurationAfterPublishing *string                     `json:"activity_duration_after_publishing,omitempty"`
	Metadata                        promotype.Metadata          `json:"metadata"`
	Protected                       bool                        `json:"protected,omitempty"`
	ReferralProgram                 *campaign.ReferralSettings  `json:"referral_program,omitempty"`
	LoyaltyTiersExpiration          json.RawMessage             `json:"loyalty_tiers_expiration,omitempty"`
}

var campaignColumns = columns{
	"name":                       {"name", promotype.FieldString},
	"campaign_type":              {"campaign_type", promotype.FieldString},
	"type":                       {"type", promotype.FieldString},
	"category_id":                {"category_id", promotype.FieldString},
	"creation_status":            {"creation_status", promotype.FieldString},
	"vouchers_generation_status": {"vouchers_generation_status", promotype.FieldString},
	"voucher_type":               {"voucher_type", promotype.FieldString},
	"active":                     {"active", promotype.FieldString},
	"is_referral_code":           {"is_referral_code", promotype.FieldString},
	"created_at":                 {"created_at", promotype.FieldTime},
	"updated_at":                 {"updated_at", promotype.FieldTime},
	"start_date":                 {"start_date", promotype.FieldTime},
	"expiration_date":            {"expiration_date", promotype.FieldTime},
}

func newCampaignRow(c *campaign.Campaign) (*campaignRow, error) {
	if err := checkText("campaign", str("id", c.ID), str("project_id", c.ProjectID), str("name", c.Name),
		text{"category_id", c.CategoryID}, text{"description", c.Description}); err != nil {
		return nil, err
	}
	d := campaignData{
		Description: c.Description, Voucher: c.Voucher.Clone(), AutoJoin: c.AutoJoin, JoinOnce: c.JoinOnce,
		UseVoucherMetadataSchema: c.UseVoucherMetadataSchema, ValidityTimeframe: c.ValidityTimeframe,
		ValidityDayOfWeek: c.ValidityDayOfWeek, ValidityHours: c.ValidityHours,
		ActivityDurationAfterPublishing: c.ActivityDurationAfterPublishing, Metadata: c.Metadata,
		Protected: c.Protected, ReferralProgram: c.ReferralProgram, LoyaltyTiersExpiration: c.LoyaltyTiersExpiration,
	}
	if d.Metadata == nil {
		d.Metadata = promotype.Metadata{}
	}
	data, err := encodeJSON(d)
	if err != nil {
		return nil, err
	}
	row := &campaignRow{
		ProjectID: c.ProjectID, ID: c.ID, Name: c.Name, CampaignType: string(c.CampaignType), Type: string(c.Type),
		CategoryID: promotype.ClonePtr(c.CategoryID), CreationStatus: string(c.CreationStatus),
		VouchersGenerationStatus: string(c.VouchersGenerationStatus),
		Active:                   c.Field("active").Str, IsReferralCode: c.Field("is_referral_code").Str,
		VouchersCount: c.VouchersCount, Revision: c.Revision,
		StartDate: sqlTimePtr(c.StartDate), ExpirationDate: sqlTimePtr(c.ExpirationDate),
		Data: data, CreatedAt: sqlTime(c.CreatedAt), UpdatedAt: sqlTimePtr(c.UpdatedAt), BinnedAt: sqlTimePtr(c.BinnedAt),
	}
	if c.Voucher != nil {
		vt := string(c.Voucher.Type)
		row.VoucherType = &vt
	}
	return row, nil
}

func (r *campaignRow) domain() (*campaign.Campaign, error) {
	var d campaignData
	if err := decodeJSON(r.Data, &d); err != nil {
		return nil, err
	}
	c := &campaign.Campaign{
		ID: r.ID, ProjectID: r.ProjectID, Name: r.Name, Description: d.Description,
		CampaignType: campaign.CampaignType(r.CampaignType), Type: campaign.Type(r.Type), Voucher: d.Voucher,
		AutoJoin: d.AutoJoin, JoinOnce: d.JoinOnce, UseVoucherMetadataSchema: d.UseVoucherMetadataSchema,
		Validity: campaign.Validity{
			StartDate: domainTimePtr(r.StartDate), ExpirationDate: domainTimePtr(r.ExpirationDate),
			ValidityTimeframe: d.ValidityTimeframe, ValidityDayOfWeek: d.ValidityDayOfWeek, ValidityHours: d.ValidityHours,
		},
		ActivityDurationAfterPublishing: d.ActivityDurationAfterPublishing,
		VouchersCount:                   r.VouchersCount, Active: r.Active == "true", Metadata: d.Metadata,
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt),
		CreationStatus: campaign.Status(r.CreationStatus), VouchersGenerationStatus: campaign.Status(r.VouchersGenerationStatus),
		Protected: d.Protected, CategoryID: r.CategoryID, ReferralProgram: d.ReferralProgram,
		LoyaltyTiersExpiration: compactJSON(d.LoyaltyTiersExpiration), BinnedAt: domainTimePtr(r.BinnedAt), Revision: r.Revision,
	}
	if c.Metadata == nil {
		c.Metadata = promotype.Metadata{}
	}
	return c, nil
}

func campaignNotFound(id string) func() error {
	return func() error { return promotype.NotFound("campaign", id) }
}

// campaignKeys is the live-name uniqueness of promo_campaigns.
var campaignKeys = keyed{kind: "campaign", table: "promo_campaigns", alias: "c", column: "name", live: "binned_at IS NULL",
	keep: []string{"vouchers_count"}}

// InsertCampaign implements campaign.CampaignStore.
func (s *Store) InsertCampaign(ctx context.Context, c *campaign.Campaign) error {
	row, err := newCampaignRow(c)
	if err != nil {
		return err
	}
	return campaignKeys.insert(ctx, s.db, row, c.ProjectID, c.ID, &c.Name)
}

// UpdateCampaign implements campaign.CampaignStore: every column of the live
// row but vouchers_count; a name held by another live campaign is refused.
func (s *Store) UpdateCampaign(ctx context.Context, c *campaign.Campaign) error {
	row, err := newCampaignRow(c)
	return campaignKeys.replace(ctx, s.db, row, err, c.ProjectID, c.ID, &c.Name, campaignNotFound(c.ID), func() error {
		_, err := s.GetCampaign(ctx, c.ProjectID, c.ID)
		return err
	})
}

// GetCampaign implements campaign.CampaignStore.
func (s *Store) GetCampaign(ctx context.Context, projectID, id string) (*campaign.Campaign, error) {
	return getLive[campaignRow, *campaignRow, *campaign.Campaign](ctx, s.db, campaignKeys, "id", projectID, id, campaignNotFound(id))
}

// FindCampaignByName implements campaign.CampaignStore.
func (s *Store) FindCampaignByName(ctx context.Context, projectID, name string) (*campaign.Campaign, error) {
	return getLive[campaignRow, *campaignRow, *campaign.Campaign](ctx, s.db, campaignKeys, "name", projectID, name, campaignNotFound(name))
}

// ListCampaigns implements campaign.CampaignStore.
func (s *Store) ListCampaigns(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.Campaign, int, error) {
	if !storable(projectID) {
		return []*campaign.Campaign{}, 0, nil
	}
	return listDomain[campaignRow, *campaignRow, *campaign.Campaign](ctx, s.db, campaignColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("c.project_id = ? AND c.binned_at IS NULL", projectID)
	}, projectTally("campaigns", projectID, q))
}

// SetCampaignStatus implements campaign.CampaignStore.
func (s *Store) SetCampaignStatus(ctx context.Context, projectID, id string, status campaign.Status, revision int) (bool, error) {
	if !storableKeys(projectID, id) {
		return false, campaignNotFound(id)()
	}
	res, err := s.db.NewUpdate().Table("promo_campaigns").
		Set("creation_status = ?, vouchers_generation_status = ?", string(status), string(status)).
		Where("project_id = ? AND id = ?", projectID, id).
		Where("? < 0 OR revision = ?", revision, revision).
		Exec(ctx)
	if err != nil {
		return false, fail("set campaign status", err, nil)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return true, nil
	}
	exists, err := s.db.NewSelect().Table("promo_campaigns").Where("project_id = ? AND id = ?", projectID, id).Exists(ctx)
	if err != nil {
		return false, fail("set campaign status", err, nil)
	}
	if !exists {
		return false, campaignNotFound(id)()
	}
	return false, nil
}

// AddCampaignVouchers implements campaign.CampaignStore.
func (s *Store) AddCampaignVouchers(ctx context.Context, projectID, id string, delta int64) error {
	if !storableKeys(projectID, id) {
		return campaignNotFound(id)()
	}
	res, err := s.db.NewUpdate().Table("promo_campaigns").Set("vouchers_count = vouchers_count + ?", delta).
		Where("project_id = ? AND id = ?", projectID, id).Exec(ctx)
	if err != nil {
		return fail("count campaign vouchers", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return campaignNotFound(id)()
	}
	return nil
}

// BinCampaign implements campaign.CampaignStore.
func (s *Store) BinCampaign(ctx context.Context, projectID, id string, at promotype.Time) error {
	return binByID[campaignRow](ctx, s.db, "bin campaign", "c", projectID, id, at, campaignNotFound(id))
}

// DeleteCampaign implements campaign.CampaignStore.
func (s *Store) DeleteCampaign(ctx context.Context, projectID, id string) error {
	return deleteByID[campaignRow](ctx, s.db, "delete campaign", "c", projectID, id, campaignNotFound(id))
}

// compactJSON undoes jsonb's formatting of a raw value: the canonical form
// the campaign service stores (campaign.Canonical).
func compactJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return campaign.Canonical(b)
}

type categoryRow struct {
	bun.BaseModel `bun:"table:promo_categories,alias:cat"`

	ProjectID string     `bun:"project_id,pk"`
	ID        string     `bun:"id,pk"`
	Name      string     `bun:"name"`
	Hierarchy int        `bun:"hierarchy"`
	CreatedAt time.Time  `bun:"created_at"`
	UpdatedAt *time.Time `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *categoryRow) listTotal() int { return r.Total }

var categoryColumns = columns{
	"name":       {"name", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

func (r *categoryRow) domain() (*campaign.Category, error) {
	return &campaign.Category{ID: r.ID, ProjectID: r.ProjectID, Name: r.Name, Hierarchy: r.Hierarchy,
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt)}, nil
}

func categoryNotFound(id string) func() error {
	return func() error { return promotype.NotFound("category", id) }
}

// categoryKeys is the name uniqueness of promo_categories.
var categoryKeys = keyed{kind: "category", table: "promo_categories", alias: "cat", column: "name"}

// InsertCategory implements campaign.CampaignStore.
func (s *Store) InsertCategory(ctx context.Context, c *campaign.Category) error {
	if err := checkText("category", str("id", c.ID), str("project_id", c.ProjectID), str("name", c.Name)); err != nil {
		return err
	}
	row := &categoryRow{ProjectID: c.ProjectID, ID: c.ID, Name: c.Name, Hierarchy: c.Hierarchy,
		CreatedAt: sqlTime(c.CreatedAt), UpdatedAt: sqlTimePtr(c.UpdatedAt)}
	return categoryKeys.insert(ctx, s.db, row, c.ProjectID, c.ID, &c.Name)
}

// GetCategory implements campaign.CampaignStore.
func (s *Store) GetCategory(ctx context.Context, projectID, id string) (*campaign.Category, error) {
	return getLive[categoryRow, *categoryRow, *campaign.Category](ctx, s.db, categoryKeys, "id", projectID, id, categoryNotFound(id))
}

// FindCategoryByName implements campaign.CampaignStore.
func (s *Store) FindCategoryByName(ctx context.Context, projectID, name string) (*campaign.Category, error) {
	return getLive[categoryRow, *categoryRow, *campaign.Category](ctx, s.db, categoryKeys, "name", projectID, name, categoryNotFound(name))
}

// ListCategories implements campaign.CampaignStore.
func (s *Store) ListCategories(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.Category, int, error) {
	return listProject[categoryRow, *categoryRow, *campaign.Category](ctx, s.db, categoryColumns, "cat", "", projectID, q)
}

// UpdateCategory implements campaign.CampaignStore.
func (s *Store) UpdateCategory(ctx context.Context, c *campaign.Category) error {
	if err := checkText("category", str("id", c.ID), str("project_id", c.ProjectID), str("name", c.Name)); err != nil {
		return rowErr(err, c.ProjectID, c.ID, categoryNotFound(c.ID))
	}
	row := &categoryRow{ProjectID: c.ProjectID, ID: c.ID, Name: c.Name, Hierarchy: c.Hierarchy,
		CreatedAt: sqlTime(c.CreatedAt), UpdatedAt: sqlTimePtr(c.UpdatedAt)}
	return categoryKeys.update(ctx, s.db, row, &c.Name, func() error {
		_, err := s.GetCategory(ctx, c.ProjectID, c.ID)
		return err
	})
}

// DeleteCategory implements campaign.CampaignStore.
func (s *Store) DeleteCategory(ctx context.Context, projectID, id string) error {
	return deleteByID[categoryRow](ctx, s.db, "delete category", "cat", projectID, id, categoryNotFound(id))
}

// CategoryInUse implements campaign.CampaignStore: campaigns and vouchers
// through their category indexes, tiers and stacks (a few per project)
// through their documents.
func (s *Store) CategoryInUse(ctx context.Context, projectID, id string) (bool, error) {
	if !storableKeys(projectID, id) {
		return false, nil
	}
	var used bool
	err := s.db.NewRaw(`SELECT EXISTS (SELECT 1 FROM promo_campaigns WHERE project_id = ?0 AND category_id = ?1 AND binned_at IS NULL)
		OR EXISTS (SELECT 1 FROM promo_vouchers WHERE project_id = ?0 AND category_id = ?1 AND binned_at IS NULL)
		OR EXISTS (SELECT 1 FROM promo_promotion_tiers WHERE project_id = ?0 AND doc->>'category_id' = ?1)
		OR EXISTS (SELECT 1 FROM promo_promotion_stacks WHERE project_id = ?0 AND doc->>'category_id' = ?1)`,
		projectID, id).Scan(ctx, &used)
	if err != nil {
		return false, fail("category in use", err, nil)
	}
	return used, nil
}

// tierRow stores a promotion tier: the columns lists filter and order on,
// and the whole tier as a document.
type tierRow struct {
	bun.BaseModel `bun:"table:promo_promotion_tiers,alias:pt"`

	ProjectID      string          `bun:"project_id,pk"`
	ID             string          `bun:"id,pk"`
	CampaignID     string          `bun:"campaign_id"`
	Active         string          `bun:"active"`
	Doc            json.RawMessage `bun:"doc"`
	CreatedAt      time.Time       `bun:"created_at"`
	UpdatedAt      *time.Time      `bun:"updated_at"`
	ExpirationDate *time.Time      `bun:"expiration_date"`

	Total int `bun:"total,scanonly"`
}

func (r *tierRow) listTotal() int { return r.Total }

var tierColumns = columns{
	"campaign_id":     {"campaign_id", promotype.FieldString},
	"active":          {"active", promotype.FieldString},
	"created_at":      {"created_at", promotype.FieldTime},
	"updated_at":      {"updated_at", promotype.FieldTime},
	"expiration_date": {"expiration_date", promotype.FieldTime},
}

func newTierRow(t *campaign.PromotionTier) (*tierRow, error) {
	fields := []text{str("id", t.ID), str("project_id", t.ProjectID), str("campaign_id", t.CampaignID), str("name", t.Name)}
	if t.Banner != nil {
		fields = append(fields, str("banner", *t.Banner))
	}
	if err := checkText("promotion tier", fields...); err != nil {
		return nil, err
	}
	doc, err := encodeJSON(t.Clone())
	if err != nil {
		return nil, err
	}
	active := "false"
	if t.Active {
		active = "true"
	}
	return &tierRow{ProjectID: t.ProjectID, ID: t.ID, CampaignID: t.CampaignID, Active: active, Doc: doc,
		CreatedAt: sqlTime(t.CreatedAt), UpdatedAt: sqlTimePtr(t.UpdatedAt), ExpirationDate: sqlTimePtr(t.ExpirationDate)}, nil
}

func (r *tierRow) domain() (*campaign.PromotionTier, error) {
	var t campaign.PromotionTier
	if err := decodeJSON(r.Doc, &t); err != nil {
		return nil, err
	}
	t.ProjectID, t.ID, t.CampaignID = r.ProjectID, r.ID, r.CampaignID
	if t.Metadata == nil {
		t.Metadata = promotype.Metadata{}
	}
	return t.Clone(), nil
}

func tierNotFound(id string) func() error {
	return func() error { return promotype.NotFound("promotion_tier", id) }
}

// InsertPromotionTier implements campaign.TierStore.
func (s *Store) InsertPromotionTier(ctx context.Context, t *campaign.PromotionTier) error {
	row, err := newTierRow(t)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert promotion tier", row, func() error {
		return promotype.Duplicate("promotion_tier", "Duplicated promotion_tier exists with id %s", t.ID)
	})
}

// UpdatePromotionTier implements campaign.TierStore.
func (s *Store) UpdatePromotionTier(ctx context.Context, t *campaign.PromotionTier) error {
	row, err := newTierRow(t)
	if err != nil {
		return rowErr(err, t.ProjectID, t.ID, tierNotFound(t.ID))
	}
	return replaceRow(ctx, s.db, "update promotion tier", row, tierNotFound(t.ID))
}

// GetPromotionTier implements campaign.TierStore.
func (s *Store) GetPromotionTier(ctx context.Context, projectID, id string) (*campaign.PromotionTier, error) {
	return getByID[tierRow, *tierRow, *campaign.PromotionTier](ctx, s.db, "get promotion tier", "pt", projectID, id, tierNotFound(id))
}

// ListPromotionTiers implements campaign.TierStore.
func (s *Store) ListPromotionTiers(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.PromotionTier, int, error) {
	return listProject[tierRow, *tierRow, *campaign.PromotionTier](ctx, s.db, tierColumns, "pt", "", projectID, q)
}

// DeletePromotionTier implements campaign.TierStore.
func (s *Store) DeletePromotionTier(ctx context.Context, projectID, id string) error {
	return deleteByID[tierRow](ctx, s.db, "delete promotion tier", "pt", projectID, id, tierNotFound(id))
}

// stackRow stores a promotion stack: list columns and the stack as a
// document.
type stackRow struct {
	bun.BaseModel `bun:"table:promo_promotion_stacks,alias:ps"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	CampaignID string          `bun:"campaign_id"`
	Name       string          `bun:"name"`
	Doc        json.RawMessage `bun:"doc"`
	CreatedAt  time.Time       `bun:"created_at"`
	UpdatedAt  *time.Time      `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *stackRow) listTotal() int { return r.Total }

var stackColumns = columns{
	"campaign_id": {"campaign_id", promotype.FieldString},
	"name":        {"name", promotype.FieldString},
	"created_at":  {"created_at", promotype.FieldTime},
	"updated_at":  {"updated_at", promotype.FieldTime},
}

func newStackRow(s *campaign.PromotionStack) (*stackRow, error) {
	if err := checkText("promotion stack", str("id", s.ID), str("project_id", s.ProjectID), str("campaign_id", s.CampaignID), str("name", s.Name)); err != nil {
		return nil, err
	}
	doc, err := encodeJSON(s.Clone())
	if err != nil {
		return nil, err
	}
	return &stackRow{ProjectID: s.ProjectID, ID: s.ID, CampaignID: s.CampaignID, Name: s.Name, Doc: doc,
		CreatedAt: sqlTime(s.CreatedAt), UpdatedAt: sqlTimePtr(s.UpdatedAt)}, nil
}

func (r *stackRow) domain() (*campaign.PromotionStack, error) {
	var s campaign.PromotionStack
	if err := decodeJSON(r.Doc, &s); err != nil {
		return nil, err
	}
	s.ProjectID, s.ID, s.CampaignID, s.Name = r.ProjectID, r.ID, r.CampaignID, r.Name
	return s.Clone(), nil
}

func stackNotFound(id string) func() error {
	return func() error { return promotype.NotFound("promotion_stack", id) }
}

// InsertPromotionStack implements campaign.StackStore.
func (s *Store) InsertPromotionStack(ctx context.Context, ps *campaign.PromotionStack) error {
	row, err := newStackRow(ps)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert promotion stack", row, func() error {
		return promotype.Duplicate("promotion_stack", "Duplicated promotion_stack exists with id %s", ps.ID)
	})
}

// UpdatePromotionStack implements campaign.StackStore.
func (s *Store) UpdatePromotionStack(ctx context.Context, ps *campaign.PromotionStack) error {
	row, err := newStackRow(ps)
	if err != nil {
		return rowErr(err, ps.ProjectID, ps.ID, stackNotFound(ps.ID))
	}
	return replaceRow(ctx, s.db, "update promotion stack", row, stackNotFound(ps.ID))
}

// GetPromotionStack implements campaign.StackStore.
func (s *Store) GetPromotionStack(ctx context.Context, projectID, id string) (*campaign.PromotionStack, error) {
	return getByID[stackRow, *stackRow, *campaign.PromotionStack](ctx, s.db, "get promotion stack", "ps", projectID, id, stackNotFound(id))
}

// ListPromotionStacks implements campaign.StackStore.
func (s *Store) ListPromotionStacks(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.PromotionStack, int, error) {
	return listProject[stackRow, *stackRow, *campaign.PromotionStack](ctx, s.db, stackColumns, "ps", "", projectID, q)
}

// DeletePromotionStack implements campaign.StackStore.
func (s *Store) DeletePromotionStack(ctx context.Context, projectID, id string) error {
	return deleteByID[stackRow](ctx, s.db, "delete promotion stack", "ps", projectID, id, stackNotFound(id))
}

type templateRow struct {
	bun.BaseModel `bun:"table:promo_campaign_templates,alias:tpl"`

	ProjectID    string          `bun:"project_id,pk"`
	ID           string          `bun:"id,pk"`
	Name         string          `bun:"name"`
	Description  *string         `bun:"description"`
	CampaignType string          `bun:"campaign_type"`
	Definition   json.RawMessage `bun:"definition,type:jsonb"`
	CreatedAt    time.Time       `bun:"created_at"`
	UpdatedAt    *time.Time      `bun:"updated_at"`
}

func newTemplateRow(t *campaign.Template) (*templateRow, error) {
	if err := checkText("campaign_template", str("id", t.ID), str("project_id", t.ProjectID), str("name", t.Name)); err != nil {
		return nil, err
	}
	def, err := encodeJSON(t.Definition)
	if err != nil {
		return nil, err
	}
	return &templateRow{ProjectID: t.ProjectID, ID: t.ID, Name: t.Name, Description: t.Description, CampaignType: string(t.CampaignType),
		Definition: def, CreatedAt: sqlTime(t.CreatedAt), UpdatedAt: sqlTimePtr(t.UpdatedAt)}, nil
}

func (r *templateRow) domain() (*campaign.Template, error) {
	t := &campaign.Template{ID: r.ID, ProjectID: r.ProjectID, Name: r.Name, Description: r.Description,
		CampaignType: campaign.CampaignType(r.CampaignType), CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt),
		Object: "campaign_template"}
	if err := decodeJSON(r.Definition, &t.Definition); err != nil {
		return nil, err
	}
	return t, nil
}

func templateNotFound(id string) func() error {
	return func() error { return promotype.NotFound("campaign_template", id) }
}

// templateKeys is the name uniqueness of promo_campaign_templates.
var templateKeys = keyed{kind: "campaign_template", table: "promo_campaign_templates", alias: "tpl", column: "name"}

// templateColumns are the template list's filterable fields.
var templateColumns = columns{
	"id":            {"id", promotype.FieldString},
	"name":          {"name", promotype.FieldString},
	"campaign_type": {"campaign_type", promotype.FieldString},
}

// InsertCampaignTemplate implements campaign.TemplateStore.
func (s *Store) InsertCampaignTemplate(ctx context.Context, t *campaign.Template) error {
	row, err := newTemplateRow(t)
	if err != nil {
		return err
	}
	return templateKeys.insert(ctx, s.db, row, t.ProjectID, t.ID, &t.Name)
}

// UpdateCampaignTemplate implements campaign.TemplateStore.
func (s *Store) UpdateCampaignTemplate(ctx context.Context, t *campaign.Template) error {
	row, err := newTemplateRow(t)
	return templateKeys.replace(ctx, s.db, row, err, t.ProjectID, t.ID, &t.Name, templateNotFound(t.ID), func() error {
		_, err := s.GetCampaignTemplate(ctx, t.ProjectID, t.ID)
		return err
	})
}

// GetCampaignTemplate implements campaign.TemplateStore.
func (s *Store) GetCampaignTemplate(ctx context.Context, projectID, id string) (*campaign.Template, error) {
	return getLive[templateRow, *templateRow, *campaign.Template](ctx, s.db, templateKeys, "id", projectID, id, templateNotFound(id))
}

// ListCampaignTemplates implements campaign.TemplateStore: a page read
// off the primary key in id order.
func (s *Store) ListCampaignTemplates(ctx context.Context, projectID string, q promotype.Query, after string) ([]*campaign.Template, error) {
	if !storableKeys(projectID, after) {
		return nil, nil
	}
	var rows []templateRow
	sel, err := templateColumns.idPage(s.db.NewSelect().Model(&rows).Where("tpl.project_id = ?", projectID), "tpl", q, after)
	if err != nil {
		return nil, err
	}
	if err := sel.Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, fail("list campaign templates", err, nil)
	}
	out := make([]*campaign.Template, len(rows))
	for i := range rows {
		if out[i], err = rows[i].domain(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CountCampaignTemplates implements campaign.TemplateStore.
func (s *Store) CountCampaignTemplates(ctx context.Context, projectID string) (int, error) {
	n, err := s.db.NewSelect().Model((*templateRow)(nil)).Where("tpl.project_id = ?", projectID).Count(ctx)
	if err != nil {
		return 0, fail("count campaign templates", err, nil)
	}
	return int(n), nil
}

// DeleteCampaignTemplate implements campaign.TemplateStore.
func (s *Store) DeleteCampaignTemplate(ctx context.Context, projectID, id string) error {
	return deleteByID[templateRow](ctx, s.db, "delete campaign template", "tpl", projectID, id, templateNotFound(id))
}
