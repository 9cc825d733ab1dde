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

func productID(p *catalog.Product) string { return p.ID }

func skuID(s *catalog.SKU) string { return s.ID }

// putProduct stores a copy of p and keeps the source id index of live rows.
func (d *data) putProduct(u *undo, p *catalog.Product) error {
	if old, ok := d.products.get(p.ProjectID, p.ID); ok && old.SourceID != nil && liveProduct(old) {
		d.productSources.unset(u, p.ProjectID, *old.SourceID)
	}
	if p.SourceID != nil && liveProduct(p) {
		if other, ok := d.productSources[[2]string{p.ProjectID, *p.SourceID}]; ok && other != p.ID {
			return promotype.Duplicate("product", "Duplicated product exists with source_id %s", *p.SourceID)
		}
		d.productSources.set(u, p.ProjectID, *p.SourceID, p.ID)
	}
	d.products.put(u, p.ProjectID, p.ID, p.Clone())
	return nil
}

func (d *data) putSKU(u *undo, s *catalog.SKU) error {
	if old, ok := d.skus.get(s.ProjectID, s.ID); ok && old.SourceID != nil && liveSKU(old) {
		d.skuSources.unset(u, s.ProjectID, *old.SourceID)
	}
	if s.SourceID != nil && liveSKU(s) {
		if other, ok := d.skuSources[[2]string{s.ProjectID, *s.SourceID}]; ok && other != s.ID {
			return promotype.Duplicate("sku", "Duplicated sku exists with source_id %s", *s.SourceID)
		}
		d.skuSources.set(u, s.ProjectID, *s.SourceID, s.ID)
	}
	d.skus.put(u, s.ProjectID, s.ID, s.Clone())
	return nil
}

func (d *data) liveProduct(projectID, id string) (*catalog.Product, error) {
	p, ok := d.products.get(projectID, id)
	if !ok || !liveProduct(p) {
		return nil, promotype.NotFound("product", id)
	}
	return p, nil
}

func (d *data) liveSKU(projectID, id string) (*catalog.SKU, error) {
	s, ok := d.skus.get(projectID, id)
	if !ok || !liveSKU(s) {
		return nil, promotype.NotFound("sku", id)
	}
	return s, nil
}

// InsertProduct implements catalog.Store.
func (s *Store) InsertProduct(ctx context.Context, p *catalog.Product) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.products.get(p.ProjectID, p.ID); ok {
			return promotype.Duplicate("product", "Duplicated product exists with id %s", p.ID)
		}
		return d.putProduct(u, p)
	})
}

// UpdateProduct implements catalog.Store.
func (s *Store) UpdateProduct(ctx context.Context, p *catalog.Product) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, err := d.liveProduct(p.ProjectID, p.ID); err != nil {
			return err
		}
		return d.putProduct(u, p)
	})
}

// GetProduct implements catalog.Store.
func (s *Store) GetProduct(ctx context.Context, projectID, id string) (out *catalog.Product, err error) {
	s.read(ctx, func(d *data) {
		var p *catalog.Product
		if p, err = d.liveProduct(projectID, id); err == nil {
			out = p.Clone()
		}
	})
	return out, err
}

// FindProductBySourceID implements catalog.Store.
func (s *Store) FindProductBySourceID(ctx context.Context, projectID, sourceID string) (out *catalog.Product, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.productSources[[2]string{projectID, sourceID}]
		if !ok {
			err = promotype.NotFound("product", sourceID)
			return
		}
		var p *catalog.Product
		if p, err = d.liveProduct(projectID, id); err == nil {
			out = p.Clone()
		}
	})
	return out, err
}

// ListProducts implements catalog.Store.
func (s *Store) ListProducts(ctx context.Context, projectID string, q promotype.Query) (out []*catalog.Product, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.products.rows[projectID], q, productField, productID, liveProduct, (*catalog.Product).Clone)
	})
	return out, total, nil
}

// BinProduct implements catalog.Store.
func (s *Store) BinProduct(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p, err := d.liveProduct(projectID, id)
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
		if p.SourceID != nil {
			d.productSources.unset(u, projectID, *p.SourceID)
		}
		d.products.put(u, projectID, id, c)
		return nil
	})
}

func (d *data) binSKU(u *undo, sku *catalog.SKU, at promotype.Time) error {
	c := sku.Clone()
	c.BinnedAt = at.Ptr()
	if sku.SourceID != nil {
		d.skuSources.unset(u, sku.ProjectID, *sku.SourceID)
	}
	d.skus.put(u, sku.ProjectID, sku.ID, c)
	return nil
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
				d.deleteSKU(u, sku)
			}
		}
		if p.SourceID != nil && liveProduct(p) {
			d.productSources.unset(u, projectID, *p.SourceID)
		}
		d.products.del(u, projectID, id)
		return nil
	})
}

func (d *data) deleteSKU(u *undo, sku *catalog.SKU) {
	if sku.SourceID != nil && liveSKU(sku) {
		d.skuSources.unset(u, sku.ProjectID, *sku.SourceID)
	}
	d.skus.del(u, sku.ProjectID, sku.ID)
}

// InsertSKU implements catalog.Store.
func (s *Store) InsertSKU(ctx context.Context, sku *catalog.SKU) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.skus.get(sku.ProjectID, sku.ID); ok {
			return promotype.Duplicate("sku", "Duplicated sku exists with id %s", sku.ID)
		}
		return d.putSKU(u, sku)
	})
}

// UpdateSKU implements catalog.Store.
func (s *Store) UpdateSKU(ctx context.Context, sku *catalog.SKU) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, err := d.liveSKU(sku.ProjectID, sku.ID); err != nil {
			return err
		}
		return d.putSKU(u, sku)
	})
}

// GetSKU implements catalog.Store.
func (s *Store) GetSKU(ctx context.Context, projectID, id string) (out *catalog.SKU, err error) {
	s.read(ctx, func(d *data) {
		var sku *catalog.SKU
		if sku, err = d.liveSKU(projectID, id); err == nil {
			out = sku.Clone()
		}
	})
	return out, err
}

// FindSKUBySourceID implements catalog.Store.
func (s *Store) FindSKUBySourceID(ctx context.Context, projectID, sourceID string) (out *catalog.SKU, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.skuSources[[2]string{projectID, sourceID}]
		if !ok {
			err = promotype.NotFound("sku", sourceID)
			return
		}
		var sku *catalog.SKU
		if sku, err = d.liveSKU(projectID, id); err == nil {
			out = sku.Clone()
		}
	})
	return out, err
}

// ListSKUs implements catalog.Store.
func (s *Store) ListSKUs(ctx context.Context, projectID, productID string, q promotype.Query) (out []*catalog.SKU, total int, err error) {
	live := liveSKU
	if productID != "" {
		live = func(sku *catalog.SKU) bool { return liveSKU(sku) && sku.ProductID == productID }
	}
	s.read(ctx, func(d *data) {
		out, total = list(d.skus.rows[projectID], q, skuField, skuID, live, (*catalog.SKU).Clone)
	})
	return out, total, nil
}

// BinSKU implements catalog.Store.
func (s *Store) BinSKU(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		sku, err := d.liveSKU(projectID, id)
		if err != nil {
			return err
		}
		return d.binSKU(u, sku, at)
	})
}

// DeleteSKU implements catalog.Store.
func (s *Store) DeleteSKU(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		sku, ok := d.skus.get(projectID, id)
		if !ok {
			return promotype.NotFound("sku", id)
		}
		d.deleteSKU(u, sku)
		return nil
	})
}

// FindProducts implements catalog.Store.
func (s *Store) FindProducts(ctx context.Context, projectID string, ids, sourceIDs []string) (out []*catalog.Product, err error) {
	s.read(ctx, func(d *data) {
		out = findByKeys(d.products.rows[projectID], d.productSources, projectID, ids, sourceIDs, liveProduct, (*catalog.Product).Clone)
	})
	return out, nil
}

// FindSKUs implements catalog.Store.
func (s *Store) FindSKUs(ctx context.Context, projectID string, ids, sourceIDs []string) (out []*catalog.SKU, err error) {
	s.read(ctx, func(d *data) {
		out = findByKeys(d.skus.rows[projectID], d.skuSources, projectID, ids, sourceIDs, liveSKU, (*catalog.SKU).Clone)
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
