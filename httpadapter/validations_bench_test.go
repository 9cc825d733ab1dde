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
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkValidationsHTTP is POST /v1/validations over loopback TCP
// (net/http client and server): a 5-line cart of catalog products with 3
// redeemables — a 10% code and two promotion tiers (an item discount and
// an order amount) — all applicable, on the memory store and on
// PostgreSQL (when PROMO_TEST_POSTGRES_DSN is set). clients=32 measures
// throughput (validations/s), clients=1 the latency of one request at a
// time (p50 and p99 over the run, in ms). cpu-µs/op is the process's CPU
// per validation (client and server), which the machine's other load
// distorts far less than wall time.
func BenchmarkValidationsHTTP(b *testing.B) {
	stores := []struct {
		name string
		new  func(testing.TB) storage.Store
	}{{"memory", func(testing.TB) storage.Store { return memory.New() }}}
	if bunstoretest.DSN() != "" {
		stores = append(stores, struct {
			name string
			new  func(testing.TB) storage.Store
		}{"postgres", bunstoretest.New})
	}
	for _, st := range stores {
		for _, clients := range []int{32, 1} {
			b.Run(fmt.Sprintf("%s/clients=%d", st.name, clients), func(b *testing.B) {
				srv, body := seedValidationsHTTP(b, st.new(b))
				client := srv.Client()
				client.Transport.(*http.Transport).MaxIdleConnsPerHost = clients
				// gzip: the answer is compressed as for an SDK, but the
				// client, which shares the two cores, does not inflate it
				// (a client that asks explicitly gets the raw stream).
				post := func(gzip bool) (time.Duration, error) {
					req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/validations", strings.NewReader(body))
					req.Header.Set("X-App-Id", appID)
					req.Header.Set("X-App-Token", appToken)
					req.Header.Set("Content-Type", "application/json")
					if gzip {
						req.Header.Set("Accept-Encoding", "gzip")
					}
					start := time.Now()
					resp, err := client.Do(req)
					if err != nil {
						return 0, err
					}
					raw, err := io.ReadAll(resp.Body)
					_ = resp.Body.Close()
					took := time.Since(start)
					if err != nil {
						return 0, err
					}
					if resp.StatusCode != http.StatusOK || (!gzip && !strings.Contains(string(raw), `"valid":true`)) {
						return 0, fmt.Errorf("status %d: %.300s", resp.StatusCode, raw)
					}
					return took, nil
				}
				if _, err := post(false); err != nil { // every redeemable applies
					b.Fatal(err)
				}
				var mu sync.Mutex
				var lat []time.Duration
				b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
				b.ResetTimer()
				cpu0 := cpuTime()
				run := func(pb *testing.PB) {
					var mine []time.Duration
					for pb.Next() {
						took, err := post(true)
						if err != nil {
							b.Error(err)
							return
						}
						mine = append(mine, took)
					}
					mu.Lock()
					lat = append(lat, mine...)
					mu.Unlock()
				}
				if clients == 1 {
					// One client: requests one after another.
					var mine []time.Duration
					for b.Loop() {
						took, err := post(true)
						if err != nil {
							b.Fatal(err)
						}
						mine = append(mine, took)
					}
					lat = mine
				} else {
					b.RunParallel(run)
				}
				b.StopTimer()
				cpu := cpuTime() - cpu0
				if len(lat) == 0 {
					return
				}
				slices.Sort(lat)
				ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond) }
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
				b.ReportMetric(ms(0.50), "p50-ms")
				b.ReportMetric(ms(0.99), "p99-ms")
				// CPU of client and server together (one process) per
				// validation: 2 cores / this is the ceiling on a quiet machine.
				b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
			})
		}
	}
}

// seedValidationsHTTP creates a project with an app key, 5 products, a
// 10% code and a PROMOTION campaign with two tiers, and returns a loopback
// server over it and the validation body.
func seedValidationsHTTP(b *testing.B, store storage.Store) (*httptest.Server, string) {
	b.Helper()
	ctx := context.Background()
	eng, err := promo.New(store)
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
	var lines []string
	for i := range 5 {
		src := fmt.Sprintf("sku-%d", i)
		if _, err := eng.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{Name: promotype.Ptr(src), SourceID: promotype.Ptr(src),
			Price: promotype.Ptr(int64(1500 + 250*i))}); err != nil {
			b.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf(`{"source_id":%q,"related_object":"product","quantity":%d}`, src, 1+i%2))
	}
	code := "BENCH10"
	vp := voucher.Params{Code: &code}
	if err := json.Unmarshal([]byte(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10}}`), &vp); err != nil {
		b.Fatal(err)
	}
	if _, err := eng.Vouchers().Create(ctx, p.ID, vp); err != nil {
		b.Fatal(err)
	}
	camp, err := eng.Campaigns().Create(ctx, p.ID, campaign.Params{Name: promotype.Ptr("Bench promotions"), CampaignType: promotype.Ptr(campaign.Promotion)})
	if err != nil {
		b.Fatal(err)
	}
	var tiers []string
	for i, action := range []string{`{"type":"AMOUNT","amount_off":100,"effect":"APPLY_TO_ITEMS"}`, `{"type":"AMOUNT","amount_off":500,"effect":"APPLY_TO_ORDER"}`} {
		var tp campaign.TierParams
		if err := json.Unmarshal([]byte(`{"name":"Tier `+fmt.Sprint(i)+`","action":{"discount":`+action+`}}`), &tp); err != nil {
			b.Fatal(err)
		}
		t, err := eng.PromotionTiers().Create(ctx, p.ID, camp.ID, tp)
		if err != nil {
			b.Fatal(err)
		}
		tiers = append(tiers, t.ID)
	}
	srv := httptest.NewServer(httpadapter.New(eng))
	b.Cleanup(srv.Close)
	body := `{"customer":{"source_id":"bench"},"redeemables":[{"object":"voucher","id":"BENCH10"},` +
		`{"object":"promotion_tier","id":"` + tiers[0] + `"},{"object":"promotion_tier","id":"` + tiers[1] + `"}],` +
		`"order":{"items":[` + strings.Join(lines, ",") + `]}}`
	return srv, body
}
