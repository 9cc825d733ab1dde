package httpadapter_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// e9Order is the order of the official voucher validation example
// "Fixed": lines by source id, quantities as text, 46500 in all.
const e9Order = `{"items":[` +
	`{"source_id":"webinar_BF_sweater_pink_sweater","quantity":"1","price":6500,"related_object":"product"},` +
	`{"source_id":"webinar_BF_pants_navy_sweat_pants","quantity":"1","price":6000,"related_object":"product"},` +
	`{"source_id":"5h1pp1ng","quantity":"1","price":2000,"related_object":"product"},` +
	`{"source_id":"webinar_BF_pants_gray_sweat_pants","quantity":"2","price":5000,"related_object":"product"},` +
	`{"source_id":"webinar_BF_sweater_pearl","quantity":"2","price":11000,"related_object":"product"}]}`

// TestDiscountFormulas: worked example E9 through the voucher validation,
// the stackable validation and the redemption (issue 29 point 5): new
// prices from price_formula; a formula discount is dynamic and falls back
// to its static value; a formula that does not parse is a 400 at every
// create. Run on PostgreSQL too (PROMO_TEST_HTTP_STORE).
func TestDiscountFormulas(t *testing.T) {
	h := newHarness(t)
	sweaters, pants := `IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)`, `IF(ORDER_AMOUNT > 200;ORDER_ITEM_PRICE * 0.9;ORDER_ITEM_PRICE)`
	entries := []string{`{"object":"product","id":"prod_5h1pp1ng","price":2000,"price_formula":"IF(ORDER_AMOUNT > 400;0;20)","effect":"APPLY_TO_EVERY"}`}
	for _, p := range []struct {
		source, name, formula string
		price                 int
	}{
		{"webinar_BF_sweater_pink_sweater", "Pink Sweater", sweaters, 6500},
		{"webinar_BF_pants_navy_sweat_pants", "Navy Sweat Pants", pants, 6000},
		{"webinar_BF_pants_gray_sweat_pants", "Gray Sweat Pants", pants, 5000},
		{"webinar_BF_sweater_pearl", "Pearl Sweater", sweaters, 11000},
	} {
		id := h.mustDo(req{method: http.MethodPost, target: "/v1/products",
			body: `{"source_id":"` + p.source + `","name":"` + p.name + `","price":` + strconv.Itoa(p.price) + `}`}, http.StatusOK)["id"].(string)
		entries = append(entries, `{"object":"product","id":"`+id+`","price":99900,"price_formula":"`+p.formula+`","effect":"APPLY_TO_EVERY"}`)
	}
	rule := h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules",
		body: `{"name":"Spend more get more","applicable_to":{"included":[` + strings.Join(entries, ",") + `]}}`}, http.StatusOK)["id"].(string)
	h.run(t, "discount_formulas", []step{
		{"voucher_fixed", req{method: http.MethodPost, target: "/v1/vouchers/SPENDMOREGETMORE",
			body: `{"discount":{"type":"FIXED","fixed_amount":0,"effect":"APPLY_TO_ITEMS"},"validation_rules":["` + rule + `"],"metadata":{"bonus":3}}`}, 200},
		{"validate_e9", req{method: http.MethodPost, target: "/v1/vouchers/SPENDMOREGETMORE/validate", body: `{"customer":{"source_id":"e9"},"order":` + e9Order + `}`}, 200},
		{"voucher_dynamic", req{method: http.MethodPost, target: "/v1/vouchers/DYNAMIC",
			body: `{"discount":{"type":"AMOUNT","amount_off":500,"amount_off_formula":"IF(CUSTOMER_METADATA(\"tier\") is \"VIP\";ORDER_AMOUNT * 0.1;REDEEMABLE_METADATA(\"bonus\"))"},"metadata":{"bonus":7}}`}, 200},
		{"validate_dynamic_vip", req{method: http.MethodPost, target: "/v1/validations",
			body: `{"redeemables":[{"object":"voucher","id":"DYNAMIC"}],"customer":{"source_id":"vip","metadata":{"tier":"VIP"}},"order":{"amount":46500}}`}, 200},
		{"err_voucher_bad_formula", req{method: http.MethodPost, target: "/v1/vouchers/BAD",
			body: `{"discount":{"type":"PERCENT","percent_off":5,"percent_off_formula":"IF(ORDER_AMOUNT > 1;10)"}}`}, 400},
	})

	// E9 exactly, through the legacy validation and a redemption.
	v := h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/SPENDMOREGETMORE/validate", body: `{"order":` + e9Order + `}`}, http.StatusOK)
	checkE9(t, "validate", v["order"])
	r := h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions",
		body: `{"redeemables":[{"object":"voucher","id":"SPENDMOREGETMORE"}],"order":` + e9Order + `}`}, http.StatusOK)
	checkE9(t, "redemption", r["order"])

	// 10% for a VIP, the voucher's bonus (7 currency units) for another
	// tier, the static 500 when the formula cannot be computed (a customer
	// without a tier).
	for _, tc := range []struct {
		customer string
		want     float64
	}{{`{"source_id":"vip","metadata":{"tier":"VIP"}}`, 4650}, {`{"source_id":"gold","metadata":{"tier":"GOLD"}}`, 700}, {`{"source_id":"plain"}`, 500}} {
		got := h.mustDo(req{method: http.MethodPost, target: "/v1/validations",
			body: `{"redeemables":[{"object":"voucher","id":"DYNAMIC"}],"customer":` + tc.customer + `,"order":{"amount":46500}}`}, http.StatusOK)
		if d := got["order"].(map[string]any)["total_discount_amount"]; d != tc.want {
			t.Errorf("DYNAMIC for %s: total_discount_amount %v, want %v", tc.customer, d, tc.want)
		}
	}
	h.mustDo(req{method: http.MethodPut, target: "/v1/vouchers/DYNAMIC",
		body: `{"discount":{"type":"AMOUNT","amount_off":500,"amount_off_formula":"CUSTOMER_METADATA(\"missing\") * 2"}}`}, http.StatusOK)
	got := h.mustDo(req{method: http.MethodPost, target: "/v1/validations",
		body: `{"redeemables":[{"object":"voucher","id":"DYNAMIC"}],"order":{"amount":46500}}`}, http.StatusOK)
	if d := got["order"].(map[string]any)["total_discount_amount"]; d != 500.0 {
		t.Errorf("a formula over missing metadata: total_discount_amount %v, want the static 500", d)
	}
	redeemable := got["redeemables"].([]any)[0].(map[string]any)
	if dyn := redeemable["result"].(map[string]any)["discount"].(map[string]any)["is_dynamic"]; dyn != true {
		t.Errorf("discount.is_dynamic of a formula discount = %v, want true", dyn)
	}

	// The hosted example on a voucher's publications: 5 before, 25 once
	// published.
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/PUBLISHED",
		body: `{"discount":{"type":"AMOUNT","amount_off":100,"amount_off_formula":"IF(VOUCHER_PUBLISH_COUNT = 1;25;5)"}}`}, http.StatusOK)
	for _, want := range []float64{500, 2500} {
		got := h.mustDo(req{method: http.MethodPost, target: "/v1/validations",
			body: `{"redeemables":[{"object":"voucher","id":"PUBLISHED"}],"customer":{"source_id":"ann"},"order":{"amount":46500}}`}, http.StatusOK)
		if d := got["order"].(map[string]any)["total_discount_amount"]; d != want {
			t.Errorf("IF(VOUCHER_PUBLISH_COUNT = 1;25;5): total_discount_amount %v, want %v", d, want)
		}
		h.mustDo(req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"PUBLISHED","customer":{"source_id":"ann"}}`}, http.StatusOK)
	}

	// A promotion tier: 15% above 300 (currency units), else 5%, and its
	// own metadata.
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Spend more","campaign_type":"PROMOTION","promotion":{"tiers":[` +
		`{"name":"By amount","metadata":{"extra":2},"action":{"discount":{"type":"PERCENT","percent_off":1,"percent_off_formula":"IF(ORDER_AMOUNT > 300;15;5) + REDEEMABLE_METADATA(\"extra\")"}}}]}}`}, http.StatusOK)
	for _, tc := range []struct {
		amount string
		want   float64
	}{{"46500", 7905}, {"20000", 1400}} {
		got := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/validation", body: `{"customer":{"source_id":"ann"},"order":{"amount":` + tc.amount + `}}`}, http.StatusOK)
		promos, _ := got["promotions"].([]any)
		if len(promos) != 1 || promos[0].(map[string]any)["discount_amount"] != tc.want {
			t.Errorf("tier with a percent formula on %s: %v, want discount_amount %v", tc.amount, promos, tc.want)
		}
	}

	// A formula that does not parse is refused wherever a discount or an
	// applicable_to is created, naming the field and what is wrong.
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promo","campaign_type":"PROMOTION"}`}, http.StatusOK)
	for _, tc := range []struct {
		name, target, body, want string
	}{
		{"campaign", "/v1/campaigns", `{"name":"Bad","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1,"amount_off_formula":"ORDER_TOTAL * 2"}}}`,
			"amount_off_formula is not a valid formula: unknown name ORDER_TOTAL (at position 0)"},
		{"tier", "/v1/promotions/Promo/tiers", `{"name":"Bad","action":{"discount":{"type":"UNIT","unit_type":"prod_5h1pp1ng","unit_off":1,"unit_off_formula":"TODAY"}}}`,
			"unit_off_formula is not a valid formula: TODAY is not supported by this engine (at position 0)"},
		{"campaign tier", "/v1/campaigns", `{"name":"Bad tiers","campaign_type":"PROMOTION","promotion":{"tiers":[{"name":"x","action":{"discount":{"type":"FIXED","fixed_amount":1,"fixed_amount_formula":"(1"}}}]}}`,
			`fixed_amount_formula is not a valid formula: expected ")", found end of formula (at position 2)`},
		{"validation rule", "/v1/validation-rules", `{"name":"Bad","applicable_to":{"included":[{"object":"product","id":"prod_5h1pp1ng","price_formula":"1 +"}]}}`,
			"price_formula is not a valid formula: expected a value, found end of formula (at position 3)"},
	} {
		e := h.mustDo(req{method: http.MethodPost, target: tc.target, body: tc.body}, http.StatusBadRequest)
		if e["key"] != "invalid_payload" || !strings.HasSuffix(e["details"].(string), tc.want) {
			t.Errorf("%s with a bad formula: %v, want invalid_payload ending %q", tc.name, e, tc.want)
		}
	}
}

// checkE9 compares an order with worked example E9.
func checkE9(t *testing.T, name string, o any) {
	t.Helper()
	order, _ := o.(map[string]any)
	var lines []float64
	items, _ := order["items"].([]any)
	for _, it := range items {
		lines = append(lines, it.(map[string]any)["discount_amount"].(float64))
	}
	got := map[string]any{"amount": order["amount"], "items_discount_amount": order["items_discount_amount"], "total_amount": order["total_amount"], "lines": lines}
	want := map[string]any{"amount": 46500.0, "items_discount_amount": 9300.0, "total_amount": 37200.0, "lines": []float64{1300, 600, 2000, 1000, 4400}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: E9 (-want +got):\n%s", name, d)
	}
}
