package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

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

func (r *categoryRow) domain() *campaign.Category {
	return &campaign.Category{ID: r.ID, ProjectID: r.ProjectID, Name: r.Name, Hierarchy: r.Hierarchy,
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt)}
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
	return s.getCategory(ctx, id, "cat.project_id = ? AND cat.id = ?", projectID, id)
}

// FindCategoryByName implements campaign.CampaignStore.
func (s *Store) FindCategoryByName(ctx context.Context, projectID, name string) (*campaign.Category, error) {
	return s.getCategory(ctx, name, "cat.project_id = ? AND cat.name = ?", projectID, name)
}

func (s *Store) getCategory(ctx context.Context, ref, where, projectID, key string) (*campaign.Category, error) {
	if !storableKeys(projectID, key) {
		return nil, categoryNotFound(ref)()
	}
	var row categoryRow
	if err := s.db.NewSelect().Model(&row).Where(where, projectID, key).Scan(ctx); err != nil {
		return nil, getErr("get category", err, categoryNotFound(ref))
	}
	return row.domain(), nil
}

// ListCategories implements campaign.CampaignStore.
func (s *Store) ListCategories(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.Category, int, error) {
	if !storable(projectID) {
		return []*campaign.Category{}, 0, nil
	}
	rows, total, err := list[categoryRow](ctx, s.db, categoryColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("cat.project_id = ?", projectID)
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]*campaign.Category, len(rows))
	for i := range rows {
		out[i] = rows[i].domain()
	}
	return out, total, nil
}
