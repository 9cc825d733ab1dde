package promo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkExpireBucketsPostgres measures the expiry job on PostgreSQL:
// PROMO_BENCH_BUCKETS due buckets (default 100,000) of one point each, ten
// per card, expired by ExpireDue until none is left. The seed (cards
// copied from one made through the API, buckets inserted by SQL) is not
// timed. It reports buckets expired per second and the peak live heap
// (the heap marked live by the last GC, sampled every 50 ms) while
// expiring, which stays flat: the job holds one batch at a time.
func BenchmarkExpireBucketsPostgres(b *testing.B) {
	n := envInt("PROMO_BENCH_BUCKETS", 100_000)
	const perCard = 10
	bctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	clock := promotype.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
	db, eng, p, club, card := benchMember(b, bctx, clock, `{"name":"Club","type":"AUTO_UPDATE","voucher":{"type":"LOYALTY_CARD",`+
		`"loyalty_card":{"points":0,"expiration_rules":{"period_type":"MONTH","period_value":1}}}}`, 1)
	b.ReportAllocs()
	for round := 0; b.Loop(); round++ {
		b.StopTimer()
		cards := n / perCard
		seed := []string{
			`DELETE FROM promo_loyalty_buckets`,
			fmt.Sprintf(`INSERT INTO promo_vouchers (project_id, id, code, campaign_id, category_id, type, active, is_referral_code, holder_id,
				referrer_id, start_date, expiration_date, redemption_quantity, redeemed_quantity, publish_count, data, metadata, created_at, updated_at)
			SELECT project_id, id || '-%[1]d-' || g, code || '-%[1]d-' || g, campaign_id, category_id, type, active, is_referral_code, holder_id,
				referrer_id, start_date, expiration_date, redemption_quantity, redeemed_quantity, publish_count,
				jsonb_set(data, '{loyalty_card}', '{"points":%[2]d,"balance":%[2]d}'), metadata, created_at, updated_at
			FROM promo_vouchers, generate_series(1, %[3]d) AS g WHERE id = '%[4]s'`, round, perCard, cards, card.ID),
			fmt.Sprintf(`INSERT INTO promo_loyalty_buckets (project_id, id, voucher_id, campaign_id, points, left_points, status, expires_on, due, created_at, updated_at)
			SELECT '%[1]s', 'lopb_%[2]d_' || g, '%[3]s-%[2]d-' || (g %% %[4]d + 1), '%[5]s', 1, 1, 'ACTIVE', '2026-02-05',
				'2026-02-06T00:00:00Z', '2026-01-05T12:00:00Z', '2026-01-05T12:00:00Z'
			FROM generate_series(1, %[6]d) AS g`, p.ID, round, card.ID, cards, club.ID, n),
			`ANALYZE promo_loyalty_buckets`,
		}
		for _, q := range seed {
			if _, err := db.DB.ExecContext(bctx, q); err != nil { // not through Bun: the store puts a deadline on its statements
				b.Fatal(err)
			}
		}
		clock.Set(time.Date(2026, 2, 6, 0, 0, 0, 0, time.UTC))
		runtime.GC()
		var peak atomic.Uint64
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for {
				metrics.Read(live)
				if v := live[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
		start := time.Now()
		b.StartTimer()
		expired := 0
		for {
			k, err := eng.Loyalties().ExpireDue(bctx, p.ID, n)
			if err != nil {
				b.Fatal(err)
			}
			if k == 0 {
				break
			}
			expired += k
		}
		b.StopTimer()
		close(stop)
		<-done
		if expired != n+1 && expired != n { // the API-made card's own bucket is due too (first round)
			b.Fatalf("expired %d buckets, want %d", expired, n)
		}
		b.ReportMetric(float64(expired)/time.Since(start).Seconds(), "buckets/s")
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-live-heap-MB")
		clock.Set(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
		b.StartTimer()
	}
}

// benchMember is the seed of the loyalty benchmarks on PostgreSQL: a
// migrated schema of its own, an engine (on clock when not nil), a
// project, a program made from its JSON body, and one member holding
// points, from which the benchmarks copy their cards by SQL.
func benchMember(b *testing.B, ctx context.Context, clock promotype.Clock, program string, points int64) (*bun.DB, *promo.Engine, *project.Project, *campaign.Campaign, *voucher.Voucher) {
	b.Helper()
	db := bunstoretest.NewDB(b)
	if err := bunstore.Migrate(ctx, db); err != nil {
		b.Fatal(err)
	}
	var opts []promo.Option
	if clock != nil {
		opts = append(opts, promo.WithClock(clock))
	}
	eng, err := promo.New(bunstore.New(db), opts...)
	if err != nil {
		b.Fatal(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "Shop"})
	if err != nil {
		b.Fatal(err)
	}
	var params campaign.Params
	if err := json.Unmarshal([]byte(program), &params); err != nil {
		b.Fatal(err)
	}
	club, err := eng.Loyalties().CreateProgram(ctx, p.ID, params)
	if err != nil {
		b.Fatal(err)
	}
	card, err := eng.Loyalties().AddMember(ctx, p.ID, club.ID, loyalty.MemberParams{
		Customer: loyalty.MemberCustomer{Params: customer.Params{SourceID: promo.Ptr("ann")}}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := eng.Loyalties().AddBalance(ctx, p.ID, club.ID, card.Code, loyalty.BalanceParams{Points: loyalty.Int(points)}); err != nil {
		b.Fatal(err)
	}
	return db, eng, p, club, card
}

// envInt is the positive integer of environment variable name, else def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
