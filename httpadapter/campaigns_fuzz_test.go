package httpadapter_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
)

// fuzzLimits bound the vouchers one fuzz input may generate: a campaign
// body asking for millions of codes is refused by the same check that
// refuses it over the default limits, instead of generating them inside
// the input.
var fuzzLimits = promo.Limits{VouchersPerRequest: 10, PendingVouchersPerProject: 20, PendingGenerationsPerProject: 2}

// FuzzCampaignBody: campaign create and update bodies never make a 5xx.
// It runs through the adapter's handler (routing, the body's decoder and
// checks, the campaign services, the generation jobs) over a memory store
// kept small (freshHarness), with generation bounded by fuzzLimits, at
// over a thousand inputs a second (BENCHMARKS.md). Should minimizing a
// failing input stall, bound it:
// go test -run XXX -fuzz FuzzCampaignBody -fuzzminimizetime 30s ./httpadapter/
func FuzzCampaignBody(f *testing.F) {
	for _, s := range []string{springBody, `{}`, ``, `{"name":"x","campaign_type":"PROMOTION","promotion":{"tiers":[{}]}}`,
		`{"name":"x","vouchers_count":-1}`, `{"name":"x","vouchers_count":1e99}`, `{"name":"x","vouchers_count":5000000}`,
		`{"name":"x","voucher":{"code_config":{"pattern":"####","charset":"\u0000"}}}`,
		`{"name":"x","voucher":{"discount":{"type":"UNIT","units":[{}]}}}`, `{"name":"x","validity_hours":{"daily":[{"start_time":"9:00"}]}}`,
		`{"name":"x","voucher":{"discount":{"type":"PERCENT","percent_off":"1e100000"}}}`, `{"type":"STANDALONE"}`,
		`{"unset_metadata_fields":["a",null]}`, `{"loyalty_tiers_expiration":[1]}`, `{"validity_timeframe":{"interval":"P","duration":"PT"}}`} {
		f.Add(s)
	}
	build := func(t testing.TB) *harness {
		h := newHarnessWith(t, []promo.Option{promo.WithLimits(fuzzLimits)})
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: springBody}, http.StatusOK)
		h.runActions()
		return h
	}
	hs := &freshHarness{h: build(f), build: func(t *testing.T) *harness { return build(t) }}
	f.Fuzz(func(t *testing.T, body string) {
		h := hs.get(t)
		fuzzQuick(t, h, http.MethodPut, "/v1/campaigns/Spring%20Sale", body)
		fuzzQuick(t, h, http.MethodPost, "/v1/campaigns", body)
		fuzzQuick(t, h, http.MethodPost, "/v1/campaigns/Spring%20Sale/vouchers", body)
		// The jobs the requests queued, in chunks of up to fuzzLimits'
		// vouchers: one transaction each, not runActions' chunks of two.
		if _, err := h.engine.AsyncActions().RunPending(context.Background(), async.Config{ChunkSize: 20}); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzVoucherBody: voucher create, update and import bodies never make a
// 5xx.
func FuzzVoucherBody(f *testing.F) {
	for _, s := range []string{welcomeBody, `{}`, ``, `{"type":"GIFT_VOUCHER","gift":{"amount":-5}}`,
		`{"type":"LOYALTY_CARD","loyalty_card":{"points":1},"campaign":"Spring Sale"}`, `{"code":"","type":"DISCOUNT_VOUCHER"}`,
		`{"code_config":{"length":201}}`, `[{"code":"A"},{"code":"A"}]`, `[{}]`, `[null]`, `{"redemption":{"quantity":0}}`,
		`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"code":"\u0000"}`} {
		f.Add(s)
	}
	h := newHarness(f)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: springBody}, http.StatusOK)
	h.runActions()
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/FUZZ", body: welcomeBody}, http.StatusOK)
	f.Fuzz(func(t *testing.T, body string) {
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/vouchers", body: body})
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/vouchers/FUZZ-NEW", body: body})
		fuzzRequest(t, h, req{method: http.MethodPut, target: "/v1/vouchers/FUZZ", body: body})
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/import", body: body})
		h.with(t).runActions()
	})
}
