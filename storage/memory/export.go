package memory

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// exportData holds exports and their files, one slice of chunks per export.
type exportData struct {
	rows  table[export.Export]
	files table[[][]byte]
}

func newExportData() exportData {
	return exportData{rows: newTable[export.Export](), files: newTable[[][]byte]()}
}

func exportField(e *export.Export, name string) promotype.Value { return e.Field(name) }
func exportID(e *export.Export) string                          { return e.ID }

// InsertExport implements export.Store.
func (s *Store) InsertExport(ctx context.Context, e *export.Export) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.exports.rows, u, e.ProjectID, e.ID, "export", e.Clone())
	})
}

// GetExport implements export.Store.
func (s *Store) GetExport(ctx context.Context, projectID, id string) (out *export.Export, err error) {
	s.read(ctx, func(d *data) { out, err = getClone(&d.exports.rows, projectID, id, "export", (*export.Export).Clone) })
	return out, err
}

// FindExports implements export.Store.
func (s *Store) FindExports(ctx context.Context, id string) (out []*export.Export, err error) {
	s.read(ctx, func(d *data) {
		for _, rows := range d.exports.rows.rows {
			if e, ok := rows[id]; ok {
				out = append(out, e.Clone())
			}
		}
	})
	return out, nil
}

// ListExports implements export.Store.
func (s *Store) ListExports(ctx context.Context, projectID string, q promotype.Query) (out []*export.Export, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.exports.rows.rows[projectID], q, exportField, exportID, nil, (*export.Export).Clone)
	})
	return out, total, nil
}

// UpdateExport implements export.Store.
func (s *Store) UpdateExport(ctx context.Context, e *export.Export) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.exports.rows, u, e.ProjectID, e.ID, "export", e.Clone())
	})
}

// DeleteExport implements export.Store.
func (s *Store) DeleteExport(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if err := remove(&d.exports.rows, u, projectID, id, "export"); err != nil {
			return err
		}
		d.exports.files.del(u, projectID, id)
		return nil
	})
}

// AppendExportChunk implements export.Store.
func (s *Store) AppendExportChunk(ctx context.Context, projectID, id string, seq int, chunk []byte) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.exports.rows.get(projectID, id); !ok {
			return promotype.NotFound("export", id)
		}
		var parts [][]byte
		if f, ok := d.exports.files.get(projectID, id); ok {
			parts = *f
		}
		if seq != len(parts) {
			return promotype.Conflict("chunk_out_of_order", "Chunk out of order", "Chunk %d of export %s follows %d chunks", seq, id, len(parts))
		}
		next := append(slices.Clip(parts), slices.Clone(chunk))
		d.exports.files.put(u, projectID, id, &next)
		return nil
	})
}

// ExportChunk implements export.Store.
func (s *Store) ExportChunk(ctx context.Context, projectID, id string, seq int) (out []byte, err error) {
	s.read(ctx, func(d *data) {
		f, ok := d.exports.files.get(projectID, id)
		if !ok || seq < 0 || seq >= len(*f) {
			err = promotype.NotFound("export_chunk", id)
			return
		}
		out = slices.Clone((*f)[seq])
	})
	return out, err
}

// beyond reports whether a record (its order key and id) comes after the
// cursor in q's order.
func beyond(q promotype.Query, after *export.Cursor, key promotype.Value, id string) bool {
	if after == nil {
		return true
	}
	c := promotype.Compare(key, after.Key)
	if c == 0 {
		c = strings.Compare(id, after.ID)
	}
	if q.Desc {
		return c < 0
	}
	return c > 0
}

// page returns the first q.Limit rows of a project's rows after the
// cursor in q's order: a scan of the project's rows per page.
func page[V any](rows map[string]*V, pg export.Page, get field[V], id func(*V) string, live func(*V) bool, clone func(*V) *V) []*V {
	q, after := pg.Query, pg.After
	q.Offset = 0
	matched := make(map[string]*V)
	for k, v := range rows {
		if beyond(q, after, get(v, q.OrderBy), id(v)) {
			matched[k] = v
		}
	}
	out, _ := list(matched, q, get, id, live, clone)
	return out
}

// VoucherPage implements export.Store.
func (s *Store) VoucherPage(ctx context.Context, projectID string, pg export.Page) (out []*voucher.Voucher, err error) {
	q, after := pg.Query, pg.After
	s.read(ctx, func(d *data) {
		out = []*voucher.Voucher{}
		p := d.campaigns.vouchers[projectID]
		if p == nil {
			return
		}
		var matched []item
		keep := func(it item) bool {
			return beyond(q, after, it.field(q.OrderBy), it.field("id").Str) && q.Match(it.field)
		}
		for _, v := range p.rows {
			if v.BinnedAt == nil && keep(item{v: v}) {
				matched = append(matched, item{v: v})
			}
		}
		for _, sl := range p.slabs {
			for i, st := range sl.state {
				if st == rowLive && keep(item{s: sl, row: i}) {
					matched = append(matched, item{s: sl, row: i})
				}
			}
		}
		cmp := itemOrder(q)
		matched = firstK(matched, min(q.Limit, len(matched)), q.Desc, cmp)
		for _, it := range matched[:min(q.Limit, len(matched))] {
			out = append(out, it.voucher())
		}
	})
	return out, nil
}

// RedemptionPage implements export.Store.
func (s *Store) RedemptionPage(ctx context.Context, projectID string, pg export.Page) (out []*redemption.Redemption, err error) {
	s.read(ctx, func(d *data) {
		out = page(d.redemptions.rows[projectID], pg, (*redemption.Redemption).Field,
			func(r *redemption.Redemption) string { return r.ID }, nil, (*redemption.Redemption).Clone)
	})
	return out, nil
}

// CustomerPage implements export.Store.
func (s *Store) CustomerPage(ctx context.Context, projectID string, pg export.Page) (out []*customer.Customer, err error) {
	s.read(ctx, func(d *data) {
		k := &d.customers
		out = page(k.rows[projectID], pg, (*customer.Customer).Field, k.rowID, k.live, k.clone)
	})
	return out, nil
}

// OrderPage implements export.Store.
func (s *Store) OrderPage(ctx context.Context, projectID string, pg export.Page) (out []*order.Order, err error) {
	s.read(ctx, func(d *data) {
		k := &d.orders
		out = page(k.rows[projectID], pg, (*order.Order).Field, k.rowID, k.live, k.clone)
	})
	return out, nil
}

// PublicationPage implements export.Store.
func (s *Store) PublicationPage(ctx context.Context, projectID string, pg export.Page) (out []*publication.Publication, err error) {
	s.read(ctx, func(d *data) {
		out = page(d.pubData.pubs.rows[projectID], pg, publicationField, publicationID, nil, (*publication.Publication).Clone)
	})
	return out, nil
}

// TransactionPage implements export.Store: a scan of the project's
// transactions per page.
func (s *Store) TransactionPage(ctx context.Context, projectID string, pg export.Page) (out []*redemption.Transaction, err error) {
	s.read(ctx, func(d *data) {
		all := d.transactions.byProject[projectID]
		rows := make(map[string]*redemption.Transaction, len(all))
		for _, t := range all {
			rows[t.ID] = t
		}
		out = page(rows, pg, (*redemption.Transaction).Field, transactionID, nil, (*redemption.Transaction).Clone)
	})
	return out, nil
}

func transactionID(t *redemption.Transaction) string { return t.ID }

// BucketPage implements export.Store: a scan of the project's buckets per
// page.
func (s *Store) BucketPage(ctx context.Context, projectID string, pg export.Page) (out []*voucher.PointsBucket, err error) {
	s.read(ctx, func(d *data) {
		out = page(d.loyalty.buckets.rows[projectID], pg, (*voucher.PointsBucket).Field, func(b *voucher.PointsBucket) string { return b.ID }, nil, (*voucher.PointsBucket).Clone)
	})
	return out, nil
}
