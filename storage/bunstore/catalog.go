package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
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
	}, projectTally("products", projectID, q))
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
	// A product's SKUs are counted through promo_skus_list_product_idx.
	var t *tally
	if productID == "" {
		t = projectTally("skus", projectID, q)
	}
	return listDomain[skuRow, *skuRow, *catalog.SKU](ctx, s.db, skuColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		sel = sel.Where("s.project_id = ? AND s.binned_at IS NULL", projectID)
		if productID != "" {
			sel = sel.Where("s.product_id = ?", productID)
		}
		return sel
	}, t)
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

// storableList keeps the keys PostgreSQL text can hold: the others match no row.
func storableList(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if storable(k) {
			out = append(out, k)
		}
	}
	return out
}

// byKeys restricts sel (a model with alias a) to the rows whose id is in ids
// or whose source id is in sourceIDs; it reports false when no key can match.
func byKeys(sel *bun.SelectQuery, a string, ids, sourceIDs []string) (*bun.SelectQuery, bool) {
	ids, sourceIDs = storableList(ids), storableList(sourceIDs)
	switch {
	case len(ids) > 0 && len(sourceIDs) > 0:
		return sel.Where("("+a+".id IN (?) OR "+a+".source_id IN (?))", bun.List(ids), bun.List(sourceIDs)), true
	case len(ids) > 0:
		return sel.Where(a+".id IN (?)", bun.List(ids)), true
	case len(sourceIDs) > 0:
		return sel.Where(a+".source_id IN (?)", bun.List(sourceIDs)), true
	}
	return sel, false
}

// FindProducts implements catalog.Store: one query for every key.
func (s *Store) FindProducts(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*catalog.Product, error) {
	return findLiveByKeys[productRow, *productRow, *catalog.Product](ctx, s.db, "find products", "p", projectID, ids, sourceIDs)
}

// FindSKUs implements catalog.Store: one query for every key.
func (s *Store) FindSKUs(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*catalog.SKU, error) {
	return findLiveByKeys[skuRow, *skuRow, *catalog.SKU](ctx, s.db, "find skus", "s", projectID, ids, sourceIDs)
}

// findLiveByKeys reads, in one query, the live rows of a project whose id
// is in ids or whose source id is in sourceIDs.
func findLiveByKeys[R any, P row[R, D], D any](ctx context.Context, db bun.IDB, op, alias, projectID string, ids, sourceIDs []string) ([]D, error) {
	if !storable(projectID) {
		return []D{}, nil
	}
	var rows []R
	sel, ok := byKeys(db.NewSelect().Model(&rows).Where(alias+".project_id = ? AND "+alias+".binned_at IS NULL", projectID), alias, ids, sourceIDs)
	if !ok {
		return []D{}, nil
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, fail(op, err, nil)
	}
	return domains[R, P](rows)
}

type collectionRow struct {
	bun.BaseModel `bun:"table:promo_product_collections,alias:pc"`

	ProjectID string          `bun:"project_id,pk"`
	ID        string          `bun:"id,pk"`
	Name      string          `bun:"name"`
	Type      string          `bun:"type"`
	Doc       json.RawMessage `bun:"doc"`
	CreatedAt time.Time       `bun:"created_at"`

	Total int `bun:"total,scanonly"`
}

func (r *collectionRow) listTotal() int { return r.Total }

var collectionColumns = columns{
	"name":       {"name", promotype.FieldString},
	"type":       {"type", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
}

// collectionDoc is what doc holds of a collection.
type collectionDoc struct {
	Filter   catalog.CollectionFilter `json:"filter,omitempty"`
	Products []catalog.CollectionItem `json:"products,omitempty"`
}

func (r *collectionRow) domain() (*catalog.Collection, error) {
	var d collectionDoc
	if err := decodeJSON(r.Doc, &d); err != nil {
		return nil, err
	}
	return &catalog.Collection{ID: r.ID, ProjectID: r.ProjectID, Name: r.Name, Type: r.Type, Filter: d.Filter,
		Products: d.Products, CreatedAt: domainTime(r.CreatedAt)}, nil
}

func collectionNotFound(id string) func() error {
	return func() error { return promotype.NotFound("products_collection", id) }
}

// collectionKeys is the name uniqueness of promo_product_collections.
var collectionKeys = keyed{kind: "products_collection", table: "promo_product_collections", alias: "pc", column: "name"}

// InsertCollection implements catalog.Store.
func (s *Store) InsertCollection(ctx context.Context, c *catalog.Collection) error {
	if err := checkText("products_collection", str("id", c.ID), str("project_id", c.ProjectID), str("name", c.Name)); err != nil {
		return err
	}
	doc, err := encodeJSON(collectionDoc{Filter: c.Filter, Products: c.Products})
	if err != nil {
		return err
	}
	row := &collectionRow{ProjectID: c.ProjectID, ID: c.ID, Name: c.Name, Type: c.Type, Doc: doc, CreatedAt: sqlTime(c.CreatedAt)}
	return collectionKeys.insert(ctx, s.db, row, c.ProjectID, c.ID, &c.Name)
}

// GetCollection implements catalog.Store.
func (s *Store) GetCollection(ctx context.Context, projectID, id string) (*catalog.Collection, error) {
	return getLive[collectionRow, *collectionRow, *catalog.Collection](ctx, s.db, collectionKeys, "id", projectID, id, collectionNotFound(id))
}

// FindCollectionByName implements catalog.Store.
func (s *Store) FindCollectionByName(ctx context.Context, projectID, name string) (*catalog.Collection, error) {
	return getLive[collectionRow, *collectionRow, *catalog.Collection](ctx, s.db, collectionKeys, "name", projectID, name, collectionNotFound(name))
}

// ListCollections implements catalog.Store.
func (s *Store) ListCollections(ctx context.Context, projectID string, q promotype.Query) ([]*catalog.Collection, int, error) {
	return listProject[collectionRow, *collectionRow, *catalog.Collection](ctx, s.db, collectionColumns, "pc", "", projectID, q)
}

// DeleteCollection implements catalog.Store.
func (s *Store) DeleteCollection(ctx context.Context, projectID, id string) error {
	return deleteByID[collectionRow](ctx, s.db, "delete products_collection", "pc", projectID, id, collectionNotFound(id))
}
