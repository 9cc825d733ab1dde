package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemHTTP is POST /v1/redemptions over loopback TCP with 32
// concurrent clients, each redeeming its own voucher (distinct rows: the
// figure is the path, not contention on one voucher), on the memory store
// and on PostgreSQL (when PROMO_TEST_POSTGRES_DSN is set). It reports the
// p50 and p99 latency besides ns/op.
func BenchmarkRedeemHTTP(b *testing.B) {
	const clients = 32
	for _, st := range benchStores() {
		b.Run(st.name, func(b *testing.B) {
			eng := redeemEngine(b, st.new(b), clients)
			srv := newLoadServer(b, eng, clients)
			cpu0 := cpuTime()
			lat := runClients(b, clients, func(n int64) (time.Duration, error) {
				status, took, err := srv.postDrain("/v1/redemptions", redeemRequest(n, clients))
				if err == nil && status != http.StatusOK {
					err = fmt.Errorf("status %d", status)
				}
				return took, err
			})
			reportCPU(b, cpuTime()-cpu0)
			reportLatency(b, lat)
		})
	}
}

// redeemEngine is an engine over store with the vouchers BenchmarkRedeemHTTP
// redeems: BENCH-00 … BENCH-<n-1>, 100 off each.
func redeemEngine(b *testing.B, store storage.Store, n int) *promo.Engine {
	b.Helper()
	eng, projectID := benchEngine(b, store)
	for i := range n {
		code := fmt.Sprintf("BENCH-%02d", i)
		in := voucher.Params{Code: &code}
		if err := json.Unmarshal([]byte(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`), &in); err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Vouchers().Create(context.Background(), projectID, in); err != nil {
			b.Fatal(err)
		}
	}
	return eng
}

// redeemRequest is the body client n (from 1) of clients posts: its own
// customer c<n> redeeming its own voucher.
func redeemRequest(n int64, clients int) string {
	return fmt.Sprintf(`{"customer":{"source_id":"c%d"},"redeemables":[{"object":"voucher","id":"BENCH-%02d"}],"order":{"amount":10000}}`,
		n, (n-1)%int64(clients))
}
