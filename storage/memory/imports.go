package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

// importPageKey is the key of page n of an action's input.
func importPageKey(projectID, actionID string, n int) string {
	return fmt.Sprintf("%s\x00%s\x00%d", projectID, actionID, n)
}

// InsertImportPages implements imports.Store.
func (s *Store) InsertImportPages(ctx context.Context, projectID, actionID string, pages [][]byte) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for i := range pages {
			if _, ok := d.importPages[importPageKey(projectID, actionID, i)]; ok {
				return promotype.Duplicate("import_page", "Duplicated import pages exist for %s", actionID)
			}
		}
		for i, p := range pages {
			k := importPageKey(projectID, actionID, i)
			d.importPages[k] = slices.Clone(p)
			u.push(func() { delete(d.importPages, k) })
		}
		return nil
	})
}

// GetImportPage implements imports.Store.
func (s *Store) GetImportPage(ctx context.Context, projectID, actionID string, n int) (out []byte, err error) {
	s.read(ctx, func(d *data) {
		p, ok := d.importPages[importPageKey(projectID, actionID, n)]
		if !ok {
			err = promotype.NotFound("import_page", actionID)
			return
		}
		out = slices.Clone(p)
	})
	return out, err
}

// DeleteImportPages implements imports.Store.
func (s *Store) DeleteImportPages(ctx context.Context, projectID, actionID string) error {
	prefix := projectID + "\x00" + actionID + "\x00"
	return s.write(ctx, func(d *data, u *undo) error {
		for k, p := range d.importPages {
			if strings.HasPrefix(k, prefix) {
				delete(d.importPages, k)
				u.push(func() { d.importPages[k] = p })
			}
		}
		return nil
	})
}

// InsertProducts implements imports.Store: each product is inserted on
// its own; one whose id or source id is taken is rejected.
func (s *Store) InsertProducts(ctx context.Context, ps []*catalog.Product) (rejected []int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		for i, p := range ps {
			if err := d.products.insert(u, p); err != nil {
				if !errors.Is(err, promotype.ErrDuplicateFound) {
					return err
				}
				rejected = append(rejected, i)
			}
		}
		return nil
	})
	return rejected, err
}

// InsertSKUs implements imports.Store, as InsertProducts.
func (s *Store) InsertSKUs(ctx context.Context, ss []*catalog.SKU) (rejected []int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		for i, sku := range ss {
			if err := d.skus.insert(u, sku); err != nil {
				if !errors.Is(err, promotype.ErrDuplicateFound) {
					return err
				}
				rejected = append(rejected, i)
			}
		}
		return nil
	})
	return rejected, err
}
