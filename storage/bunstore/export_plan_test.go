package bunstore_test

import (
	"strings"
	"testing"

	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/promotype"
)

// TestExportPagePlansUseIndexes checks, with EXPLAIN, that a voucher
// (and a voucher transaction) export's keyset page after a cursor is read off an index from the
// cursor on: no Seq Scan, no Sort (the code order may sort the ties of
// its unique key by id: an Incremental Sort of groups of one), and the
// cursor in the index condition (not a filter over every row before it,
// which would make an export quadratic), in each order and direction.
func TestExportPagePlansUseIndexes(t *testing.T) {
	db, store := migrated(t)
	hook := &pageQuery{}
	db.AddQueryHook(hook)
	after := func(key promotype.Value) *export.Cursor { return &export.Cursor{Key: key, ID: "v_5"} }
	type pager func(q promotype.Query, after *export.Cursor) error
	vouchers := func(q promotype.Query, after *export.Cursor) error {
		_, err := store.VoucherPage(ctx, "proj_a", export.Page{Query: q, After: after})
		return err
	}
	transactions := func(q promotype.Query, after *export.Cursor) error {
		_, err := store.TransactionPage(ctx, "proj_a", export.Page{Query: q, After: after})
		return err
	}
	for _, tc := range []struct {
		name  string
		page  pager
		q     promotype.Query
		after *export.Cursor
	}{
		{"created_at", vouchers, promotype.Query{OrderBy: "created_at"}, after(promotype.Value{Time: promotype.Time{}})},
		{"-created_at", vouchers, promotype.Query{OrderBy: "created_at", Desc: true}, after(promotype.Value{Time: promotype.Time{}})},
		{"code", vouchers, promotype.Query{OrderBy: "code"}, after(promotype.Value{Str: "C"})},
		{"-code", vouchers, promotype.Query{OrderBy: "code", Desc: true}, after(promotype.Value{Str: "C"})},
		{"id", vouchers, promotype.Query{OrderBy: "id"}, after(promotype.Value{Str: "v_5"})},
		{"-id", vouchers, promotype.Query{OrderBy: "id", Desc: true}, after(promotype.Value{Str: "v_5"})},
		{"transactions created_at", transactions, promotype.Query{OrderBy: "created_at"}, after(promotype.Value{Time: promotype.Time{}})},
		{"transactions -created_at", transactions, promotype.Query{OrderBy: "created_at", Desc: true}, after(promotype.Value{Time: promotype.Time{}})},
	} {
		tc.q.Limit = 1000
		if err := tc.page(tc.q, tc.after); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		page := hook.get()
		plan := explain(t, db, page)
		cond := ""
		for _, line := range strings.Split(plan, "\n") {
			if strings.Contains(line, "Index Cond") {
				cond += line
			}
		}
		sorted := strings.Contains(plan, "Sort") && !strings.Contains(plan, "Presorted Key")
		if strings.Contains(plan, "Seq Scan") || sorted || !(strings.Contains(cond, "'v_5'") || strings.Contains(cond, "'C'")) {
			t.Errorf("%s: the page is not read off an index from the cursor:\n%s\n%s", tc.name, page, plan)
		}
	}
}
