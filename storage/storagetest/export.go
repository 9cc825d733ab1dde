package storagetest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// testExports covers export.Store: the export rows, their files in
// chunks (deleted with the export), and the keyset pages of every
// exported object, which must walk exactly the records a list of the same
// query orders, in every order and direction, nulls and ties included.
func testExports(t *testing.T, newStore Factory) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, storage.Store)
	}{
		{"Rows", testExportRows},
		{"Chunks", testExportChunks},
		{"VoucherPages", testVoucherPages},
		{"OtherPages", testOtherPages},
		{"TransactionPages", testTransactionPages},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func exportRow(projectID string, n int) *export.Export {
	return &export.Export{
		ID: fmt.Sprintf("exp_%03d", n), Object: "export", ProjectID: projectID, CreatedAt: at(n),
		Status: export.StatusScheduled, Channel: "API", ExportedObject: export.ObjectVoucher,
		Parameters: export.Parameters{Order: "-created_at", Fields: []string{"code", "value"},
			Filters: map[string]any{"junction": "and", "code": map[string]any{"conditions": map[string]any{"$in": []any{"A", "B"}}}}},
		Token: fmt.Sprintf("token-%03d", n),
	}
}

func testExportRows(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	one := exportRow(p, 1)
	must(t, s.InsertExport(ctx, one))
	got, err := s.GetExport(ctx, p, one.ID)
	must(t, err)
	diff(t, "get", one, got)
	got.Parameters.Fields[0] = "changed"
	got.Parameters.Filters["junction"] = "or"
	again, err := s.GetExport(ctx, p, one.ID)
	must(t, err)
	diff(t, "a change to a read export changed the store", one, again)
	wantErr(t, "same id", s.InsertExport(ctx, exportRow(p, 1)), promotype.ErrDuplicateFound)
	wantErr(t, "other project", second(s.GetExport(ctx, other, one.ID)), promotype.ErrNotFound)

	// The same id in another project: FindExports finds both.
	twin := exportRow(other, 1)
	twin.Token = "twin"
	must(t, s.InsertExport(ctx, twin))
	found, err := s.FindExports(ctx, one.ID)
	must(t, err)
	slices.SortFunc(found, func(a, b *export.Export) int { return strings.Compare(a.ProjectID, b.ProjectID) })
	diff(t, "find across projects", []*export.Export{one, twin}, found)
	found, err = s.FindExports(ctx, "exp_none")
	must(t, err)
	if len(found) != 0 {
		t.Errorf("find a missing id: %v", found)
	}

	done := one.Clone()
	done.Status, done.Chunks, done.Rows, done.Error = export.StatusDone, 3, 1000, ""
	must(t, s.UpdateExport(ctx, done))
	got, err = s.GetExport(ctx, p, one.ID)
	must(t, err)
	diff(t, "updated", done, got)
	failed := exportRow(p, 2)
	failed.Status, failed.Error = export.StatusError, "broken"
	must(t, s.InsertExport(ctx, failed))
	wantErr(t, "update a missing export", s.UpdateExport(ctx, exportRow(p, 9)), promotype.ErrNotFound)

	items, total, err := s.ListExports(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	must(t, err)
	if total != 2 || len(items) != 2 || items[0].ID != failed.ID || items[1].ID != one.ID {
		t.Errorf("list = %d %v", total, items)
	}
	items, total, err = s.ListExports(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at",
		Filter: promotype.Filter{Junction: promotype.JunctionAnd, Conditions: []promotype.Condition{{Field: "status", Op: promotype.OpIs, Values: []string{"ERROR"}}}}})
	must(t, err)
	if total != 1 || len(items) != 1 || items[0].ID != failed.ID {
		t.Errorf("list ERROR = %d %v", total, items)
	}

	must(t, s.DeleteExport(ctx, p, one.ID))
	wantErr(t, "deleted", second(s.GetExport(ctx, p, one.ID)), promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteExport(ctx, p, one.ID), promotype.ErrNotFound)
	if _, err := s.GetExport(ctx, other, twin.ID); err != nil {
		t.Errorf("the twin of another project after the delete: %v", err)
	}
}

func testExportChunks(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	e := exportRow(p, 1)
	must(t, s.InsertExport(ctx, e))
	parts := [][]byte{[]byte("Code,Value\n"), bytes.Repeat([]byte("A,1\n"), 1000), {0, 1, 2, 255}}
	for i, b := range parts {
		must(t, s.AppendExportChunk(ctx, p, e.ID, i, b))
	}
	parts[0][0] = 'X' // the store keeps its own copy
	parts[0][0] = 'C'
	for i, want := range parts {
		got, err := s.ExportChunk(ctx, p, e.ID, i)
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("chunk %d = %q, want %q", i, got, want)
		}
	}
	wantErr(t, "past the last chunk", second(s.ExportChunk(ctx, p, e.ID, 3)), promotype.ErrNotFound)
	wantErr(t, "another project's chunk", second(s.ExportChunk(ctx, "proj_b", e.ID, 0)), promotype.ErrNotFound)
	wantErr(t, "a chunk of a missing export", s.AppendExportChunk(ctx, p, "exp_none", 0, []byte("x")), promotype.ErrNotFound)

	// A rolled back chunk is not stored.
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.AppendExportChunk(ctx, p, e.ID, 3, []byte("gone")))
		return errRollback
	})
	if err != errRollback {
		t.Fatalf("rolled back append: %v", err)
	}
	wantErr(t, "a rolled back chunk", second(s.ExportChunk(ctx, p, e.ID, 3)), promotype.ErrNotFound)

	must(t, s.DeleteExport(ctx, p, e.ID))
	wantErr(t, "a chunk of a deleted export", second(s.ExportChunk(ctx, p, e.ID, 0)), promotype.ErrNotFound)
	wantErr(t, "append to a deleted export", s.AppendExportChunk(ctx, p, e.ID, 3, []byte("x")), promotype.ErrNotFound)
}

var errRollback = fmt.Errorf("storagetest: roll back")

// walk reads every page of size n of page after each other and returns
// the ids, failing on a page longer than n.
func walk[T any](t *testing.T, what string, q promotype.Query, n int,
	page func(ctx context.Context, projectID string, p export.Page) ([]T, error),
	projectID string, key func(T, string) promotype.Value, id func(T) string,
) []string {
	t.Helper()
	q.Limit = n
	var after *export.Cursor
	var out []string
	for i := range 1000 {
		// Every other page may leave the metadata out.
		items, err := page(ctx, projectID, export.Page{Query: q, After: after, Metadata: i%2 == 0})
		must(t, err)
		if len(items) > n {
			t.Fatalf("%s: a page of %d items, limit %d", what, len(items), n)
		}
		for _, v := range items {
			out = append(out, id(v))
		}
		if len(items) < n {
			return out
		}
		last := items[len(items)-1]
		after = &export.Cursor{Key: key(last, q.OrderBy), ID: id(last)}
	}
	t.Fatalf("%s: no end after 1000 pages", what)
	return nil
}

// expect filters and orders records as a list does, and returns the ids.
func expect[T any](records []T, q promotype.Query, key func(T, string) promotype.Value, id func(T) string) []string {
	var kept []T
	for _, r := range records {
		if q.Match(func(f string) promotype.Value { return key(r, f) }) {
			kept = append(kept, r)
		}
	}
	slices.SortFunc(kept, func(a, b T) int {
		c := promotype.Compare(key(a, q.OrderBy), key(b, q.OrderBy))
		if c == 0 {
			c = strings.Compare(id(a), id(b))
		}
		if q.Desc {
			return -c
		}
		return c
	})
	out := []string{}
	for _, r := range kept {
		out = append(out, id(r))
	}
	return out
}

func oneCond(field string, op promotype.Op, values ...string) promotype.Filter {
	return promotype.Filter{Junction: promotype.JunctionAnd, Conditions: []promotype.Condition{{Field: field, Op: op, Values: values}}}
}

// orders lists each order of fields in both directions, and by id alone.
func orders(fields ...string) []promotype.Query {
	out := []promotype.Query{{OrderBy: "id"}, {OrderBy: "id", Desc: true}}
	for _, f := range fields {
		out = append(out, promotype.Query{OrderBy: f}, promotype.Query{OrderBy: f, Desc: true})
	}
	return out
}

func testVoucherPages(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	var all []*voucher.Voucher
	for n := 1; n <= 13; n++ {
		v := discountVoucher(p, []string{"", "camp_1", "camp_2"}[n%3], n)
		v.CreatedAt = at(n / 4) // ties of created_at
		if n%2 == 0 {
			v.UpdatedAt = at(20 - n).Ptr() // nulls and values
		}
		must(t, s.InsertVoucher(ctx, v))
		all = append(all, v)
	}
	must(t, s.InsertVoucher(ctx, discountVoucher(other, "camp_1", 50)))
	binned := discountVoucher(p, "camp_1", 60)
	must(t, s.InsertVoucher(ctx, binned))
	must(t, s.BinVoucher(ctx, p, binned.ID, at(61)))
	// A batch (a memory store keeps it as a slab): equal created_at.
	b := batchOf(p, "camp_2", 1, 7, at(2))
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return second(tx.InsertBatch(ctx, b)) }))
	for i := range b.Len() {
		all = append(all, b.Voucher(i))
	}
	key := func(v *voucher.Voucher, f string) promotype.Value { return v.Field(f) }
	id := func(v *voucher.Voucher) string { return v.ID }
	for _, q := range orders("created_at", "updated_at", "code") {
		for _, f := range []promotype.Filter{{}, oneCond("campaign_id", promotype.OpIs, "camp_2"), oneCond("code", promotype.OpStartsWith, "B1")} {
			q.Filter = f
			what := fmt.Sprintf("vouchers by %s desc=%v %v", q.OrderBy, q.Desc, f.Conditions)
			want := expect(all, q, key, id)
			for _, n := range []int{1, 3, 100} {
				diff(t, fmt.Sprintf("%s, pages of %d", what, n), want, walk(t, what, q, n, s.VoucherPage, p, key, id))
			}
		}
	}
	// The records are whole: a page holds the same voucher as a Get.
	page, err := s.VoucherPage(ctx, p, export.Page{Query: promotype.Query{OrderBy: "code", Limit: 1}, Metadata: true})
	must(t, err)
	want, err := s.GetVoucher(ctx, p, page[0].ID)
	must(t, err)
	diff(t, "a page's voucher", want, page[0])
}

func testOtherPages(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	var customers []*customer.Customer
	var orders_ []*order.Order
	var pubs []*publication.Publication
	var reds []*redemption.Redemption
	v := discountVoucher(p, "camp_1", 1)
	must(t, s.InsertVoucher(ctx, v))
	for n := 1; n <= 9; n++ {
		c := customerFixture(p, n)
		c.CreatedAt = at(n / 3)
		if n%3 == 0 {
			c.Name, c.SourceID = nil, nil
		}
		must(t, s.InsertCustomer(ctx, c))
		customers = append(customers, c)
		o := orderFixture(p, n)
		o.CreatedAt = at(n / 2)
		o.Status = []order.Status{order.StatusCreated, order.StatusPaid, order.StatusCanceled}[n%3]
		if n%2 == 0 {
			o.UpdatedAt = nil
		}
		must(t, s.InsertOrder(ctx, o))
		orders_ = append(orders_, o)
		pub := pubRow(p, n, fmt.Sprintf("cust_%d", n%2), nil, fmt.Sprintf("P%d", n))
		pub.CreatedAt = at(n / 3)
		must(t, s.InsertPublication(ctx, pub))
		pubs = append(pubs, pub)
		r := ledgerRow(p, n, v, "", redemption.Spend{})
		r.Date = at(n / 2)
		must(t, s.InsertRedemptions(ctx, r))
		reds = append(reds, r)
	}
	must(t, s.InsertCustomer(ctx, customerFixture(other, 1)))
	must(t, s.InsertOrder(ctx, orderFixture(other, 1)))

	for _, q := range orders("created_at", "updated_at", "name", "source_id") {
		key, id := (*customer.Customer).Field, func(c *customer.Customer) string { return c.ID }
		what := fmt.Sprintf("customers by %s desc=%v", q.OrderBy, q.Desc)
		want := expect(customers, q, key, id)
		for _, n := range []int{1, 4} {
			diff(t, what, want, walk(t, what, q, n, s.CustomerPage, p, key, id))
		}
	}
	for _, q := range orders("created_at", "updated_at", "status") {
		for _, f := range []promotype.Filter{{}, oneCond("status", promotype.OpIn, "PAID", "CANCELED")} {
			q.Filter = f
			key, id := (*order.Order).Field, func(o *order.Order) string { return o.ID }
			what := fmt.Sprintf("orders by %s desc=%v %v", q.OrderBy, q.Desc, f.Conditions)
			want := expect(orders_, q, key, id)
			for _, n := range []int{1, 4} {
				diff(t, what, want, walk(t, what, q, n, s.OrderPage, p, key, id))
			}
		}
	}
	for _, q := range orders("created_at", "customer_id") {
		key, id := (*publication.Publication).Field, func(p *publication.Publication) string { return p.ID }
		what := fmt.Sprintf("publications by %s desc=%v", q.OrderBy, q.Desc)
		want := expect(pubs, q, key, id)
		diff(t, what, want, walk(t, what, q, 2, s.PublicationPage, p, key, id))
	}
	for _, q := range orders("created_at") {
		key, id := (*redemption.Redemption).Field, func(r *redemption.Redemption) string { return r.ID }
		what := fmt.Sprintf("redemptions by %s desc=%v", q.OrderBy, q.Desc)
		want := expect(reds, q, key, id)
		diff(t, what, want, walk(t, what, q, 2, s.RedemptionPage, p, key, id))
	}
}

// testTransactionPages walks the voucher transactions of a project (the
// voucher_transactions export): ties of created_at, cards with and without
// a campaign, the filters the export accepts.
func testTransactionPages(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	cards := []*voucher.Voucher{giftCard(p, 1, 100), giftCard(p, 2, 100), giftCard(p, 3, 100)}
	cards[0].CampaignID, cards[1].CampaignID = ptr("camp_1"), ptr("camp_2")
	var all []*redemption.Transaction
	for n := 1; n <= 11; n++ {
		tr := movement(p, fmt.Sprintf("vtx_%02d", 20-n), cards[n%3], redemption.TxCreditsAddition, int64(n), n/3)
		must(t, s.InsertTransactions(ctx, tr))
		all = append(all, tr)
	}
	must(t, s.InsertTransactions(ctx, movement(other, "vtx_05", giftCard(other, 1, 5), redemption.TxCreditsAddition, 1, 1)))
	key, id := (*redemption.Transaction).Field, func(tr *redemption.Transaction) string { return tr.ID }
	for _, q := range orders("created_at") {
		for _, f := range []promotype.Filter{{}, oneCond("voucher_id", promotype.OpIn, cards[1].ID, cards[2].ID),
			oneCond("campaign_id", promotype.OpIsUnknown), oneCond("created_at", promotype.OpAfter, at(1).UTC().Format(promotype.TimeLayout))} {
			f, err := f.Resolve(map[string]promotype.FieldKind{"voucher_id": promotype.FieldString,
				"campaign_id": promotype.FieldString, "created_at": promotype.FieldTime}, at(0))
			must(t, err)
			q.Filter = f
			what := fmt.Sprintf("transactions by %s desc=%v %v", q.OrderBy, q.Desc, f.Conditions)
			want := expect(all, q, key, id)
			for _, n := range []int{1, 4, 100} {
				diff(t, what, want, walk(t, what, q, n, s.TransactionPage, p, key, id))
			}
		}
	}
	// The records are whole: a page holds the transaction as stored.
	page, err := s.TransactionPage(ctx, p, export.Page{Query: promotype.Query{OrderBy: "id", Limit: 1}})
	must(t, err)
	diff(t, "a page's transaction", all[len(all)-1], page[0])
}
