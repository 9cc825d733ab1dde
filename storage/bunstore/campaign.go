package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
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
var campaignKeys = keyed{kind: "campaign", table: "promo_campaigns", alias: "c", column: "name", live: "binned_at IS NULL"}

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
	if err != nil {
		return rowErr(err, c.ProjectID, c.ID, campaignNotFound(c.ID))
	}
	res, err := s.db.NewUpdate().Model(row).WherePK().ExcludeColumn("project_id", "id", "vouchers_count").
		Where("c.binned_at IS NULL").
		Where("NOT EXISTS (SELECT 1 FROM promo_campaigns AS o WHERE o.project_id = c.project_id AND o.name = ? AND o.id <> c.id AND o.binned_at IS NULL)", c.Name).
		Exec(ctx)
	if err != nil {
		return fail("update campaign", err, func() error { return campaignKeys.duplicateKey(&c.Name) })
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	if _, err := s.GetCampaign(ctx, c.ProjectID, c.ID); err != nil {
		return err
	}
	return campaignKeys.duplicateKey(&c.Name)
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
	})
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
