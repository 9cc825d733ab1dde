package httpadapter_test

import (
	"net/http"
	"testing"
)

// TestHostedNullAnswers: where the hosted API leaves presence or nullness open,
// the answers follow the hosted service's, as the official SDKs' test
// snapshots record them (issue 29 point 2; docs/behaviour.md "Null, empty
// or absent: the hosted answers").
func TestHostedNullAnswers(t *testing.T) {
	h := newHarness(t)
	// present reports whether obj has key, and its value.
	present := func(obj map[string]any, key string) (any, bool) {
		v, ok := obj[key]
		return v, ok
	}
	wantNull := func(what string, obj map[string]any, key string) {
		t.Helper()
		if v, ok := present(obj, key); !ok || v != nil {
			t.Errorf("%s: %s = %v (present %v), want null", what, key, v, ok)
		}
	}
	wantAbsent := func(what string, obj map[string]any, key string) {
		t.Helper()
		if v, ok := present(obj, key); ok {
			t.Errorf("%s: %s = %v, want it left out", what, key, v)
		}
	}

	t.Run("campaign metadata and use_voucher_metadata_schema", func(t *testing.T) {
		for _, tc := range []struct{ body, campaignType string }{
			{`{"name":"N1","voucher":{"discount":{"type":"AMOUNT","amount_off":100}}}`, "DISCOUNT_COUPONS"},
			{`{"name":"N2","campaign_type":"GIFT_VOUCHERS","voucher":{"gift":{"amount":100}}}`, "GIFT_VOUCHERS"},
			{`{"name":"N3","campaign_type":"LOYALTY_PROGRAM","voucher":{"loyalty_card":{"points":1}}}`, "LOYALTY_PROGRAM"},
			{`{"name":"N4","campaign_type":"REFERRAL_PROGRAM","voucher":{"discount":{"type":"AMOUNT","amount_off":100}}}`, "REFERRAL_PROGRAM"},
			{`{"name":"N5","campaign_type":"PROMOTION"}`, "PROMOTION"},
		} {
			c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: tc.body}, http.StatusOK)
			wantNull(tc.campaignType, c, "metadata")
			if got, want := c["use_voucher_metadata_schema"], tc.campaignType != "PROMOTION"; got != want {
				t.Errorf("%s: use_voucher_metadata_schema %v, want %v", tc.campaignType, got, want)
			}
			v, _ := c["voucher"].(map[string]any)
			if d, ok := v["discount"].(map[string]any); ok {
				wantAbsent(tc.campaignType+" voucher.discount", d, "is_dynamic")
			}
		}
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"M","metadata":{"a":1},"voucher":{"discount":{"type":"AMOUNT","amount_off":1}}}`}, http.StatusOK)
		if m, _ := c["metadata"].(map[string]any); m["a"] != 1.0 {
			t.Errorf("metadata given: %v", c["metadata"])
		}
	})

	t.Run("customer assets and permanent deletion counts", func(t *testing.T) {
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"nulls","name":"N"}`}, http.StatusOK)
		wantNull("customer", c, "assets")
		d := h.mustDo(req{method: http.MethodPost, target: "/v1/customers/nulls/permanent-deletion"}, http.StatusOK)
		counts := d["data_json"].(map[string]any)
		wantNull("data_json", counts, "customer_events")
		wantNull("data_json", counts, "order_events")
		for k, want := range map[string]float64{"events": 0, "daily_events": 0, "segments": 0, "orders": 0, "customer": 1} {
			if counts[k] != want {
				t.Errorf("data_json.%s = %v, want %v", k, counts[k], want)
			}
		}
	})

	t.Run("validation rule create answer", func(t *testing.T) {
		r := h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules",
			body: `{"name":"More than","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[500000]}},"logic":"1"}}`}, http.StatusOK)
		wantNull("rule without applicable_to", r, "applicable_to")
		wantNull("rule", r, "assignments_count")
		r = h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules",
			body: `{"name":"Applicable","applicable_to":{"included":[{"object":"product","id":"prod_5h1pp1ng"}]}}`}, http.StatusOK)
		at := r["applicable_to"].(map[string]any)
		wantNull("applicable_to", at, "excluded")
		if inc, _ := at["included"].([]any); len(inc) != 1 || inc[0].(map[string]any)["effect"] != "APPLY_TO_EVERY" {
			t.Errorf("included %v", at["included"])
		}
		got := h.mustDo(req{method: http.MethodGet, target: "/v1/validation-rules/" + r["id"].(string)}, http.StatusOK)
		if got["assignments_count"] != 0.0 {
			t.Errorf("a read counts the assignments: %v", got["assignments_count"])
		}
	})

	t.Run("last page more_starting_after", func(t *testing.T) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"pager"}`}, http.StatusOK)
		l := h.mustDo(req{method: http.MethodGet, target: "/v1/customers/pager/activity"}, http.StatusOK)
		if l["has_more"] != false {
			t.Fatalf("has_more %v", l["has_more"])
		}
		wantAbsent("last activity page", l, "more_starting_after")
	})
}
