package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzValidatePromotions: POST /v1/promotions/validation never makes a
// 5xx, and every answer it prices is valid JSON whose orders add up
// (total_amount = amount − total_discount_amount ≥ 0) whatever the cart.
func FuzzValidatePromotions(f *testing.F) {
	for _, s := range []string{`{"order":{"items":[{"source_id":"fuzz","related_object":"product","quantity":2},{"price":1500}]}}`,
		`{"customer":{"source_id":"a","metadata":{"segment":"vip"}},"order":{"amount":100}}`, `{}`, ``, `[`,
		`{"order":{"items":[{"price":9007199254740991,"quantity":9007199254740991}]}}`, `{"order":{"id":"ord_missing"}}`,
		`{"order":{"items":[{"price":-1}]},"metadata":{"a":"\u0000\ud800<&>"}}`, `{"options":{"expand":["category",null]}}`,
		`{"customer":{"id":"cust_missing"}}`, `{"order":{"items":[{"source_id":"fuzz","related_object":"product","quantity":"3","metadata":{"x":[1,{"y":null}]}}]}}`} {
		f.Add(s)
	}
	h := newHarness(f)
	prod := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"fuzz","name":"Fuzz <&>","price":700}`}, http.StatusOK)["id"].(string)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Fuzz promos","campaign_type":"PROMOTION","promotion":{"tiers":[` +
		`{"name":"pct","action":{"discount":{"type":"PERCENT","percent_off":33.33,"amount_limit":500}}},` +
		`{"name":"unit","action":{"discount":{"type":"UNIT","unit_off":2,"unit_type":"` + prod + `","effect":"ADD_NEW_ITEMS"}}},` +
		`{"name":"prop","action":{"discount":{"type":"AMOUNT","amount_off":999,"effect":"APPLY_TO_ITEMS_PROPORTIONALLY"}}}]}}`}, http.StatusOK)
	seeded := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/validation",
		body: `{"order":{"items":[{"source_id":"fuzz","related_object":"product","quantity":2},{"price":1500}]}}`}, http.StatusOK)
	if n := len(seeded["promotions"].([]any)); n != 3 {
		f.Fatalf("the seeded cart validates %d tiers, want 3", n)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, target := range []string{"/v1/promotions/validation", "/v1/promotions/validation?audienceRulesOnly=true"} {
			r := req{method: http.MethodPost, target: target, body: body}
			rec := h.with(t).do(r)
			if rec.Code >= 500 {
				t.Fatalf("%q: status %d\n%s\nlogs:\n%s", body, rec.Code, rec.Body, h.logs)
			}
			if rec.Code != http.StatusOK {
				continue
			}
			var res struct {
				Promotions []struct {
					Order struct {
						Amount              int64 `json:"amount"`
						TotalDiscountAmount int64 `json:"total_discount_amount"`
						TotalAmount         int64 `json:"total_amount"`
					} `json:"order"`
				} `json:"promotions"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
				t.Fatalf("%q: invalid JSON: %v\n%s", body, err, rec.Body)
			}
			for i, p := range res.Promotions {
				if o := p.Order; o.TotalAmount != o.Amount-o.TotalDiscountAmount || o.TotalAmount < 0 {
					t.Fatalf("%q: promotion %d order %+v does not add up", body, i, o)
				}
			}
		}
	})
}
