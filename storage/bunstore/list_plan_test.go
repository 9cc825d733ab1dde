package bunstore_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// pageQuery is a bun hook that keeps the text of the last page query of
// a list (the statement with LIMIT: the page and its total).
type pageQuery struct {
	mu   sync.Mutex
	text string
}

func (h *pageQuery) BeforeQuery(ctx context.Context, ev *bun.QueryEvent) context.Context {
	h.mu.Lock()
	defer h.mu.Unlock()
	if strings.Contains(ev.Query, " LIMIT ") {
		h.text = ev.Query
	}
	return ctx
}

func (h *pageQuery) AfterQuery(context.Context, *bun.QueryEvent) {}

func (h *pageQuery) get() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.text
}

// explain returns the plan of query with sequential scans and sorts
// priced out, so the plan shows a Seq Scan or a Sort only where no index
// can serve: the plan the list would get on a table of millions of rows.
func explain(t *testing.T, db *bun.DB, query string) string {
	t.Helper()
	var plan []string
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off"); err != nil {
			return err
		}
		// The underlying *sql.Tx runs query verbatim (bun would read a '?').
		rows, err := tx.Tx.QueryContext(ctx, "EXPLAIN "+query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				return err
			}
			plan = append(plan, line)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	return strings.Join(plan, "\n")
}

// TestListPlansUseIndexes checks, with EXPLAIN, that every list order and
// every indexed filter of the lists that grow with a project's data reads
// its page off an index (no Seq Scan, no Sort) and that unfiltered lists
// take their total from promo_list_counts rather than counting rows.
func TestListPlansUseIndexes(t *testing.T) {
	db, store := migrated(t)
	hook := &pageQuery{}
	db.AddQueryHook(hook)
	const p = "proj_a"
	when := at(5)
	q := func(order string, conds ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 10, Offset: 9990, OrderBy: strings.TrimPrefix(order, "-"),
			Desc: strings.HasPrefix(order, "-"), Must: conds}
	}
	is := func(field, value string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{value}}
	}
	after := func(field string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpAfter, At: when}
	}
	type listCase struct {
		name    string
		q       promotype.Query
		counter bool // the total comes from promo_list_counts
		// incremental: the order's unique index serves it, the id
		// tie-break an incremental sort.
		incremental bool
	}
	vouchers := []listCase{
		{"default order", q("-created_at"), true, false},
		{"created_at", q("created_at"), true, false},
		{"updated_at", q("-updated_at"), true, false},
		{"code", q("code"), true, true},
		{"-code", q("-code"), true, true},
		{"campaign_id", q("-created_at", is("campaign_id", "camp_1")), true, false},
		{"id", q("-created_at", promotype.Condition{Field: "id", Op: promotype.OpIn, Values: []string{"v_1", "v_2"}}), false, false},
		{"code filter", q("-created_at", is("code", "CODE")), false, false},
		{"code prefix", q("code", promotype.Condition{Field: "code", Op: promotype.OpStartsWith, Values: []string{"CO"}}), false, true},
		{"category_id", q("-created_at", is("category_id", "cat_1")), false, false},
		{"type", q("-created_at", is("type", "GIFT_VOUCHER")), false, false},
		{"holder_id", q("-created_at", is("holder_id", "cust_1")), false, false},
		{"active", q("-created_at", is("active", "false")), false, false},
		{"is_referral_code", q("-created_at", is("is_referral_code", "true")), false, false},
		{"created_at after", q("-created_at", after("created_at")), false, false},
		{"updated_at after", q("-updated_at", after("updated_at")), false, false},
		{"start_date after", q("-created_at", after("start_date")), false, false},
		{"expiration_date after", q("-created_at", after("expiration_date")), false, false},
		{"campaign and active", q("-created_at", is("campaign_id", "camp_1"), is("active", "true")), false, false},
	}
	campaigns := []listCase{
		{"default order", q("-created_at"), true, false},
		{"updated_at", q("updated_at"), true, false},
	}
	for _, f := range []string{"name", "campaign_type", "type", "category_id", "creation_status",
		"vouchers_generation_status", "voucher_type", "active", "is_referral_code"} {
		campaigns = append(campaigns, listCase{f, q("-created_at", is(f, "x")), false, false})
	}
	for _, f := range []string{"created_at", "updated_at", "start_date", "expiration_date"} {
		campaigns = append(campaigns, listCase{f + " after", q("-created_at", after(f)), false, false})
	}
	products := []listCase{
		{"default order", q("-created_at"), true, false},
		{"updated_at", q("updated_at"), true, false},
		{"name", q("-created_at", is("name", "x")), false, false},
		{"source_id", q("-created_at", is("source_id", "x")), false, false},
	}
	orders := []listCase{
		{"default order", q("-created_at"), true, false},
		{"updated_at", q("updated_at"), true, false},
		{"status", q("-created_at", is("status", "PAID")), false, false},
		{"customer_id", q("-created_at", is("customer_id", "cust_1")), false, false},
		{"referrer_id", q("-created_at", is("referrer_id", "cust_1")), false, false},
		{"source_id", q("-created_at", is("source_id", "x")), false, false},
	}
	customers := []listCase{
		{"default order", q("-created_at"), true, false},
		{"updated_at", q("updated_at"), true, false},
		{"source_id order", q("-source_id"), true, false},
		{"email", q("-created_at", is("email", "x")), false, false},
		{"name", q("-created_at", is("name", "x")), false, false},
		{"city", q("-created_at", is("address.city", "x")), false, false},
		{"created_at after", q("-created_at", after("created_at")), false, false},
	}
	asyncActions := []listCase{
		{"default order", q("-created_at"), true, false},
		{"updated_at", q("updated_at"), true, false},
		{"type", q("-created_at", is("type", "CAMPAIGN.VOUCHERS_GENERATION")), false, false},
		{"status", q("-created_at", is("status", "DONE")), false, false},
	}
	lists := []struct {
		name  string
		table string
		cases []listCase
		run   func(q promotype.Query) error
	}{
		{"vouchers", "promo_vouchers", vouchers, func(q promotype.Query) error {
			_, _, err := store.ListVouchers(ctx, p, q)
			return err
		}},
		{"campaigns", "promo_campaigns", campaigns, func(q promotype.Query) error {
			_, _, err := store.ListCampaigns(ctx, p, q)
			return err
		}},
		{"products", "promo_products", products, func(q promotype.Query) error {
			_, _, err := store.ListProducts(ctx, p, q)
			return err
		}},
		{"skus", "promo_skus", products[:2], func(q promotype.Query) error {
			_, _, err := store.ListSKUs(ctx, p, "", q)
			return err
		}},
		{"product skus", "promo_skus", products[:2], func(q promotype.Query) error {
			_, _, err := store.ListSKUs(ctx, p, "prod_1", q)
			return err
		}},
		{"orders", "promo_orders", orders, func(q promotype.Query) error {
			_, _, err := store.ListOrders(ctx, p, q)
			return err
		}},
		{"customers", "promo_customers", customers, func(q promotype.Query) error {
			_, _, err := store.ListCustomers(ctx, p, q)
			return err
		}},
		{"async actions", "promo_async_actions", asyncActions, func(q promotype.Query) error {
			_, _, err := store.ListAsyncActions(ctx, p, q)
			return err
		}},
	}
	for _, l := range lists {
		for _, c := range l.cases {
			t.Run(l.name+"/"+c.name, func(t *testing.T) {
				if err := l.run(c.q); err != nil {
					t.Fatal(err)
				}
				plan := explain(t, db, hook.get())
				sorted := strings.Contains(plan, "Sort")
				if c.incremental { // presorted by a unique key: groups of one row
					rest := strings.NewReplacer("Incremental Sort", "", "Sort Key", "", "Presorted Key", "").Replace(plan)
					sorted = strings.Contains(rest, "Sort") ||
						!strings.Contains(plan, "Presorted Key: v.code")
				}
				if strings.Contains(plan, "Seq Scan") || sorted {
					t.Errorf("the list is not served by an index:\n%s\n%s", hook.get(), plan)
				}
				counter := l.name != "product skus" && c.counter
				if got := strings.Contains(plan, "promo_list_counts"); got != counter {
					t.Errorf("total from promo_list_counts = %v, want %v:\n%s", got, counter, plan)
				}
				if counter && strings.Count(plan, " on "+l.table+" ") != 1 {
					t.Errorf("%s is read more than once (a count?):\n%s", l.table, plan)
				}
			})
		}
	}
}
