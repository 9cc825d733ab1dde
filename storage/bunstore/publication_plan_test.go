package bunstore_test

import (
	"strings"
	"testing"

	"github.com/promoengine/promo/promotype"
)

// TestClaimPlanUsesFreeIndex checks, with EXPLAIN, that a campaign
// publication reads its free vouchers off promo_vouchers_free_idx (no
// Seq Scan, no Sort), so a claim does not read the vouchers already held
// however many a campaign has.
func TestClaimPlanUsesFreeIndex(t *testing.T) {
	db, _ := migrated(t)
	plan := explain(t, db, `SELECT id FROM promo_vouchers
		WHERE project_id = 'proj_a' AND campaign_id = 'camp_1' AND binned_at IS NULL AND holder_id IS NULL AND active = 'true'
		ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`)
	if !strings.Contains(plan, "promo_vouchers_free_idx") || strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "Sort") {
		t.Errorf("the claim does not read promo_vouchers_free_idx in id order:\n%s", plan)
	}
}

// TestPublicationListPlansUseIndexes checks that the publication list's
// orders and its customer and campaign filters read their page off an
// index, as TestListPlansUseIndexes does for the other lists.
func TestPublicationListPlansUseIndexes(t *testing.T) {
	db, store := migrated(t)
	hook := &pageQuery{}
	db.AddQueryHook(hook)
	is := func(field, value string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{value}}
	}
	for _, tc := range []struct {
		name string
		q    promotype.Query
	}{
		{"default order", promotype.Query{OrderBy: "created_at", Desc: true}},
		{"id", promotype.Query{OrderBy: "id"}},
		{"voucher_code", promotype.Query{OrderBy: "voucher_code", Desc: true}},
		{"tracking_id", promotype.Query{OrderBy: "tracking_id"}},
		{"channel", promotype.Query{OrderBy: "channel"}},
		{"customer", promotype.Query{OrderBy: "created_at", Desc: true, Must: []promotype.Condition{is("customer_id", "cust_1")}}},
		{"campaign", promotype.Query{OrderBy: "created_at", Desc: true, Must: []promotype.Condition{is("campaign_id", "camp_1")}}},
	} {
		tc.q.Limit, tc.q.Offset = 10, 9990
		if _, _, err := store.ListPublications(ctx, "proj_a", tc.q); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		page := hook.get()
		// The total is a count(*) subquery over the same conditions: only the
		// page's own scan and order matter here.
		plan := explain(t, db, page)
		if strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "Sort") {
			t.Errorf("%s: the page is not read off an index:\n%s\n%s", tc.name, page, plan)
		}
	}
}

// TestWalletPlanUsesIndex checks that a wallet page, after a cursor, is
// read off promo_holders_customer_idx in id order.
func TestWalletPlanUsesIndex(t *testing.T) {
	db, store := migrated(t)
	hook := &pageQuery{}
	db.AddQueryHook(hook)
	for _, desc := range []bool{false, true} {
		if _, _, err := store.ListHolders(ctx, "proj_a", "cust_1", "rh_5", promotype.Query{Limit: 10, OrderBy: "id", Desc: desc}); err != nil {
			t.Fatal(err)
		}
		plan := explain(t, db, hook.get())
		if !strings.Contains(plan, "promo_holders_customer_idx") || strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "Sort") {
			t.Errorf("desc %v: the wallet page is not read off promo_holders_customer_idx:\n%s", desc, plan)
		}
	}
}
