package promo_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
)

// BenchmarkGenerateVouchers measures a CAMPAIGN.VOUCHERS_GENERATE action of
// N vouchers (b.N campaigns of N each) through the engine on each store:
// create the campaign, run the action, in chunks of the runner's default
// size. It reports the time and the retained heap per voucher.
//
//	go test -run '^$' -bench 'GenerateVouchers/memory_1M' -benchtime 1x .
func BenchmarkGenerateVouchers(b *testing.B) {
	sizes := []struct {
		name string
		n    int64
	}{{"10k", 10_000}, {"1M", 1_000_000}}
	for name, newStore := range storeFactories {
		for _, size := range sizes {
			b.Run(name+"_"+size.name, func(b *testing.B) {
				eng, err := promo.New(newStore(b))
				if err != nil {
					b.Fatal(err)
				}
				p, err := eng.CreateProject(ctx, project.Params{Name: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				var elapsed time.Duration
				for i := 0; b.Loop(); i++ {
					in := discountCampaign("bench-"+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676%26)), size.n)
					start := time.Now()
					if _, err := eng.Campaigns().Create(ctx, p.ID, in); err != nil {
						b.Fatal(err)
					}
					if _, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10_000}); err != nil {
						b.Fatal(err)
					}
					elapsed += time.Since(start)
				}
				b.StopTimer()
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				vouchers := float64(size.n) * float64(b.N)
				b.ReportMetric(float64(elapsed.Nanoseconds())/vouchers, "ns/voucher")
				b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/vouchers, "heapB/voucher")
				c, err := eng.Campaigns().List(ctx, p.ID, campaign.ListParams{ListParams: promo.ListParams{Limit: 1}})
				if err != nil || c.Data[0].VouchersCount != size.n || c.Data[0].CreationStatus != campaign.StatusDone {
					b.Fatalf("campaign after generation: %+v, %v", c.Data[0], err)
				}
				runtime.KeepAlive(eng)
			})
		}
	}
}
