package promo_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// BenchmarkCampaignSummary measures GET /v1/campaigns/{id}/summary through
// the engine over a campaign of N ledger rows (one in ten failed, one in
// ten rolled back) beside another campaign of N rows: one aggregate over
// the campaign's rows, one over its publications. N is
// PROMO_BENCH_SUMMARY_ROWS, 100,000 by default. It checks the counts.
//
//	PROMO_TEST_POSTGRES_DSN=... go test -run '^$' -bench 'CampaignSummary' -benchtime 20x .
func BenchmarkCampaignSummary(b *testing.B) {
	n := 100_000
	if v := os.Getenv("PROMO_BENCH_SUMMARY_ROWS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			b.Fatalf("PROMO_BENCH_SUMMARY_ROWS=%q: want a positive count", v)
		}
	}
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			store := newStore(b)
			eng, err := promo.New(store)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = eng.Close() })
			p, err := eng.Projects().Create(ctx, project.Params{Name: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			c, err := eng.Campaigns().Create(ctx, p.ID, discountCampaign("summed", 0))
			if err != nil {
				b.Fatal(err)
			}
			at := promotype.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			for _, camp := range []string{c.ID, "camp_other"} {
				batch := make([]*redemption.Redemption, 0, 1000)
				for i := range n {
					r := &redemption.Redemption{ID: fmt.Sprintf("r_%s_%08d", camp, i), Object: redemption.ObjectRedemption, Date: at,
						Result: redemption.ResultSuccess, Status: redemption.StatusSucceeded, RelatedObjectType: redemption.RelatedVoucher,
						RelatedObjectID: "v_1", Order: &order.Order{Amount: 1000, TotalAppliedDiscountAmount: 100},
						Ledger: redemption.Ledger{ProjectID: p.ID, CampaignID: camp}}
					switch i % 10 {
					case 1:
						r.Result, r.Status, r.Order = redemption.ResultFailure, redemption.StatusFailed, nil
					case 2:
						r.Status = redemption.StatusRolledBack
					}
					if batch = append(batch, r); len(batch) == cap(batch) || i == n-1 {
						if err := store.InsertRedemptions(ctx, batch...); err != nil {
							b.Fatal(err)
						}
						batch = batch[:0]
					}
				}
			}
			want := int64(n - n/10)
			for b.Loop() {
				s, err := eng.Campaigns().Summary(ctx, p.ID, c.ID, campaign.SummaryParams{})
				if err != nil {
					b.Fatal(err)
				}
				if s.Redemptions != int64(n) || s.RedemptionsSucceeded != want || s.OrdersAmount != 1000*want {
					b.Fatalf("summary: %d redemptions, %d succeeded, orders %d; want %d, %d, %d", s.Redemptions, s.RedemptionsSucceeded, s.OrdersAmount, n, want, 1000*want)
				}
			}
		})
	}
}
