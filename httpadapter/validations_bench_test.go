package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
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
	for _, st := range benchStores() {
		for _, clients := range []int{32, 1} {
			b.Run(fmt.Sprintf("%s/clients=%d", st.name, clients), func(b *testing.B) {
				eng, body := seedValidationsHTTP(b, st.new(b))
				srv := newLoadServer(b, eng, clients)
				// gzip: the answer is compressed as for an SDK, but the
				// client, which shares the two cores, does not inflate it
				// (a client that asks explicitly gets the raw stream).
				post := func(gzip bool) (time.Duration, error) {
					status, raw, took, err := srv.post("/v1/validations", body, gzip)
					if err == nil && (status != http.StatusOK || (!gzip && !strings.Contains(string(raw), `"valid":true`))) {
						err = fmt.Errorf("status %d: %.300s", status, raw)
					}
					return took, err
				}
				if _, err := post(false); err != nil { // every redeemable applies
					b.Fatal(err)
				}
				cpu0 := cpuTime()
				lat := runClients(b, clients, func(int64) (time.Duration, error) { return post(true) })
				cpu := cpuTime() - cpu0
				if len(lat) == 0 {
					return
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
				reportLatency(b, lat)
				reportCPU(b, cpu)
			})
		}
	}
}

// seedValidationsHTTP creates a project with an app key, 5 products, a
// 10% code and a PROMOTION campaign with two tiers, and returns the engine
// and the validation body.
func seedValidationsHTTP(b *testing.B, store storage.Store) (*promo.Engine, string) {
	b.Helper()
	ctx := context.Background()
	eng, projectID := benchEngine(b, store)
	var lines []string
	for i := range 5 {
		src := fmt.Sprintf("sku-%d", i)
		if _, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{Name: promotype.Ptr(src), SourceID: promotype.Ptr(src),
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
	if _, err := eng.Vouchers().Create(ctx, projectID, vp); err != nil {
		b.Fatal(err)
	}
	camp, err := eng.Campaigns().Create(ctx, projectID, campaign.Params{Name: promotype.Ptr("Bench promotions"), CampaignType: promotype.Ptr(campaign.Promotion)})
	if err != nil {
		b.Fatal(err)
	}
	var tiers []string
	for i, action := range []string{`{"type":"AMOUNT","amount_off":100,"effect":"APPLY_TO_ITEMS"}`, `{"type":"AMOUNT","amount_off":500,"effect":"APPLY_TO_ORDER"}`} {
		var tp campaign.TierParams
		if err := json.Unmarshal([]byte(`{"name":"Tier `+fmt.Sprint(i)+`","action":{"discount":`+action+`}}`), &tp); err != nil {
			b.Fatal(err)
		}
		t, err := eng.PromotionTiers().Create(ctx, projectID, camp.ID, tp)
		if err != nil {
			b.Fatal(err)
		}
		tiers = append(tiers, t.ID)
	}
	body := `{"customer":{"source_id":"bench"},"redeemables":[{"object":"voucher","id":"BENCH10"},` +
		`{"object":"promotion_tier","id":"` + tiers[0] + `"},{"object":"promotion_tier","id":"` + tiers[1] + `"}],` +
		`"order":{"items":[` + strings.Join(lines, ",") + `]}}`
	return eng, body
}
