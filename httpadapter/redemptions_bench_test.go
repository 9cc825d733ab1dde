package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

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
			ctx := context.Background()
			eng, projectID := benchEngine(b, st.new(b))
			for i := range clients {
				code := fmt.Sprintf("BENCH-%02d", i)
				in := voucher.Params{Code: &code}
				if err := json.Unmarshal([]byte(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`), &in); err != nil {
					b.Fatal(err)
				}
				if _, err := eng.Vouchers().Create(ctx, projectID, in); err != nil {
					b.Fatal(err)
				}
			}
			srv := newLoadServer(b, eng, clients)
			cpu0 := cpuTime()
			lat := runClients(b, clients, func(n int64) (time.Duration, error) {
				body := fmt.Sprintf(`{"customer":{"source_id":"c%d"},"redeemables":[{"object":"voucher","id":"BENCH-%02d"}],"order":{"amount":10000}}`,
					n, (n-1)%clients)
				status, took, err := srv.postDrain("/v1/redemptions", body)
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
