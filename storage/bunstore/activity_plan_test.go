package bunstore_test

import (
	"strings"
	"testing"

	"github.com/promoengine/promo/customer"
)

// TestActivityListPlanUsesIndex checks with EXPLAIN that a page of a
// customer's activity log, in either order and after a cursor, is read off
// the table's key (the customer's rows by time then id): no Seq Scan, no
// Sort, however long the project's logs grow.
func TestActivityListPlanUsesIndex(t *testing.T) {
	db, store := migrated(t)
	hook := &pageQuery{}
	db.AddQueryHook(hook)
	for _, q := range []customer.ActivityQuery{
		{Limit: 11, Desc: true},
		{Limit: 11, After: "evt_5"},
		{Limit: 11, Desc: true, After: "evt_5", Types: []string{"customer.created"}},
	} {
		if _, err := store.ListActivities(ctx, "proj_a", "cust_1", q); err != nil {
			t.Fatal(err)
		}
		page := hook.get()
		if plan := explain(t, db, page); strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "Sort") {
			t.Errorf("%+v: the page is not read off the index:\n%s\n%s", q, page, plan)
		}
	}
}
