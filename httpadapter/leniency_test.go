package httpadapter_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLeniency checks, through the HTTP API, each inference the hosted
// service makes instead of refusing (docs/behaviour.md): the field
// named by pick in the answer of the last request.
func TestLeniency(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gifts","campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":100}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Dated","expiration_date":"2027-01-01T00:00:00Z","start_date":"2026-01-01T00:00:00Z",` +
		`"description":"d","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"tee","price":100}`}, http.StatusOK)
	h.runActions()
	tests := []struct {
		name string
		req  req
		pick []string
		want any
	}{
		{"campaign_type from voucher.type LOYALTY_CARD", req{method: http.MethodPost, target: "/v1/campaigns",
			body: `{"name":"Cards","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":10}}}`}, []string{"campaign_type"}, "LOYALTY_PROGRAM"},
		{"campaign_type from voucher.type GIFT_VOUCHER", req{method: http.MethodPost, target: "/v1/campaigns",
			body: `{"name":"More gifts","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":100}}}`}, []string{"campaign_type"}, "GIFT_VOUCHERS"},
		{"loyalty program type", req{method: http.MethodGet, target: "/v1/campaigns/Cards"}, []string{"type"}, "STATIC"},
		{"loyalty program status", req{method: http.MethodGet, target: "/v1/campaigns/Cards"}, []string{"creation_status"}, "DONE"},
		{"loyalty program metadata schema", req{method: http.MethodGet, target: "/v1/campaigns/Cards"}, []string{"use_voucher_metadata_schema"}, true},
		{"voucher type from gift", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"code":"GIFT-1","gift":{"amount":500}}`}, []string{"type"}, "GIFT_VOUCHER"},
		{"reward campaign type from the campaign", req{method: http.MethodPost, target: "/v1/rewards",
			body: `{"name":"Gift top-up","parameters":{"campaign":{"id":"Gifts","balance":1000}}}`}, []string{"parameters", "campaign", "type"}, "GIFT_VOUCHERS"},
		{"rules without logic are joined with and", req{method: http.MethodPost, target: "/v1/validation-rules",
			body: `{"name":"Two","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[100]}},"2":{"name":"order.amount","conditions":{"$less_than":[1000]}}}}`},
			[]string{"rules", "logic"}, "1 and 2"},
		{"null clears expiration_date", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"expiration_date":null}`}, []string{"expiration_date"}, nil},
		{"absent leaves start_date", req{method: http.MethodGet, target: "/v1/campaigns/Dated"}, []string{"start_date"}, "2026-01-01T00:00:00.000Z"},
		{"null clears description", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"description":null,"metadata":{"a":1}}`}, []string{"description"}, nil},
		{"category set by name", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"category":"vip"}`}, []string{"category"}, "vip"},
		{"null category clears the category", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"category":null}`}, []string{"category_id"}, nil},
		{"category set again", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"category":"vip"}`}, []string{"category"}, "vip"},
		{"null category_id clears the category", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"category_id":null}`}, []string{"category"}, nil},
		{"categories empty after the clear", req{method: http.MethodGet, target: "/v1/campaigns/Dated"}, []string{"categories"}, []any{}},
		{"order item of an unknown product", req{method: http.MethodPost, target: "/v1/orders",
			body: `{"items":[{"product_id":"prod_elsewhere","quantity":2,"price":300}]}`}, []string{"amount"}, float64(600)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := h.with(t)
			h.runActions()
			var got any = h.mustDo(tc.req, http.StatusOK)
			for _, k := range tc.pick {
				got = got.(map[string]any)[k]
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s %s: %v (-want +got):\n%s", tc.req.method, tc.req.target, tc.pick, diff)
			}
		})
	}
	// Query booleans take 1 and 0.
	h.mustDo(req{method: http.MethodDelete, target: "/v1/products/tee?force=1"}, http.StatusNoContent)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"tee","price":100}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodDelete, target: "/v1/products/tee?force=0"}, http.StatusNoContent)
}

// TestLeniencyRefusals: what stays refused, and changes nothing.
func TestLeniencyRefusals(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promo","campaign_type":"PROMOTION"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Dated","start_date":"2026-01-01T00:00:00Z",` +
		`"validity_timeframe":{"interval":"P2D","duration":"P1D"},"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`}, http.StatusOK)
	h.runActions()
	before := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Dated"}, http.StatusOK)
	h.run(t, "leniency", []step{
		{"reward_of_promotion_campaign", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"campaign":{"id":"Promo"}}}`}, 400},
		{"reward_of_unknown_campaign", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"campaign":{"id":"camp_nope"}}}`}, 404},
		{"voucher_without_type_or_object", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"code":"X-1"}`}, 400},
		{"clear_start_date_needed_by_timeframe", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"start_date":null,"description":"changed"}`}, 400},
		{"bad_boolean", req{method: http.MethodDelete, target: "/v1/campaigns/Dated?force=yes"}, 400},
	})
	if diff := cmp.Diff(before, h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Dated"}, http.StatusOK)); diff != "" {
		t.Errorf("a refused update changed the campaign (-want +got):\n%s", diff)
	}
	if got := h.mustDo(req{method: http.MethodGet, target: "/v1/rewards"}, http.StatusOK)["total"]; got != float64(0) {
		t.Errorf("refused rewards were stored: total %v", got)
	}
}

// TestCampaignTypeDefaults: what each campaign type answers on create when
// the body leaves the settings out, as the hosted service's answers show
// them (docs/behaviour.md records where they differ from the OpenAPI's
// create examples).
func TestCampaignTypeDefaults(t *testing.T) {
	tests := []struct {
		body string
		want map[string]any
	}{
		{`{"name":"C","voucher":{"discount":{"type":"AMOUNT","amount_off":100}}}`,
			map[string]any{"campaign_type": "DISCOUNT_COUPONS", "type": "AUTO_UPDATE", "creation_status": "DONE", "use_voucher_metadata_schema": true, "join_once": false, "auto_join": false, "vouchers_count": 0.0}},
		{`{"name":"C","campaign_type":"GIFT_VOUCHERS","voucher":{"gift":{"amount":100}}}`,
			map[string]any{"campaign_type": "GIFT_VOUCHERS", "type": "AUTO_UPDATE", "creation_status": "DONE", "use_voucher_metadata_schema": true, "join_once": false, "auto_join": false, "vouchers_count": 0.0}},
		{`{"name":"C","campaign_type":"LOYALTY_PROGRAM","voucher":{"loyalty_card":{"points":1}}}`,
			map[string]any{"campaign_type": "LOYALTY_PROGRAM", "type": "STATIC", "creation_status": "DONE", "use_voucher_metadata_schema": true, "join_once": true, "auto_join": false, "vouchers_count": 0.0}},
		{`{"name":"C","campaign_type":"REFERRAL_PROGRAM","voucher":{"discount":{"type":"AMOUNT","amount_off":100}}}`,
			map[string]any{"campaign_type": "REFERRAL_PROGRAM", "type": "AUTO_UPDATE", "creation_status": "DONE", "use_voucher_metadata_schema": true, "join_once": false, "auto_join": false, "vouchers_count": 0.0}},
		{`{"name":"C","campaign_type":"PROMOTION"}`,
			map[string]any{"campaign_type": "PROMOTION", "type": "STATIC", "creation_status": "DONE", "use_voucher_metadata_schema": false, "join_once": false, "auto_join": false, "vouchers_count": nil}},
	}
	for _, tc := range tests {
		t.Run(tc.want["campaign_type"].(string), func(t *testing.T) {
			got := newHarness(t).mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: tc.body}, http.StatusOK)
			picked := map[string]any{}
			for k := range tc.want {
				picked[k] = got[k]
			}
			if diff := cmp.Diff(tc.want, picked); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
