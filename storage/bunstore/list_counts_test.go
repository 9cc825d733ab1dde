package bunstore_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestListCountsFollowRows checks the list-count triggers (migrations 15,
// 32 and 40) on each of their shapes: after multi-row inserts, binning,
// restoring, moving a voucher between campaigns (also binned or restored
// at once), a spend-like update that
// changes no counted column, and deletes, the counters of every project,
// list and scope equal a count of the rows.
func TestListCountsFollowRows(t *testing.T) {
	db, _ := migrated(t)
	steps := []string{
		`INSERT INTO promo_vouchers (project_id, id, code, campaign_id, type, active, is_referral_code, created_at)
		 SELECT p, p || '_v' || i, 'C' || i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'camp_' || (i % 3) END,
		        'DISCOUNT_VOUCHER', 'true', 'false', now()
		 FROM unnest(ARRAY['proj_a', 'proj_b']) AS p, generate_series(1, 10) AS i`,
		`UPDATE promo_vouchers SET binned_at = now() WHERE id IN ('proj_a_v1', 'proj_a_v3', 'proj_b_v2')`,
		`UPDATE promo_vouchers SET binned_at = NULL WHERE id = 'proj_a_v1'`,
		`UPDATE promo_vouchers SET campaign_id = 'camp_9' WHERE id IN ('proj_a_v4', 'proj_a_v6')`,
		`UPDATE promo_vouchers SET campaign_id = 'camp_1', binned_at = NULL WHERE id = 'proj_b_v2'`,
		`UPDATE promo_vouchers SET campaign_id = NULL WHERE id IN ('proj_a_v7', 'proj_b_v8')`,
		`UPDATE promo_vouchers SET binned_at = now(), campaign_id = 'camp_2' WHERE id = 'proj_b_v1'`,
		`UPDATE promo_vouchers SET redeemed_quantity = redeemed_quantity + 1 WHERE project_id = 'proj_a'`,
		`DELETE FROM promo_vouchers WHERE id IN ('proj_a_v5', 'proj_a_v3', 'proj_b_v9')`,
		`INSERT INTO promo_customers (project_id, id, source_id, metadata, created_at)
		 SELECT 'proj_a', 'cust_' || i, 's' || i, '{}', now() FROM generate_series(1, 5) AS i`,
		`UPDATE promo_customers SET binned_at = now() WHERE id IN ('cust_1', 'cust_2')`,
		`UPDATE promo_customers SET name = 'n' WHERE id = 'cust_3'`,
		`DELETE FROM promo_customers WHERE id IN ('cust_2', 'cust_4')`,
		`INSERT INTO promo_orders (project_id, id, status, amount, initial_amount, discount_amount,
		   items_discount_amount, total_discount_amount, total_amount, applied_discount_amount,
		   items_applied_discount_amount, total_applied_discount_amount, created_at)
		 SELECT 'proj_b', 'ord_' || i, 'CREATED', 1, 1, 0, 0, 0, 1, 0, 0, 0, now() FROM generate_series(1, 4) AS i`,
		`DELETE FROM promo_orders WHERE id = 'ord_2'`,
	}
	for _, s := range steps {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	type count struct {
		Project, List, Scope string
		N                    int64
	}
	read := func(q string) []count {
		t.Helper()
		var out []count
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var c count
			if err := rows.Scan(&c.Project, &c.List, &c.Scope, &c.N); err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := read(`SELECT project_id, list, scope, sum(n) FROM promo_list_counts
		WHERE list IN ('vouchers', 'customers', 'orders')
		GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`)
	want := read(`SELECT * FROM (
		SELECT project_id, 'vouchers' AS list, '' AS scope, count(*) FROM promo_vouchers WHERE binned_at IS NULL GROUP BY 1
		UNION ALL SELECT project_id, 'vouchers', 'campaign_id=' || campaign_id, count(*) FROM promo_vouchers
			WHERE binned_at IS NULL AND campaign_id IS NOT NULL GROUP BY 1, 3
		UNION ALL SELECT project_id, 'customers', '', count(*) FROM promo_customers WHERE binned_at IS NULL GROUP BY 1
		UNION ALL SELECT project_id, 'orders', '', count(*) FROM promo_orders GROUP BY 1) AS c
		ORDER BY 1, 2, 3`)
	if len(want) < 8 {
		t.Fatalf("the steps left too few rows to compare: %v", want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("list counts (-rows +counters):\n%s", diff)
	}
}
