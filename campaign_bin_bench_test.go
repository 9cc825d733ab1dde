package promo_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkBinCampaignVouchers measures deleting (binning) a campaign of N
// generated vouchers through the engine, as DELETE /v1/campaigns/{id}
// does: the CAMPAIGN.VOUCHERS_DELETE action, in chunks of the runner's
// default size, timed from the request to the action's end. N is
// PROMO_BENCH_BIN_VOUCHERS, 100,000 by default (PROMO_BENCH_1M=1 gives
// 1,000,000). It checks that the voucher list counts none afterwards.
//
//	PROMO_TEST_POSTGRES_DSN=... go test -run '^$' -bench 'BinCampaignVouchers/postgres' -benchtime 1x .
func BenchmarkBinCampaignVouchers(b *testing.B) {
	n := int64(100_000)
	if os.Getenv("PROMO_BENCH_1M") == "1" {
		n = 1_000_000
	}
	if v := os.Getenv("PROMO_BENCH_BIN_VOUCHERS"); v != "" {
		var err error
		if n, err = strconv.ParseInt(v, 10, 64); err != nil || n <= 0 {
			b.Fatalf("PROMO_BENCH_BIN_VOUCHERS=%q: want a positive count", v)
		}
	}
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			eng, err := promo.New(newStore(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = eng.Close() })
			p, err := eng.Projects().Create(ctx, project.Params{Name: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			var elapsed time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				c, err := eng.Campaigns().Create(ctx, p.ID, discountCampaign("bin-"+strconv.Itoa(i), n))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10_000}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if _, err := eng.Campaigns().Delete(ctx, p.ID, c.ID, false); err != nil {
					b.Fatal(err)
				}
				if _, err := eng.AsyncActions().RunPending(ctx, async.Config{}); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
			}
			b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/campaign")
			b.ReportMetric(float64(elapsed.Nanoseconds())/float64(n)/float64(b.N), "ns/voucher")
			l, err := eng.Vouchers().List(ctx, p.ID, voucher.ListParams{ListParams: promo.ListParams{Limit: 1}})
			if err != nil || l.Total != 0 {
				b.Fatalf("voucher list after the bin: total %d, %v; want 0", l.Total, err)
			}
		})
	}
}
