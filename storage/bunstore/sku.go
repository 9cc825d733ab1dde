package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

type skuRow struct {
	bun.BaseModel `bun:"table:promo_skus,alias:s"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	ProductID  string          `bun:"product_id"`
	SourceID   *string         `bun:"source_id"`
	SKU        *string         `bun:"sku"`
	Price      *int64          `bun:"price"`
	Currency   *string         `bun:"currency"`
	Attributes json.RawMessage `bun:"attributes"`
	ImageURL   *string         `bun:"image_url"`
	Metadata   json.RawMessage `bun:"metadata"`
	CreatedAt  time.Time       `bun:"created_at"`
	UpdatedAt  *time.Time      `bun:"updated_at"`
	BinnedAt   *time.Time      `bun:"binned_at"`

	Total int `bun:"total,scanonly"`
}

func (r *skuRow) listTotal() int { return r.Total }

var skuColumns = columns{
	"source_id":  {"source_id", promotype.FieldString},
	"sku":        {"sku", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

func newSKURow(s *catalog.SKU) (*skuRow, error) {
	if err := checkText("sku", str("id", s.ID), str("project_id", s.ProjectID), str("product_id", s.ProductID),
		text{"source_id", s.SourceID}, text{"sku", s.SKU}, text{"currency", s.Currency}, text{"image_url", s.ImageURL}); err != nil {
		return nil, err
	}
	attrs, err := encodeMetadata(s.Attributes)
	if err != nil {
		return nil, err
	}
	meta, err := encodeMetadata(s.Metadata)
	if err != nil {
		return nil, err
	}
	return &skuRow{
		ProjectID:  s.ProjectID,
		ID:         s.ID,
		ProductID:  s.ProductID,
		SourceID:   promotype.ClonePtr(s.SourceID),
		SKU:        promotype.ClonePtr(s.SKU),
		Price:      promotype.ClonePtr(s.Price),
		Currency:   promotype.ClonePtr(s.Currency),
		Attributes: attrs,
		ImageURL:   promotype.ClonePtr(s.ImageURL),
		Metadata:   meta,
		CreatedAt:  sqlTime(s.CreatedAt),
		UpdatedAt:  sqlTimePtr(s.UpdatedAt),
		BinnedAt:   sqlTimePtr(s.BinnedAt),
	}, nil
}

func (r *skuRow) domain() (*catalog.SKU, error) {
	s := &catalog.SKU{
		ID:        r.ID,
		ProjectID: r.ProjectID,
		ProductID: r.ProductID,
		SourceID:  r.SourceID,
		SKU:       r.SKU,
		Price:     r.Price,
		Currency:  r.Currency,
		ImageURL:  r.ImageURL,
		CreatedAt: domainTime(r.CreatedAt),
		UpdatedAt: domainTimePtr(r.UpdatedAt),
		BinnedAt:  domainTimePtr(r.BinnedAt),
	}
	var err error
	if s.Attributes, err = decodeMetadata(r.Attributes); err != nil {
		return nil, err
	}
	if s.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	return s, nil
}

func skuNotFound(id string) func() error {
	return func() error { return promotype.NotFound("sku", id) }
}

// skuKeys is the live-source-id uniqueness of promo_skus.
var skuKeys = keyed{kind: "sku", table: "promo_skus", alias: "s", column: "source_id", live: "binned_at IS NULL"}

// InsertSKU implements catalog.Store.
func (s *Store) InsertSKU(ctx context.Context, sku *catalog.SKU) error {
	row, err := newSKURow(sku)
	if err != nil {
		return err
	}
	return skuKeys.insert(ctx, s.db, row, sku.ProjectID, sku.ID, sku.SourceID)
}

// UpdateSKU implements catalog.Store. It replaces every field of the
// live row; a source id held by another live row of the project is refused
// without touching the row.
func (s *Store) UpdateSKU(ctx context.Context, sku *catalog.SKU) error {
	row, err := newSKURow(sku)
	return skuKeys.replace(ctx, s.db, row, err, sku.ProjectID, sku.ID, sku.SourceID, skuNotFound(sku.ID), func() error {
		_, err := s.GetSKU(ctx, sku.ProjectID, sku.ID)
		return err
	})
}

// GetSKU implements catalog.Store.
func (s *Store) GetSKU(ctx context.Context, projectID, id string) (*catalog.SKU, error) {
	return getLive[skuRow, *skuRow, *catalog.SKU](ctx, s.db, skuKeys, "id", projectID, id, skuNotFound(id))
}

// FindSKUBySourceID implements catalog.Store.
func (s *Store) FindSKUBySourceID(ctx context.Context, projectID, sourceID string) (*catalog.SKU, error) {
	return getLive[skuRow, *skuRow, *catalog.SKU](ctx, s.db, skuKeys, "source_id", projectID, sourceID, skuNotFound(sourceID))
}

// ListSKUs implements catalog.Store.
func (s *Store) ListSKUs(ctx context.Context, projectID, productID string, q promotype.Query) ([]*catalog.SKU, int, error) {
	if !storableKeys(projectID, productID) {
		return []*catalog.SKU{}, 0, nil
	}
	return listDomain[skuRow, *skuRow, *catalog.SKU](ctx, s.db, skuColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		sel = sel.Where("s.project_id = ? AND s.binned_at IS NULL", projectID)
		if productID != "" {
			sel = sel.Where("s.product_id = ?", productID)
		}
		return sel
	})
}

// BinSKU implements catalog.Store.
func (s *Store) BinSKU(ctx context.Context, projectID, id string, at promotype.Time) error {
	return binByID[skuRow](ctx, s.db, "bin sku", "s", projectID, id, at, skuNotFound(id))
}

// DeleteSKU implements catalog.Store: the SKU goes, live or binned.
func (s *Store) DeleteSKU(ctx context.Context, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return skuNotFound(id)()
	}
	res, err := s.db.NewDelete().Model((*skuRow)(nil)).
		Where("s.project_id = ? AND s.id = ?", projectID, id).Exec(ctx)
	if err != nil {
		return fail("delete sku", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return skuNotFound(id)()
	}
	return nil
}
