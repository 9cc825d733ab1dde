package bunstore_test

import (
	"strings"
	"testing"

	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/promotype"
)

// TestExportPagePlansUseIndexes checks, with EXPLAIN, that a voucher
// export's keyset page after a cursor is read off an index from the
// cursor on: no Seq Scan, no Sort (the code order may sort the ties of
// its unique key by id: an Incremental Sort of groups of one), and the
// cursor in the index condition (not a filter over every row before it,
// which would make an export quadratic), in each order and direction.
func TestExportPagePlansUseIndexes(t *testing.T) {
	db, store := migrated(t)
	hook := &pageQuery{}
	db.AddQueryHook(hook)
	after := func(key promotype.Value) *export.Cursor { return &export.Cursor{Key: key, ID: "v_5"} }
	for _, tc := range []struct {
		name  string
		q     promotype.Query
		after *export.Cursor
	}{
		{"created_at", promotype.Query{OrderBy: "created_at"}, after(promotype.Value{Time: promotype.Time{}})},
		{"-created_at", promotype.Query{OrderBy: "created_at", Desc: true}, after(promotype.Value{Time: promotype.Time{}})},
		{"code", promotype.Query{OrderBy: "code"}, after(promotype.Value{Str: "C"})},
		{"-code", promotype.Query{OrderBy: "code", Desc: true}, after(promotype.Value{Str: "C"})},
		{"id", promotype.Query{OrderBy: "id"}, after(promotype.Value{Str: "v_5"})},
		{"-id", promotype.Query{OrderBy: "id", Desc: true}, after(promotype.Value{Str: "v_5"})},
	} {
		tc.q.Limit = 1000
		if _, err := store.VoucherPage(ctx, "proj_a", export.Page{Query: tc.q, After: tc.after}); err != nil {
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
