package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/catalog"
)

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
	if !storable(projectID) {
		return []*catalog.Product{}, nil
	}
	var rows []productRow
	sel, ok := byKeys(s.db.NewSelect().Model(&rows).Where("p.project_id = ? AND p.binned_at IS NULL", projectID), "p", ids, sourceIDs)
	if !ok {
		return []*catalog.Product{}, nil
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, fail("find products", err, nil)
	}
	out := make([]*catalog.Product, len(rows))
	for i := range rows {
		var err error
		if out[i], err = rows[i].domain(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FindSKUs implements catalog.Store: one query for every key.
func (s *Store) FindSKUs(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*catalog.SKU, error) {
	if !storable(projectID) {
		return []*catalog.SKU{}, nil
	}
	var rows []skuRow
	sel, ok := byKeys(s.db.NewSelect().Model(&rows).Where("s.project_id = ? AND s.binned_at IS NULL", projectID), "s", ids, sourceIDs)
	if !ok {
		return []*catalog.SKU{}, nil
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, fail("find skus", err, nil)
	}
	out := make([]*catalog.SKU, len(rows))
	for i := range rows {
		var err error
		if out[i], err = rows[i].domain(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
