package bunstore_test

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// benchVoucherRows is how many vouchers BenchmarkListVouchers seeds:
// PROMO_BENCH_10M=1 gives 10,000,000, PROMO_BENCH_VOUCHERS=n gives n, and
// without either a small table keeps plain -bench runs fast.
func benchVoucherRows(b *testing.B) int {
	if os.Getenv("PROMO_BENCH_10M") == "1" {
		return 10_000_000
	}
	if v := os.Getenv("PROMO_BENCH_VOUCHERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("PROMO_BENCH_VOUCHERS=%q: want a positive count", v)
		}
		return n
	}
	return 20_000
}

const benchProject = "proj_bench"

// seedVouchers writes n vouchers of one project in SQL, a million rows a
// statement: ten campaigns of n/10 vouchers side by side (as generations
// write them), every hundredth voucher in the bin, every thousandth
// inactive. created_at counts up one millisecond a voucher. Then ANALYZE,
// as autovacuum would after a load this size.
func seedVouchers(b *testing.B, db *bun.DB, n int) {
	b.Helper()
	ctx := context.Background()
	start := time.Now()
	const chunk = 1_000_000
	for lo := 1; lo <= n; lo += chunk {
		hi := min(lo+chunk-1, n)
		// The *sql.DB under db runs it without the store's query deadline.
		_, err := db.DB.ExecContext(ctx, `INSERT INTO promo_vouchers (project_id, id, code, campaign_id, type, active,
				is_referral_code, data, metadata, created_at, binned_at)
			SELECT $1, 'v_' || lpad(i::text, 9, '0'), 'CODE-' || lpad(i::text, 9, '0'),
				'camp_' || ((i - 1) * 10 / $2), 'DISCOUNT_VOUCHER',
				CASE WHEN i % 1000 = 7 THEN 'false' ELSE 'true' END, 'false',
				'{"discount":{"type":"AMOUNT","amount_off":100}}', '{}',
				timestamptz '2026-01-01 00:00:00+00' + i * interval '1 millisecond',
				CASE WHEN i % 100 = 0 THEN timestamptz '2026-06-01 00:00:00+00' END
			FROM generate_series($3::bigint, $4::bigint) AS i`, benchProject, n, lo, hi)
		if err != nil {
			b.Fatalf("seed vouchers %d-%d: %v", lo, hi, err)
		}
	}
	if _, err := db.DB.ExecContext(ctx, "ANALYZE promo_vouchers"); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d vouchers in %v", n, time.Since(start).Round(time.Millisecond))
}

// BenchmarkListVouchers lists the vouchers of a project of
// benchVoucherRows vouchers as GET /v1/vouchers does (newest first, the
// total with the page). The seeding is outside the timer and runs once;
// see BENCHMARKS.md for the commands and figures.
func BenchmarkListVouchers(b *testing.B) {
	if bunstoretest.DSN() == "" {
		b.Skip(bunstoretest.EnvDSN + " is not set")
	}
	n := benchVoucherRows(b)
	db := bunstoretest.NewDB(b)
	// Seeding a large table takes longer than the default query deadline.
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		b.Fatal(err)
	}
	seedVouchers(b, db, n)
	store := bunstore.New(db)
	live := n - n/100
	campaignLive := 0 // camp_0 holds vouchers 1..n/10
	for i := 1; i <= n; i++ {
		if (i-1)*10/n == 0 && i%100 != 0 {
			campaignLive++
		}
	}
	list := func(page, limit int, orderBy string, desc bool, must ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: limit, Offset: (page - 1) * limit, OrderBy: orderBy, Desc: desc, Must: must}
	}
	campaign0 := promotype.Condition{Field: "campaign_id", Op: promotype.OpIs, Values: []string{"camp_0"}}
	inactive := promotype.Condition{Field: "active", Op: promotype.OpIs, Values: []string{"false"}}
	cases := []struct {
		name  string
		q     promotype.Query
		total int // -1: not checked
	}{
		{"page1", list(1, 10, "created_at", true), live},
		{"page1000", list(1000, 10, "created_at", true), live},
		{"page1000_limit100", list(1000, 100, "created_at", true), live},
		{"code_page1000", list(1000, 10, "code", false), live},
		{"campaign_page1", list(1, 10, "created_at", true, campaign0), campaignLive},
		{"campaign_page1000", list(1000, 10, "created_at", true, campaign0), campaignLive},
		{"inactive_page1", list(1, 10, "created_at", true, inactive), -1},
	}
	listOnce := func(b *testing.B, q promotype.Query, want int) {
		items, total, err := store.ListVouchers(context.Background(), benchProject, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(items) == 0 || (want >= 0 && total != want) {
			b.Fatalf("got %d items, total %d; want a page, total %d", len(items), total, want)
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			took := make([]time.Duration, 0, 1000)
			for b.Loop() {
				start := time.Now()
				listOnce(b, c.q, c.total)
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2])/1e6, "p50-ms")
			b.ReportMetric(float64(took[len(took)*99/100])/1e6, "p99-ms")
		})
	}
	// Eight lists at once (the 8 concurrent lists): ns/op is the
	// throughput, not the latency of one.
	b.Run("page1000_x8", func(b *testing.B) {
		b.SetParallelism(8 / runtime.GOMAXPROCS(0))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				listOnce(b, cases[1].q, cases[1].total)
			}
		})
	})
}
