package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzValidations: POST /v1/validations (and the stacking rules create)
// never makes a 5xx, and every order a 200 answers adds up (total_amount =
// amount − total_discount_amount ≥ 0, no line discounted beyond its amount).
func FuzzValidations(f *testing.F) {
	for _, s := range []string{
		`{"redeemables":[{"object":"voucher","id":"GNcuPKGe"},{"object":"voucher","id":"M3X8IwW8","gift":{"credits":100}},{"object":"voucher","id":"39vnjyS8"}],"order":{"amount":2700}}`,
		`{"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":9007199254740991}}],"order":{"amount":9007199254740991}}`,
		`{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"rew_x","points":-1}}]}`,
		`{"redeemables":[{"object":"promotion_stack","id":"stack_x"},{"object":"promotion_stack","id":"stack_x"}]}`,
		`{"redeemables":[{"object":"voucher","id":"ITEMSGIFT"}],"order":{"items":[{"price":1,"quantity":"2"}]},"options":{"expand":["category",null]}}`,
		`{"redeemables":null}`, `{}`, ``, `[`, `{"redeemables":[{}]}`, `{"redeemables":[{"object":"voucher","id":"\u0000<&>"}]}`,
		`{"exclusive_categories":["a"],"joint_categories":["a"]}`, `{"applicable_redeemables_category_limits":{"":0}}`,
		`{"redeemables":[{"object":"voucher","id":"M3X8IwW8","gift":{"credits":100}}],"session":{"type":"LOCK","key":"k","ttl":1e308,"ttl_unit":"DAYS"}}`,
		`{"redeemables":[{"object":"voucher","id":"39vnjyS8"}],"session":{"type":"LOCK","ttl":1e-9,"ttl_unit":"NANOSECONDS"}}`,
		`{"redeemables":[{"object":"voucher","id":"39vnjyS8"}],"session":{"type":null,"key":"\u0000","ttl":"x","ttl_unit":7}}`,
	} {
		f.Add(s)
	}
	h := newHarness(f)
	validationFixture(h)
	f.Fuzz(func(t *testing.T, body string) {
		for _, target := range []string{"/v1/validations", "/management/v1/projects/" + h.project.ID + "/stacking-rules"} {
			rec := h.with(t).do(req{method: http.MethodPost, target: target, body: body})
			if rec.Code >= 500 {
				t.Fatalf("%s %q: status %d\n%s\nlogs:\n%s", target, body, rec.Code, rec.Body, h.logs)
			}
			if rec.Code != http.StatusOK || target != "/v1/validations" {
				continue
			}
			type amounts struct {
				Amount              int64 `json:"amount"`
				TotalDiscountAmount int64 `json:"total_discount_amount"`
				TotalAmount         int64 `json:"total_amount"`
				Items               []struct {
					Amount         int64 `json:"amount"`
					DiscountAmount int64 `json:"discount_amount"`
				} `json:"items"`
			}
			var res struct {
				Order       *amounts `json:"order"`
				Redeemables []struct {
					Order *amounts `json:"order"`
				} `json:"redeemables"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
				t.Fatalf("%q: %v", body, err)
			}
			orders := []*amounts{res.Order}
			for _, r := range res.Redeemables {
				orders = append(orders, r.Order)
			}
			for _, o := range orders {
				if o == nil {
					continue
				}
				if o.TotalAmount != o.Amount-o.TotalDiscountAmount || o.TotalAmount < 0 {
					t.Fatalf("%q: order amounts %+v", body, o)
				}
				for _, it := range o.Items {
					if it.DiscountAmount < 0 || it.DiscountAmount > it.Amount {
						t.Fatalf("%q: line %+v", body, it)
					}
				}
			}
		}
		// A create that succeeded is undone so the next input starts from
		// the defaults.
		list := h.with(t).mustDo(req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID + "/stacking-rules"}, http.StatusOK)
		if id, ok := list["data"].([]any)[0].(map[string]any)["id"].(string); ok {
			h.with(t).mustDo(req{method: http.MethodDelete, target: "/management/v1/projects/" + h.project.ID + "/stacking-rules/" + id}, http.StatusNoContent)
		}
	})
}
