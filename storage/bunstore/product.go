package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

type productRow struct {
	bun.BaseModel `bun:"table:promo_products,alias:p"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	SourceID   *string         `bun:"source_id"`
	Name       *string         `bun:"name"`
	Price      *int64          `bun:"price"`
	Attributes json.RawMessage `bun:"attributes"` // jsonb array of names; NULL for nil
	Metadata   json.RawMessage `bun:"metadata"`
	ImageURL   *string         `bun:"image_url"`
	CreatedAt  time.Time       `bun:"created_at"`
	UpdatedAt  *time.Time      `bun:"updated_at"`
	BinnedAt   *time.Time      `bun:"binned_at"`

	Total int `bun:"total,scanonly"`
}

func (r *productRow) listTotal() int { return r.Total }

var productColumns = columns{
	"source_id":  {"source_id", promotype.FieldString},
	"name":       {"name", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

func newProductRow(p *catalog.Product) (*productRow, error) {
	if err := checkText("product", str("id", p.ID), str("project_id", p.ProjectID),
		text{"source_id", p.SourceID}, text{"name", p.Name}, text{"image_url", p.ImageURL}); err != nil {
		return nil, err
	}
	var attrs json.RawMessage
	if p.Attributes != nil {
		var err error
		if attrs, err = encodeJSON(p.Attributes); err != nil {
			return nil, err
		}
	}
	meta, err := encodeMetadata(p.Metadata)
	if err != nil {
		return nil, err
	}
	return &productRow{
		ProjectID:  p.ProjectID,
		ID:         p.ID,
		SourceID:   promotype.ClonePtr(p.SourceID),
		Name:       promotype.ClonePtr(p.Name),
		Price:      promotype.ClonePtr(p.Price),
		Attributes: attrs,
		Metadata:   meta,
		ImageURL:   promotype.ClonePtr(p.ImageURL),
		CreatedAt:  sqlTime(p.CreatedAt),
		UpdatedAt:  sqlTimePtr(p.UpdatedAt),
		BinnedAt:   sqlTimePtr(p.BinnedAt),
	}, nil
}

func (r *productRow) domain() (*catalog.Product, error) {
	p := &catalog.Product{
		ID:        r.ID,
		ProjectID: r.ProjectID,
		SourceID:  r.SourceID,
		Name:      r.Name,
		Price:     r.Price,
		ImageURL:  r.ImageURL,
		CreatedAt: domainTime(r.CreatedAt),
		UpdatedAt: domainTimePtr(r.UpdatedAt),
		BinnedAt:  domainTimePtr(r.BinnedAt),
	}
	if err := decodeJSON(r.Attributes, &p.Attributes); err != nil {
		return nil, err
	}
	var err error
	if p.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	return p, nil
}

func productNotFound(id string) func() error {
	return func() error { return promotype.NotFound("product", id) }
}

// productKeys is the live-source-id uniqueness of promo_products.
var productKeys = keyed{kind: "product", table: "promo_products", alias: "p", column: "source_id", live: "binned_at IS NULL"}

// InsertProduct implements catalog.Store.
func (s *Store) InsertProduct(ctx context.Context, p *catalog.Product) error {
	row, err := newProductRow(p)
	if err != nil {
		return err
	}
	return productKeys.insert(ctx, s.db, row, p.ProjectID, p.ID, p.SourceID)
}

// UpdateProduct implements catalog.Store. It replaces every field of the
// live row; a source id held by another live row of the project is refused
// without touching the row.
func (s *Store) UpdateProduct(ctx context.Context, p *catalog.Product) error {
	row, err := newProductRow(p)
	return productKeys.replace(ctx, s.db, row, err, p.ProjectID, p.ID, p.SourceID, productNotFound(p.ID), func() error {
		_, err := s.GetProduct(ctx, p.ProjectID, p.ID)
		return err
	})
}

// GetProduct implements catalog.Store.
func (s *Store) GetProduct(ctx context.Context, projectID, id string) (*catalog.Product, error) {
	return getLive[productRow, *productRow, *catalog.Product](ctx, s.db, productKeys, "id", projectID, id, productNotFound(id))
}

// FindProductBySourceID implements catalog.Store.
func (s *Store) FindProductBySourceID(ctx context.Context, projectID, sourceID string) (*catalog.Product, error) {
	return getLive[productRow, *productRow, *catalog.Product](ctx, s.db, productKeys, "source_id", projectID, sourceID, productNotFound(sourceID))
}

// ListProducts implements catalog.Store.
func (s *Store) ListProducts(ctx context.Context, projectID string, q promotype.Query) ([]*catalog.Product, int, error) {
	if !storable(projectID) {
		return []*catalog.Product{}, 0, nil
	}
	return listDomain[productRow, *productRow, *catalog.Product](ctx, s.db, productColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("p.project_id = ? AND p.binned_at IS NULL", projectID)
	})
}

// BinProduct implements catalog.Store: the live product and its live SKUs
// get binned_at in one statement.
func (s *Store) BinProduct(ctx context.Context, projectID, id string, at promotype.Time) error {
	if !storableKeys(projectID, id) {
		return productNotFound(id)()
	}
	var n int
	err := s.db.NewRaw(`WITH p AS (
			UPDATE promo_products SET binned_at = ?
			WHERE project_id = ? AND id = ? AND binned_at IS NULL
			RETURNING id
		), s AS (
			UPDATE promo_skus SET binned_at = ?
			WHERE project_id = ? AND product_id IN (SELECT id FROM p) AND binned_at IS NULL
		)
		SELECT count(*) FROM p`,
		sqlTime(at), projectID, id, sqlTime(at), projectID).Scan(ctx, &n)
	if err != nil {
		return fail("bin product", err, nil)
	}
	if n == 0 {
		return productNotFound(id)()
	}
	return nil
}

// DeleteProduct implements catalog.Store: the product (live or binned) and
// all its SKUs go in one statement.
func (s *Store) DeleteProduct(ctx context.Context, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return productNotFound(id)()
	}
	var n int
	err := s.db.NewRaw(`WITH p AS (
			DELETE FROM promo_products WHERE project_id = ? AND id = ?
			RETURNING id
		), s AS (
			DELETE FROM promo_skus WHERE project_id = ? AND product_id IN (SELECT id FROM p)
		)
		SELECT count(*) FROM p`,
		projectID, id, projectID).Scan(ctx, &n)
	if err != nil {
		return fail("delete product", err, nil)
	}
	if n == 0 {
		return productNotFound(id)()
	}
	return nil
}
