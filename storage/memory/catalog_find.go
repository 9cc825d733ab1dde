package memory

import (
	"context"

	"github.com/promoengine/promo/catalog"
)

// FindProducts implements catalog.Store.
func (s *Store) FindProducts(_ context.Context, projectID string, ids, sourceIDs []string) (out []*catalog.Product, err error) {
	s.read(func(d *data) {
		out = findByKeys(d.products.rows[projectID], d.productSources, projectID, ids, sourceIDs, liveProduct, (*catalog.Product).Clone)
	})
	return out, nil
}

// FindSKUs implements catalog.Store.
func (s *Store) FindSKUs(_ context.Context, projectID string, ids, sourceIDs []string) (out []*catalog.SKU, err error) {
	s.read(func(d *data) {
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
