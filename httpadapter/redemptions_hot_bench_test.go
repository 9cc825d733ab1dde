package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemHotVoucher is POST /v1/redemptions over loopback TCP with
// 32 concurrent clients all redeeming ONE voucher (quantity 100,000): the
// figure is contention on one row. It reports redemptions/s and the p50
// and p99 latency, and after the run checks that the voucher's redeemed
// quantity, the successes the clients saw and the ledger's SUCCESS rows
// are the same number. PostgreSQL runs when PROMO_TEST_POSTGRES_DSN is set.
// "combined" is the engine as configured by default (concurrent spends of
// the voucher combined into one transaction), "alone" the same with
// promo.WithoutSpendCombining.
func BenchmarkRedeemHotVoucher(b *testing.B) {
	stores := map[string]func(testing.TB) storage.Store{"memory": func(testing.TB) storage.Store { return memory.New() }}
	if bunstoretest.DSN() != "" {
		stores["postgres"] = bunstoretest.New
	}
	for _, mode := range []string{"combined", "alone"} {
		for name, newStore := range stores {
			benchHotVoucher(b, name+"/"+mode, newStore, mode == "alone")
		}
	}
}

// benchHotVoucher is one run of BenchmarkRedeemHotVoucher; alone turns
// spend combining off (promo.WithoutSpendCombining).
func benchHotVoucher(b *testing.B, name string, newStore func(testing.TB) storage.Store, alone bool) {
	const clients, quantity = 32, 100_000
	b.Run(name, func(b *testing.B) {
		if b.N > quantity {
			b.Skipf("b.N %d is over the voucher's quantity %d: use a shorter -benchtime", b.N, quantity)
		}
		ctx := context.Background()
		var opts []promo.Option
		if alone {
			opts = append(opts, promo.WithoutSpendCombining())
		}
		eng, err := promo.New(newStore(b), opts...)
		if err != nil {
			b.Fatal(err)
		}
		p, err := eng.Projects().Create(ctx, project.Params{Name: "Bench"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{ID: appID, Secret: appToken}); err != nil {
			b.Fatal(err)
		}
		code := "HOT"
		in := voucher.Params{Code: &code}
		body := fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":%d}}`, quantity)
		if err := json.Unmarshal([]byte(body), &in); err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Vouchers().Create(ctx, p.ID, in); err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(httpadapter.New(eng))
		defer srv.Close()
		client := srv.Client()
		client.Transport.(*http.Transport).MaxIdleConnsPerHost = clients
		var next, successes atomic.Int64
		var mu sync.Mutex
		latencies := make([]time.Duration, 0, b.N)
		b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
		b.ResetTimer()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			n := next.Add(1)
			body := fmt.Sprintf(`{"customer":{"source_id":"c%d"},"redeemables":[{"object":"voucher","id":"HOT"}],"order":{"amount":10000}}`, n)
			var mine []time.Duration
			defer func() {
				mu.Lock()
				latencies = append(latencies, mine...)
				mu.Unlock()
			}()
			for pb.Next() {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/redemptions", strings.NewReader(body))
				req.Header.Set("X-App-Id", appID)
				req.Header.Set("X-App-Token", appToken)
				req.Header.Set("Content-Type", "application/json")
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				mine = append(mine, time.Since(t0))
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				successes.Add(1)
			}
		})
		elapsed := time.Since(start)
		b.StopTimer()
		slices.Sort(latencies)
		pct := func(p float64) float64 {
			if len(latencies) == 0 {
				return 0
			}
			return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
		}
		b.ReportMetric(float64(successes.Load())/elapsed.Seconds(), "redemptions/s")
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.99), "p99-ms")

		v, err := eng.Vouchers().Get(ctx, p.ID, code)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := eng.Redemptions().List(ctx, p.ID, redemption.ListParams{ListParams: promotype.ListParams{Limit: 1}, Result: []string{redemption.ResultSuccess}})
		if err != nil {
			b.Fatal(err)
		}
		if got := []int64{v.RedeemedQuantity, successes.Load(), int64(rows.Total)}; got[0] != got[1] || got[1] != got[2] {
			b.Errorf("redeemed_quantity %d, successes %d, ledger SUCCESS rows %d: want all equal", got[0], got[1], got[2])
		}
	})
}
