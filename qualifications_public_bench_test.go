package promo_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkQualificationsPublicVouchers is a qualification (scenario ALL,
// DEFAULT sorting) of a project holding N public vouchers (live, active,
// without holder or campaign) on PostgreSQL: the first page, default size
// and 50, and the page after it. N is 100,000, or 1,000,000 with
// PROMO_BENCH_1M=1; the vouchers are copies of one, written by SQL, one
// millisecond apart, and the tables analyzed.
//
//	PROMO_BENCH_1M=1 PROMO_TEST_POSTGRES_DSN=... go test -run '^$' -bench QualificationsPublicVouchers -benchtime 20x .
func BenchmarkQualificationsPublicVouchers(b *testing.B) {
	n := 100_000
	if os.Getenv("PROMO_BENCH_1M") == "1" {
		n = 1_000_000
	}
	if bunstoretest.DSN() == "" {
		b.Skip("needs " + bunstoretest.EnvDSN)
	}
	db := bunstoretest.NewDB(b)
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		b.Fatal(err)
	}
	eng, err := promo.New(bunstore.New(db), promo.WithLogger(quietLogger()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = eng.Close() })
	p := must[*project.Project](b)(eng.Projects().Create(ctx, project.Params{Name: "bench"}))
	in := js[voucher.Params](b, `{"type":"DISCOUNT_VOUCHER","code":"PUB","discount":{"type":"AMOUNT","amount_off":100}}`)
	v := must[*voucher.Voucher](b)(eng.Vouchers().Create(ctx, p.ID, in))
	start := time.Now()
	var cols []string
	if err := db.NewRaw(`SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'promo_vouchers' ORDER BY ordinal_position`).Scan(ctx, &cols); err != nil {
		b.Fatal(err)
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		switch c {
		case "id", "code":
			exprs[i] = c + " || '-' || g"
		case "created_at", "updated_at":
			exprs[i] = c + " - g * interval '1 millisecond'"
		default:
			exprs[i] = c
		}
	}
	for lo := 1; lo < n; lo += 10_000 { // statements within the store's query deadline
		if _, err := db.ExecContext(ctx, fmt.Sprintf(`INSERT INTO promo_vouchers (%s) SELECT %s FROM promo_vouchers, generate_series(%d, %d) AS g
			WHERE project_id = '%s' AND id = '%s'`, strings.Join(cols, ", "), strings.Join(exprs, ", "), lo, min(lo+10_000, n)-1, p.ID, v.ID)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, "ANALYZE promo_vouchers"); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d public vouchers in %s", n, time.Since(start).Round(time.Millisecond))
	qualify := func(b *testing.B, limit int, after *redemption.Cursor) *redemption.Qualification {
		opts := &redemption.QualificationOptions{StartingAfter: after}
		if limit > 0 {
			opts.Limit = &limit
		}
		q, err := eng.Qualifications().Qualify(ctx, p.ID, redemption.QualificationParams{
			Order: js[*order.Params](b, `{"amount":1000}`), Options: opts})
		if err != nil {
			b.Fatal(err)
		}
		return q
	}
	for _, limit := range []int{0, 50} {
		b.Run(fmt.Sprintf("n=%d/limit=%d/first", n, limit), func(b *testing.B) {
			for b.Loop() {
				q := qualify(b, limit, nil)
				if len(q.Redeemables.Data) == 0 || !q.Redeemables.HasMore {
					b.Fatalf("first page: %d redeemables, has_more %v", len(q.Redeemables.Data), q.Redeemables.HasMore)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/limit=%d/second", n, limit), func(b *testing.B) {
			first := qualify(b, limit, nil)
			for b.Loop() {
				q := qualify(b, limit, first.Redeemables.MoreStartingAfter)
				if len(q.Redeemables.Data) == 0 || q.Redeemables.Data[0].ID == first.Redeemables.Data[0].ID {
					b.Fatalf("second page: %d redeemables", len(q.Redeemables.Data))
				}
			}
		})
	}
}
