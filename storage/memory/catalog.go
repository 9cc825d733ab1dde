package memory

import (
	"context"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

func productField(p *catalog.Product, name string) promotype.Value {
	switch name {
	case "source_id":
		return str(p.SourceID)
	case "name":
		return str(p.Name)
	case "created_at":
		return tm(p.CreatedAt)
	case "updated_at":
		return tmPtr(p.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func skuField(s *catalog.SKU, name string) promotype.Value {
	switch name {
	case "source_id":
		return str(s.SourceID)
	case "sku":
		return str(s.SKU)
	case "created_at":
		return tm(s.CreatedAt)
	case "updated_at":
		return tmPtr(s.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func liveProduct(p *catalog.Product) bool { return p.BinnedAt == nil }

func liveSKU(s *catalog.SKU) bool { return s.BinnedAt == nil }

// InsertProduct implements catalog.Store.
func (s *Store) InsertProduct(ctx context.Context, p *catalog.Product) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.products.insert(u, p) })
}

// UpdateProduct implements catalog.Store.
func (s *Store) UpdateProduct(ctx context.Context, p *catalog.Product) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.products.update(u, p) })
}

// GetProduct implements catalog.Store.
func (s *Store) GetProduct(ctx context.Context, projectID, id string) (out *catalog.Product, err error) {
	s.read(ctx, func(d *data) { out, err = d.products.copyOf(projectID, id) })
	return out, err
}

// FindProductBySourceID implements catalog.Store.
func (s *Store) FindProductBySourceID(ctx context.Context, projectID, sourceID string) (out *catalog.Product, err error) {
	s.read(ctx, func(d *data) { out, err = d.products.find(projectID, sourceID) })
	return out, err
}

// ListProducts implements catalog.Store.
func (s *Store) ListProducts(ctx context.Context, projectID string, q promotype.Query) (out []*catalog.Product, total int, err error) {
	s.read(ctx, func(d *data) { out, total = d.products.list(projectID, q, productField) })
	return out, total, nil
}

// BinProduct implements catalog.Store.
func (s *Store) BinProduct(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p, err := d.products.liveRow(projectID, id)
		if err != nil {
			return err
		}
		for _, sku := range d.skus.rows[projectID] {
			if sku.ProductID == id && liveSKU(sku) {
				if err := d.binSKU(u, sku, at); err != nil {
					return err
				}
			}
		}
		c := p.Clone()
		c.BinnedAt = at.Ptr()
		return d.products.save(u, c)
	})
}

func (d *data) binSKU(u *undo, sku *catalog.SKU, at promotype.Time) error {
	c := sku.Clone()
	c.BinnedAt = at.Ptr()
	return d.skus.save(u, c)
}

// DeleteProduct implements catalog.Store.
func (s *Store) DeleteProduct(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p, ok := d.products.get(projectID, id)
		if !ok {
			return promotype.NotFound("product", id)
		}
		for _, sku := range d.skus.rows[projectID] {
			if sku.ProductID == id {
				d.skus.drop(u, sku)
			}
		}
		d.products.drop(u, p)
		return nil
	})
}

// InsertSKU implements catalog.Store.
func (s *Store) InsertSKU(ctx context.Context, sku *catalog.SKU) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.skus.insert(u, sku) })
}

// UpdateSKU implements catalog.Store.
func (s *Store) UpdateSKU(ctx context.Context, sku *catalog.SKU) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.skus.update(u, sku) })
}

// GetSKU implements catalog.Store.
func (s *Store) GetSKU(ctx context.Context, projectID, id string) (out *catalog.SKU, err error) {
	s.read(ctx, func(d *data) { out, err = d.skus.copyOf(projectID, id) })
	return out, err
}

// FindSKUBySourceID implements catalog.Store.
func (s *Store) FindSKUBySourceID(ctx context.Context, projectID, sourceID string) (out *catalog.SKU, err error) {
	s.read(ctx, func(d *data) { out, err = d.skus.find(projectID, sourceID) })
	return out, err
}

// ListSKUs implements catalog.Store.
func (s *Store) ListSKUs(ctx context.Context, projectID, productID string, q promotype.Query) (out []*catalog.SKU, total int, err error) {
	live := liveSKU
	if productID != "" {
		live = func(sku *catalog.SKU) bool { return liveSKU(sku) && sku.ProductID == productID }
	}
	s.read(ctx, func(d *data) {
		out, total = list(d.skus.rows[projectID], q, skuField, d.skus.rowID, live, (*catalog.SKU).Clone)
	})
	return out, total, nil
}

// BinSKU implements catalog.Store.
func (s *Store) BinSKU(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		sku, err := d.skus.liveRow(projectID, id)
		if err != nil {
			return err
		}
		return d.binSKU(u, sku, at)
	})
}

// DeleteSKU implements catalog.Store.
func (s *Store) DeleteSKU(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.skus.remove(u, projectID, id) })
}

// FindProducts implements catalog.Store.
func (s *Store) FindProducts(ctx context.Context, projectID string, ids, sourceIDs []string) (out []*catalog.Product, err error) {
	s.read(ctx, func(d *data) {
		out = findByKeys(d.products.rows[projectID], d.products.keys, projectID, ids, sourceIDs, liveProduct, (*catalog.Product).Clone)
	})
	return out, nil
}

// FindSKUs implements catalog.Store.
func (s *Store) FindSKUs(ctx context.Context, projectID string, ids, sourceIDs []string) (out []*catalog.SKU, err error) {
	s.read(ctx, func(d *data) {
		out = findByKeys(d.skus.rows[projectID], d.skus.keys, projectID, ids, sourceIDs, liveSKU, (*catalog.SKU).Clone)
	})
	return out, nil
}

// findByKeys returns copies of the live rows whose id is in ids or whose
// source id (through sources) is in sourceIDs, each once.
func findByKeys[V any](rows map[string]*V, sources index, projectID string, ids, sourceIDs []string, live func(*V) bool, clone func(*V) *V) []*V {
	out := make([]*V, 0, len(ids)+len(sourceIDs))
	seen := make(map[string]bool, len(ids)+len(sourceIDs))
	add := func(id string) {
		v, ok := rows[id]
		if !ok || seen[id] || !live(v) {
			return
		}
		seen[id] = true
		out = append(out, clone(v))
	}
	for _, id := range ids {
		add(id)
	}
	for _, src := range sourceIDs {
		if id, ok := sources[[2]string{projectID, src}]; ok {
			add(id)
		}
	}
	return out
}

// InsertCollection implements catalog.Store.
func (s *Store) InsertCollection(ctx context.Context, c *catalog.Collection) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.collections.insert(u, c) })
}

// GetCollection implements catalog.Store.
func (s *Store) GetCollection(ctx context.Context, projectID, id string) (out *catalog.Collection, err error) {
	s.read(ctx, func(d *data) { out, err = d.collections.copyOf(projectID, id) })
	return out, err
}

// FindCollectionByName implements catalog.Store.
func (s *Store) FindCollectionByName(ctx context.Context, projectID, name string) (out *catalog.Collection, err error) {
	s.read(ctx, func(d *data) { out, err = d.collections.find(projectID, name) })
	return out, err
}

// ListCollections implements catalog.Store.
func (s *Store) ListCollections(ctx context.Context, projectID string, q promotype.Query) (out []*catalog.Collection, total int, err error) {
	s.read(ctx, func(d *data) { out, total = d.collections.list(projectID, q, (*catalog.Collection).Field) })
	return out, total, nil
}

// DeleteCollection implements catalog.Store.
func (s *Store) DeleteCollection(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.collections.remove(u, projectID, id) })
}
