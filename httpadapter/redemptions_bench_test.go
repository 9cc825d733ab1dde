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
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemHTTP is POST /v1/redemptions over loopback TCP with 32
// concurrent clients, each redeeming its own voucher (distinct rows: the
// figure is the path, not contention on one voucher), on the memory store
// and on PostgreSQL (when PROMO_TEST_POSTGRES_DSN is set). It reports the
// p50 and p99 latency besides ns/op.
func BenchmarkRedeemHTTP(b *testing.B) {
	stores := map[string]func(testing.TB) storage.Store{"memory": func(testing.TB) storage.Store { return memory.New() }}
	if bunstoretest.DSN() != "" {
		stores["postgres"] = bunstoretest.New
	}
	for name, newStore := range stores {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			eng, err := promo.New(newStore(b))
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
			const clients = 32
			for i := range clients {
				code := fmt.Sprintf("BENCH-%02d", i)
				in := voucher.Params{Code: &code}
				if err := json.Unmarshal([]byte(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`), &in); err != nil {
					b.Fatal(err)
				}
				if _, err := eng.Vouchers().Create(ctx, p.ID, in); err != nil {
					b.Fatal(err)
				}
			}
			srv := httptest.NewServer(httpadapter.New(eng))
			defer srv.Close()
			client := srv.Client()
			client.Transport.(*http.Transport).MaxIdleConnsPerHost = clients
			var next atomic.Int64
			var mu sync.Mutex
			latencies := make([]time.Duration, 0, b.N)
			b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				n := next.Add(1)
				body := fmt.Sprintf(`{"customer":{"source_id":"c%d"},"redeemables":[{"object":"voucher","id":"BENCH-%02d"}],"order":{"amount":10000}}`,
					n, (n-1)%clients)
				var mine []time.Duration
				defer func() {
					mu.Lock()
					latencies = append(latencies, mine...)
					mu.Unlock()
				}()
				for pb.Next() {
					t0 := time.Now()
					req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/redemptions", strings.NewReader(body))
					req.Header.Set("X-App-Id", appID)
					req.Header.Set("X-App-Token", appToken)
					req.Header.Set("Content-Type", "application/json")
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
				}
			})
			b.StopTimer()
			slices.Sort(latencies)
			if len(latencies) > 0 {
				b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(latencies[min(len(latencies)-1, len(latencies)*99/100)].Microseconds())/1000, "p99-ms")
			}
		})
	}
}
