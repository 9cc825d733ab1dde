package memory

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
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

// metaRows is one entity's rows for a metadata key purge: the rows of the
// project (live or in the bin), their metadata field and how a changed
// copy is stored.
type metaRows[V any] struct {
	rows  map[string]*V
	meta  func(*V) *promotype.Metadata
	clone func(*V) *V
	put   func(id string, v *V)
}

// metaPurger is an entity's metaRows, whatever its type.
type metaPurger interface {
	holding(key, afterID string) []string
	purge(key, afterID string, limit int) (string, int)
}

// holding returns the ids after afterID of the rows whose metadata holds
// key, in byte order.
func (m metaRows[V]) holding(key, afterID string) []string {
	var ids []string
	for id, v := range m.rows {
		if _, ok := (*m.meta(v))[key]; ok && id > afterID {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// purge removes key from the first limit rows holding it after afterID.
func (m metaRows[V]) purge(key, afterID string, limit int) (string, int) {
	ids := m.holding(key, afterID)
	ids = ids[:min(limit, len(ids))]
	for _, id := range ids {
		c := m.clone(m.rows[id])
		md := m.meta(c)
		*md = maps.Clone(*md)
		delete(*md, key)
		m.put(id, c)
	}
	if len(ids) == 0 {
		return "", 0
	}
	return ids[len(ids)-1], len(ids)
}

// metaTable is metaRows over a table whose key (name, source id) a
// metadata change leaves alone.
func metaTable[V any](t *table[V], u *undo, projectID string, meta func(*V) *promotype.Metadata, clone func(*V) *V) metaRows[V] {
	return metaRows[V]{rows: t.rows[projectID], meta: meta, clone: clone,
		put: func(id string, v *V) { t.put(u, projectID, id, v) }}
}

// purgeRows returns the rows of entity (vouchers held alone: the slabs
// are apart).
func purgeRows(d *data, u *undo, projectID string, entity imports.MetadataEntity) (metaPurger, error) {
	switch entity {
	case imports.PurgeCampaigns:
		return metaTable(&d.campaigns.campaigns.table, u, projectID,
			func(c *campaign.Campaign) *promotype.Metadata { return &c.Metadata }, (*campaign.Campaign).Clone), nil
	case imports.PurgeCustomers:
		return metaTable(&d.customers.table, u, projectID,
			func(c *customer.Customer) *promotype.Metadata { return &c.Metadata }, d.customers.clone), nil
	case imports.PurgeProducts:
		return metaTable(&d.products.table, u, projectID,
			func(p *catalog.Product) *promotype.Metadata { return &p.Metadata }, d.products.clone), nil
	case imports.PurgeOrders:
		return metaTable(&d.orders.table, u, projectID,
			func(o *order.Order) *promotype.Metadata { return &o.Metadata }, d.orders.clone), nil
	case imports.PurgeVouchers:
		p := d.campaigns.vouchers[projectID]
		if p == nil {
			return metaRows[voucher.Voucher]{meta: voucherMeta}, nil
		}
		return metaRows[voucher.Voucher]{rows: p.rows, meta: voucherMeta, clone: (*voucher.Voucher).Clone,
			put: func(_ string, v *voucher.Voucher) { p.putRow(u, v) }}, nil
	}
	return nil, fmt.Errorf("memory: no metadata purge of %q", entity)
}

func voucherMeta(v *voucher.Voucher) *promotype.Metadata { return &v.Metadata }

// slabsHolding returns the slabs of the project's vouchers whose template
// metadata holds key, and how many rows (live or in the bin) they hold.
func slabsHolding(d *data, projectID, key string) ([]*slab, int) {
	p := d.campaigns.vouchers[projectID]
	if p == nil {
		return nil, 0
	}
	var out []*slab
	n := 0
	for _, sl := range p.slabs {
		if _, ok := sl.template.Metadata[key]; !ok {
			continue
		}
		out = append(out, sl)
		for _, st := range sl.state {
			if st == rowLive || st == rowBinned {
				n++
			}
		}
	}
	return out, n
}

// CountMetadataKey implements imports.MetadataPurgeStore.
func (s *Store) CountMetadataKey(ctx context.Context, projectID string, entity imports.MetadataEntity, key string) (n int64, err error) {
	s.read(ctx, func(d *data) {
		var rows metaPurger
		if rows, err = purgeRows(d, nil, projectID, entity); err != nil {
			return
		}
		n = int64(len(rows.holding(key, "")))
		if entity == imports.PurgeVouchers {
			_, k := slabsHolding(d, projectID, key)
			n += int64(k)
		}
	})
	return n, err
}

// PurgeMetadataKey implements imports.MetadataPurgeStore. Vouchers kept
// in a slab (a generation's, sharing one template) are purged a slab at a
// time, all of them in the first call that finds their template holding
// the key, beside the limit; they do not move the cursor.
func (s *Store) PurgeMetadataKey(ctx context.Context, projectID string, entity imports.MetadataEntity, key, afterID string, limit int) (last string, n int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		rows, err := purgeRows(d, u, projectID, entity)
		if err != nil {
			return err
		}
		last, n = rows.purge(key, afterID, limit)
		if entity != imports.PurgeVouchers {
			return nil
		}
		slabs, k := slabsHolding(d, projectID, key)
		for _, sl := range slabs {
			old := sl.template
			t := old.Clone()
			t.Metadata = maps.Clone(t.Metadata)
			delete(t.Metadata, key)
			sl.template = t
			u.push(func() { sl.template = old })
		}
		if k > 0 && n == 0 {
			last = afterID
		}
		n += k
		return nil
	})
	return last, n, err
}
