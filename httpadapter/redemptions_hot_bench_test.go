package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
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
	for _, mode := range []string{"combined", "alone"} {
		for _, st := range benchStores() {
			benchHotVoucher(b, st.name+"/"+mode, st.new, mode == "alone")
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
		eng, projectID := benchEngine(b, newStore(b), opts...)
		code := "HOT"
		in := voucher.Params{Code: &code}
		body := fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":%d}}`, quantity)
		if err := json.Unmarshal([]byte(body), &in); err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Vouchers().Create(ctx, projectID, in); err != nil {
			b.Fatal(err)
		}
		srv := newLoadServer(b, eng, clients)
		var successes atomic.Int64
		start := time.Now()
		lat := runClients(b, clients, func(n int64) (time.Duration, error) {
			body := fmt.Sprintf(`{"customer":{"source_id":"c%d"},"redeemables":[{"object":"voucher","id":"HOT"}],"order":{"amount":10000}}`, n)
			status, took, err := srv.postDrain("/v1/redemptions", body)
			if err == nil && status != http.StatusOK {
				err = fmt.Errorf("status %d", status)
			}
			if err == nil {
				successes.Add(1)
			}
			return took, err
		})
		elapsed := time.Since(start)
		b.ReportMetric(float64(successes.Load())/elapsed.Seconds(), "redemptions/s")
		reportLatency(b, lat)

		v, err := eng.Vouchers().Get(ctx, projectID, code)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := eng.Redemptions().List(ctx, projectID, redemption.ListParams{ListParams: promotype.ListParams{Limit: 1}, Result: []string{redemption.ResultSuccess}})
		if err != nil {
			b.Fatal(err)
		}
		if got := []int64{v.RedeemedQuantity, successes.Load(), int64(rows.Total)}; got[0] != got[1] || got[1] != got[2] {
			b.Errorf("redeemed_quantity %d, successes %d, ledger SUCCESS rows %d: want all equal", got[0], got[1], got[2])
		}
	})
}
