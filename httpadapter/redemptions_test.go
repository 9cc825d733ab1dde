package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ISO-RED", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
		r := h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: `{"redeemables":[{"object":"voucher","id":"ISO-RED"}],"order":{"amount":1000}}`}, http.StatusOK)
		ids["redemptionId"] = r["redemptions"].([]any)[0].(map[string]any)["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get redemption", http.MethodGet, "/v1/redemptions/{redemptionId}", ""},
		isolationRow{"roll back redemption", http.MethodPost, "/v1/redemptions/{redemptionId}/rollback", `{}`},
		isolationRow{"roll back stacked redemption", http.MethodPost, "/v1/redemptions/{redemptionId}/rollbacks", `{}`},
		isolationRow{"voucher redemptions (legacy)", http.MethodGet, "/v1/vouchers/{code}/redemption", ""},
		isolationRow{"redeem voucher (legacy)", http.MethodPost, "/v1/vouchers/{code}/redemption", `{"customer":{"source_id":"iso"},"order":{"amount":1000}}`},
		isolationRow{"redeem tier (legacy)", http.MethodPost, "/v1/promotions/tiers/{tierId}/redemption", `{"customer":{"source_id":"iso"},"order":{"amount":1000}}`},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list redemptions", http.MethodGet, "/v1/redemptions", ""},
	)
	// The route table names the rollbacks parameter parentRedemptionId.
	isolationRows = append(isolationRows, isolationRow{"roll back stack (route)", http.MethodPost, "/v1/redemptions/{parentRedemptionId}/rollbacks", `{}`})
	isolationSeeds = append(isolationSeeds, func(_ *harness, ids map[string]string) { ids["parentRedemptionId"] = ids["redemptionId"] })
}

// TestRedemptions walks redemptions, rollbacks and the ledger reads
// through HTTP, each answer against its golden file: W2 (stacked), W3 (a
// stored order), W4 (a gift card redeemed the legacy way, then rolled
// back), W6 (a single-use voucher twice), a stack rolled back, the lists,
// Idempotency-Key, and the refusals, which change nothing.
func TestRedemptions(t *testing.T) {
	h := newHarness(t)
	ids := validationFixture(h)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/CODE14", body: `{"type":"GIFT_VOUCHER","gift":{"amount":2000},"redemption":{"quantity":18}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ONCE", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1}}`}, http.StatusOK)
	fill := func(s string) string {
		for k, v := range ids {
			s = strings.ReplaceAll(s, "{"+k+"}", v)
		}
		return s
	}
	step := func(name string, r req, want int) map[string]any {
		t.Helper()
		h.clock.Advance(time.Second)
		r.target, r.body = fill(r.target), fill(r.body)
		if r.method == http.MethodPost && strings.HasSuffix(strings.SplitN(r.target, "?", 2)[0], "redemption") || r.target == "/v1/redemptions" {
			if strings.HasPrefix(r.body, "{") && !strings.Contains(r.body, `"customer"`) {
				r.body = `{"customer":{"source_id":"carol"},` + r.body[1:]
			}
		}
		rec := h.golden("redemptions/"+name, r)
		if rec.Code != want {
			t.Fatalf("%s: %s %s = %d, want %d\n%s", name, r.method, r.target, rec.Code, want, rec.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	post := func(target, body string) req { return req{method: http.MethodPost, target: target, body: body} }
	get := func(target string) req { return req{method: http.MethodGet, target: target} }
	id := func(m map[string]any, path ...string) string {
		var v any = m
		for _, p := range path {
			switch x := v.(type) {
			case map[string]any:
				v = x[p]
			case []any:
				v = x[0]
				if p != "0" {
					v = x[0].(map[string]any)[p]
				}
			}
		}
		return v.(string)
	}

	w2 := step("w2_stacked", post("/v1/redemptions", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":100}},`+
		`{"object":"voucher","id":"39vnjyS8"},{"object":"promotion_tier","id":"{tier8000}"}],"order":{"amount":200000}}`), 200)
	ids["parent"] = id(w2, "parent_redemption", "id")
	ids["child"] = id(w2, "redemptions", "0", "id")
	step("w3_stored_order", post("/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"id":"{order}"}}`), 200)
	w4 := step("w4_legacy_gift", post("/v1/vouchers/CODE14/redemption?tracking_id=track-1", `{"customer":{"source_id":"bob"},"order":{"amount":6000}}`), 200)
	ids["w4"] = id(w4, "id")
	step("w4_rollback", post("/v1/redemptions/{w4}/rollback?reason=mistake", `{"customer":{"source_id":"bob","name":"Bob"},"metadata":{"why":"test"}}`), 200)
	step("already_rolled_back", post("/v1/redemptions/{w4}/rollback", ``), 400)
	step("w6_first", post("/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`), 200)
	step("w6_quantity_exceeded", post("/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`), 400)
	step("w6_legacy_quantity_exceeded", post("/v1/vouchers/ONCE/redemption", `{"order":{"amount":1000}}`), 400)
	step("legacy_unknown_code", post("/v1/vouchers/NOSUCH/redemption", `{"order":{"amount":1000}}`), 404)
	step("tier_legacy", post("/v1/promotions/tiers/{tier40}/redemption", `{"order":{"amount":1000}}`), 200)
	step("rollback_parent_single", post("/v1/redemptions/{parent}/rollback", ``), 400)
	step("rollback_child", post("/v1/redemptions/{child}/rollbacks", ``), 400)
	step("rollback_other_customer", post("/v1/redemptions/{parent}/rollbacks", `{"customer":{"source_id":"bob"}}`), 400)
	step("rollback_stack", post("/v1/redemptions/{parent}/rollbacks?reason=returned", `{"customer":{"source_id":"alice"}}`), 200)
	step("get_parent", get("/v1/redemptions/{parent}"), 200)
	step("get_missing", get("/v1/redemptions/r_missing"), 404)
	step("list", get("/v1/redemptions?limit=5"), 200)
	step("list_failures", get("/v1/redemptions?result=FAILURE"), 200)
	step("list_customer", get("/v1/redemptions?customer=bob&order=created_at"), 200)
	step("list_unknown_customer", get("/v1/redemptions?customer=nobody"), 200)
	step("list_bad_result", get("/v1/redemptions?result=MAYBE"), 400)
	step("voucher_redemptions", get("/v1/vouchers/ONCE/redemption"), 200)
	step("voucher_redemptions_missing", get("/v1/vouchers/NOSUCH/redemption"), 404)
	step("empty_redeemables", post("/v1/redemptions", `{"redeemables":[]}`), 400)
	step("duplicated_redeemables", post("/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"ONCE"},{"object":"voucher","id":"ONCE"}]}`), 400)
	step("not_json", post("/v1/redemptions", `[1]`), 400)

	key := map[string]string{"Idempotency-Key": "order-77"}
	first := step("idempotent_first", req{method: http.MethodPost, target: "/v1/redemptions", header: key,
		body: `{"redeemables":[{"object":"voucher","id":"M3X8IwW8","gift":{"credits":1000}}],"order":{"amount":5000}}`}, 200)
	again := step("idempotent_retry", req{method: http.MethodPost, target: "/v1/redemptions", header: key,
		body: `{"redeemables":[{"object":"voucher","id":"M3X8IwW8","gift":{"credits":1000}}],"order":{"amount":5000}}`}, 200)
	if id(first, "redemptions", "0", "id") != id(again, "redemptions", "0", "id") {
		t.Errorf("a retried request redeemed again: %s then %s", id(first, "redemptions", "0", "id"), id(again, "redemptions", "0", "id"))
	}
	card := h.mustDo(get("/v1/vouchers/M3X8IwW8"), http.StatusOK)
	if b := card["gift"].(map[string]any)["balance"].(float64); b != 4000 {
		t.Errorf("after a retried redemption the card holds %v, want 4000 (spent once)", b)
	}
}
