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

	t.Run("bulk-updated address", func(t *testing.T) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/customers/bulk/async", body: `[{"source_id":"addr","address":{"city":"Berlin","line_1":"Main 1","postal_code":"10115","country":"DE"}}]`}, http.StatusAccepted)
		h.runActions()
		h.mustDo(req{method: http.MethodPost, target: "/v1/customers/bulk/async", body: `[{"source_id":"addr","address":{"city":"Hamburg"}}]`}, http.StatusAccepted)
		h.runActions()
		a := h.mustDo(req{method: http.MethodGet, target: "/v1/customers/addr"}, http.StatusOK)["address"].(map[string]any)
		if a["city"] != "Hamburg" {
			t.Errorf("address.city %v, want Hamburg", a["city"])
		}
		for _, k := range []string{"state", "line_1", "line_2", "country", "postal_code"} {
			wantNull("address replaced by a bulk update", a, k)
		}
		h.mustDo(req{method: http.MethodPost, target: "/v1/customers/metadata/async", body: `{"source_ids":["addr"],"metadata":{"k":1}}`}, http.StatusAccepted)
		h.runActions()
		a = h.mustDo(req{method: http.MethodGet, target: "/v1/customers/addr"}, http.StatusOK)["address"].(map[string]any)
		if a["city"] != "Hamburg" {
			t.Errorf("a metadata update changed the address: %v", a)
		}
	})

	t.Run("stack hierarchy_mode and updated_at", func(t *testing.T) {
		camp := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Stacked","campaign_type":"PROMOTION"}`}, http.StatusOK)["id"].(string)
		tier := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"T","action":{"discount":{"type":"PERCENT","percent_off":5}}}`}, http.StatusOK)["id"].(string)
		base := "/v1/promotions/" + camp + "/stacks"
		created := h.mustDo(req{method: http.MethodPost, target: base, body: `{"name":"S","tiers":{"ids":["` + tier + `"]}}`}, http.StatusOK)
		id := created["id"].(string)
		list := h.mustDo(req{method: http.MethodGet, target: base}, http.StatusOK)["data"].([]any)
		all := h.mustDo(req{method: http.MethodGet, target: "/v1/promotions/stacks"}, http.StatusOK)["data"].([]any)
		for what, s := range map[string]map[string]any{
			"create": created, "get": h.mustDo(req{method: http.MethodGet, target: base + "/" + id}, http.StatusOK),
			"campaign list": list[0].(map[string]any), "list": all[0].(map[string]any),
		} {
			if mode := s["tiers"].(map[string]any)["hierarchy_mode"]; mode != "MANUAL" {
				t.Errorf("%s: hierarchy_mode %v, want MANUAL", what, mode)
			}
			wantNull(what, s, "updated_at")
		}
		updated := h.mustDo(req{method: http.MethodPut, target: base + "/" + id, body: `{"name":"S2"}`}, http.StatusOK)
		if at, _ := updated["updated_at"].(string); at == "" {
			t.Errorf("update: updated_at %v, want the time", updated["updated_at"])
		}
	})

	t.Run("cleared expiration_date", func(t *testing.T) {
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Expiring","expiration_date":"2030-01-01T00:00:00Z","voucher":{"discount":{"type":"AMOUNT","amount_off":1}}}`}, http.StatusOK)
		c = h.mustDo(req{method: http.MethodPut, target: "/v1/campaigns/" + c["id"].(string), body: `{"expiration_date":null}`}, http.StatusOK)
		wantNull("campaign update", c, "expiration_date")
		wantNull("campaign read", h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Expiring"}, http.StatusOK), "expiration_date")
		h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/EXPIRING", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"expiration_date":"2030-01-01T00:00:00Z"}`}, http.StatusOK)
		v := h.mustDo(req{method: http.MethodPut, target: "/v1/vouchers/EXPIRING", body: `{"expiration_date":null}`}, http.StatusOK)
		wantNull("voucher update", v, "expiration_date")
		wantNull("voucher read", h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/EXPIRING"}, http.StatusOK), "expiration_date")
		v = h.mustDo(req{method: http.MethodPut, target: "/v1/vouchers/EXPIRING", body: `{"start_date":"2029-01-01T00:00:00Z","expiration_date":"2031-01-01T00:00:00Z"}`}, http.StatusOK)
		if v["expiration_date"] != "2031-01-01T00:00:00.000Z" {
			t.Errorf("voucher expiration_date set again: %v", v["expiration_date"])
		}
		v = h.mustDo(req{method: http.MethodPut, target: "/v1/vouchers/EXPIRING", body: `{"start_date":null,"metadata":{"a":1}}`}, http.StatusOK)
		wantNull("voucher start_date cleared", v, "start_date")
		if v["expiration_date"] != "2031-01-01T00:00:00.000Z" {
			t.Errorf("an absent expiration_date changed: %v", v["expiration_date"])
		}
		if e := h.do(req{method: http.MethodPut, target: "/v1/vouchers/EXPIRING", body: `{"expiration_date":5}`}); e.Code != http.StatusBadRequest {
			t.Errorf("expiration_date 5: %d %s", e.Code, e.Body)
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
