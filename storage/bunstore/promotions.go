package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

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
	dup := func() error {
		return promotype.Duplicate("promotion_tier", "Duplicated promotion_tier exists with id %s", t.ID)
	}
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert promotion tier", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
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
	return listProject[tierRow, *tierRow, *campaign.PromotionTier](ctx, s.db, tierColumns, "pt", projectID, q)
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
	dup := func() error {
		return promotype.Duplicate("promotion_stack", "Duplicated promotion_stack exists with id %s", ps.ID)
	}
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert promotion stack", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
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
	if !storableKeys(projectID, id) {
		return nil, stackNotFound(id)()
	}
	var row stackRow
	if err := s.db.NewSelect().Model(&row).Where("ps.project_id = ? AND ps.id = ?", projectID, id).Scan(ctx); err != nil {
		return nil, getErr("get promotion stack", err, stackNotFound(id))
	}
	return row.domain()
}

// ListPromotionStacks implements campaign.StackStore.
func (s *Store) ListPromotionStacks(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.PromotionStack, int, error) {
	return listProject[stackRow, *stackRow, *campaign.PromotionStack](ctx, s.db, stackColumns, "ps", projectID, q)
}

// DeletePromotionStack implements campaign.StackStore.
func (s *Store) DeletePromotionStack(ctx context.Context, projectID, id string) error {
	return deleteByID[stackRow](ctx, s.db, "delete promotion stack", "ps", projectID, id, stackNotFound(id))
}
