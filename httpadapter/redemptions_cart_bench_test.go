package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemCartHTTP is the redemption load of issue 32, as a user of
// the standalone server sends it: POST /v1/redemptions over loopback TCP
// with 32 clients, each request one voucher of PROMO_BENCH_CART_VOUCHERS
// (default 10,000) "PERF-…" codes (100 off the order, redemption.quantity
// limited), an order given only by its amount (3002) and two lines of
// products the catalog does not hold, no order or source id (a new order
// each time), and a customer by a source id never seen before (a new
// customer each time). It runs on the memory store and on PostgreSQL (when
// PROMO_TEST_POSTGRES_DSN is set), through the adapter as the server
// builds it by default (access log and metrics on: "server_defaults") and
// bare ("bare"), and reports the process's CPU per redemption (clients
// included) and the p50 and p99 latency. BenchmarkRedeemHTTP is the
// yardstick: same clients, a voucher of its own per client, a known
// customer, no items.
func BenchmarkRedeemCartHTTP(b *testing.B) {
	const clients = 32
	codes := 10_000
	if v, err := strconv.Atoi(os.Getenv("PROMO_BENCH_CART_VOUCHERS")); err == nil && v > 0 {
		codes = v
	}
	for _, st := range benchStores() {
		b.Run(st.name, func(b *testing.B) {
			eng, projectID := benchEngine(b, st.new(b))
			for i := range codes {
				code := fmt.Sprintf("PERF-%05d", i)
				in := voucher.Params{Code: &code}
				if err := json.Unmarshal([]byte(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1000000}}`), &in); err != nil {
					b.Fatal(err)
				}
				if _, err := eng.Vouchers().Create(context.Background(), projectID, in); err != nil {
					b.Fatal(err)
				}
			}
			for _, h := range []struct {
				name string
				opts func() []httpadapter.Option // a registry of its own per run
			}{
				{"server_defaults", func() []httpadapter.Option {
					return []httpadapter.Option{httpadapter.WithAccessLog(slog.New(slog.NewJSONHandler(io.Discard, nil))),
						httpadapter.WithMetrics(prometheus.NewRegistry())}
				}},
				{"bare", func() []httpadapter.Option { return nil }},
			} {
				b.Run(h.name, func(b *testing.B) {
					srv := newLoadServerFor(b, httpadapter.New(eng, h.opts()...), clients)
					run := time.Now().UnixNano() // customers new to every run
					cpu0 := cpuTime()
					var seq atomic.Int64
					lat := runClients(b, clients, func(int64) (time.Duration, error) {
						status, took, err := srv.postDrain("/v1/redemptions", cartRequest(run, seq.Add(1), codes))
						if err == nil && status != http.StatusOK {
							err = fmt.Errorf("status %d", status)
						}
						return took, err
					})
					reportCPU(b, cpuTime()-cpu0)
					reportLatency(b, lat)
				})
			}
		})
	}
}

// cartRequest is the body of issue 32's load for request seq of a run:
// a voucher spread over the codes, a customer unique to the run and
// request, an order of 3002 with two lines of unknown products.
func cartRequest(run, seq int64, codes int) string {
	return fmt.Sprintf(`{"customer":{"source_id":"perf-%d-rc-%d"},"redeemables":[{"object":"voucher","id":"PERF-%05d"}],`+
		`"order":{"amount":3002,"items":[{"product_id":"prod_0","quantity":1,"price":1000,"related_object":"product"},`+
		`{"product_id":"prod_1","quantity":2,"price":1001,"related_object":"product"}]}}`,
		run, seq, seq*7919%int64(codes))
}
