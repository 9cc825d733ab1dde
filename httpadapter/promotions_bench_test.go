package httpadapter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/telemetry"
)

// seedValidation builds, deterministically, a cart of items products and a
// PROMOTION campaign of tiers tiers, each with one validation rule of two
// rules — customer.metadata segment is vip, and the cart holds the tier's
// product — and 10% off that product's line; the first matching tiers name
// a product of the cart. It returns the validation request body.
func seedValidation(b *testing.B, h *harness, items, tiers, matching int) []byte {
	b.Helper()
	ctx := context.Background()
	products := make([]string, max(items, tiers))
	for i := range products {
		p, err := h.engine.Catalog().CreateProduct(ctx, h.project.ID, catalog.ProductParams{
			Name: promotype.Ptr(fmt.Sprintf("Product %d", i)), Price: promotype.Ptr(int64(1000 + i))})
		if err != nil {
			b.Fatal(err)
		}
		products[i] = p.ID
	}
	camp, err := h.engine.Campaigns().Create(ctx, h.project.ID, campaign.Params{Name: promotype.Ptr("Bench promotions"),
		CampaignType: promotype.Ptr(campaign.Promotion)})
	if err != nil {
		b.Fatal(err)
	}
	for i := range tiers {
		product := products[items+i%max(len(products)-items, 1)] // not in the cart
		if i < matching {
			product = products[i%items]
		}
		var rp rule.Params
		if err := json.Unmarshal([]byte(`{"name":"Bench rule `+fmt.Sprint(i)+`","rules":{"logic":"1 and 2",`+
			`"1":{"name":"customer.metadata","property":"segment","conditions":{"$is":["vip"]}},`+
			`"2":{"name":"order.items.any","conditions":{"$is":[{"id":"`+product+`","object":"product"}]},`+
			`"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[1]}}}}},`+
			`"applicable_to":{"included":[{"object":"product","id":"`+product+`"}]}}`), &rp); err != nil {
			b.Fatal(err)
		}
		vr, err := h.engine.ValidationRules().Create(ctx, h.project.ID, rp)
		if err != nil {
			b.Fatal(err)
		}
		var tp campaign.TierParams
		if err := json.Unmarshal([]byte(`{"name":"Tier `+fmt.Sprint(i)+`","validation_rules":["`+vr.ID+`"],`+
			`"action":{"discount":{"type":"PERCENT","percent_off":10,"effect":"APPLY_TO_ITEMS"}}}`), &tp); err != nil {
			b.Fatal(err)
		}
		if _, err := h.engine.PromotionTiers().Create(ctx, h.project.ID, camp.ID, tp); err != nil {
			b.Fatal(err)
		}
	}
	var lines []string
	for i := range items {
		lines = append(lines, fmt.Sprintf(`{"product_id":%q,"quantity":%d}`, products[i], 1+i%3))
	}
	return []byte(`{"customer":{"source_id":"bench","metadata":{"segment":"vip","country":"PL"}},` +
		`"order":{"items":[` + strings.Join(lines, ",") + `]}}`)
}

// validationCases are the HTTP targets: a small cart against a few
// tiers (throughput), and 50 items × 200 tiers with 40 matching (latency).
var validationCases = []struct{ items, tiers, matching int }{{5, 10, 10}, {50, 200, 40}}

// BenchmarkValidatePromotionsHandler is POST /v1/promotions/validation
// through the handler on the memory store from every core at once
// (b.RunParallel); it reports validations per second.
//
// Each case runs twice, interleaved: telemetry=off (no option) and
// telemetry=metrics (WithMetrics on a registry and the engine's step
// metrics through telemetry.Steps, tracing off), to measure their cost.
func BenchmarkValidatePromotionsHandler(b *testing.B) {
	for _, c := range validationCases {
		for _, tel := range []string{"off", "metrics"} {
			b.Run(fmt.Sprintf("items=%d/tiers=%d/matching=%d/telemetry=%s", c.items, c.tiers, c.matching, tel), func(b *testing.B) {
				var h *harness
				if tel == "metrics" {
					reg := prometheus.NewRegistry()
					steps, err := telemetry.Steps(reg, nil)
					if err != nil {
						b.Fatal(err)
					}
					h = newHarnessWith(b, []promo.Option{promo.WithStep(steps)}, httpadapter.WithMetrics(reg))
				} else {
					h = newHarness(b)
				}
				body := seedValidation(b, h, c.items, c.tiers, c.matching)
				check := h.do(req{method: http.MethodPost, target: "/v1/promotions/validation", body: string(body)})
				var res struct{ Promotions []json.RawMessage }
				if err := json.Unmarshal(check.Body.Bytes(), &res); err != nil || len(res.Promotions) != c.matching {
					b.Fatalf("status %d, %d valid tiers, want %d: %v", check.Code, len(res.Promotions), c.matching, err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					rd := bytes.NewReader(body)
					r := httptest.NewRequest(http.MethodPost, "/v1/promotions/validation", nil)
					r.Header.Set("X-App-Id", appID)
					r.Header.Set("X-App-Token", appToken)
					r.Header.Set("Content-Type", "application/json")
					w := &discardWriter{header: http.Header{}}
					for pb.Next() {
						rd.Reset(body)
						r.Body = io.NopCloser(rd)
						w.reset()
						h.handler.ServeHTTP(w, r)
						if w.status != http.StatusOK {
							b.Errorf("status %d", w.status)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
			})
		}
	}
}

// BenchmarkValidatePromotionsServer is the same over loopback TCP with
// net/http's client and server, one request at a time; it reports the
// latency percentiles of the requests.
func BenchmarkValidatePromotionsServer(b *testing.B) {
	for _, c := range validationCases {
		b.Run(fmt.Sprintf("items=%d/tiers=%d/matching=%d", c.items, c.tiers, c.matching), func(b *testing.B) {
			h := newHarness(b)
			body := seedValidation(b, h, c.items, c.tiers, c.matching)
			srv := httptest.NewServer(h.handler)
			defer srv.Close()
			client := srv.Client()
			var lat []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				start := time.Now()
				postOK(b, client, srv.URL+"/v1/promotions/validation", body)
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
