package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzCampaignBody: campaign create and update bodies never make a 5xx.
func FuzzCampaignBody(f *testing.F) {
	for _, s := range []string{springBody, `{}`, ``, `{"name":"x","campaign_type":"PROMOTION","promotion":{"tiers":[{}]}}`,
		`{"name":"x","vouchers_count":-1}`, `{"name":"x","vouchers_count":1e99}`, `{"name":"x","voucher":{"code_config":{"pattern":"####","charset":"\u0000"}}}`,
		`{"name":"x","voucher":{"discount":{"type":"UNIT","units":[{}]}}}`, `{"name":"x","validity_hours":{"daily":[{"start_time":"9:00"}]}}`,
		`{"name":"x","voucher":{"discount":{"type":"PERCENT","percent_off":"1e100000"}}}`, `{"type":"STANDALONE"}`,
		`{"unset_metadata_fields":["a",null]}`, `{"loyalty_tiers_expiration":[1]}`, `{"validity_timeframe":{"interval":"P","duration":"PT"}}`} {
		f.Add(s)
	}
	h := newHarness(f)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: springBody}, http.StatusOK)
	h.runActions()
	f.Fuzz(func(t *testing.T, body string) {
		fuzzRequest(t, h, req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: body})
		// A large vouchers_count is a valid request whose generation would
		// take the fuzzing's time: the decoding and checks are what is fuzzed.
		var count struct {
			N any `json:"vouchers_count"`
		}
		if json.Unmarshal([]byte(body), &count) == nil {
			if n, ok := count.N.(float64); ok && n > 1000 {
				return
			}
		}
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/campaigns", body: body})
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/vouchers", body: body})
		h.with(t).runActions()
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
