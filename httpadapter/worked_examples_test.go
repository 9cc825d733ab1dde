package httpadapter_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// at reads the value at path in a decoded JSON body (object keys, or a
// decimal index into an array).
func at(t *testing.T, v any, path ...string) any {
	t.Helper()
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i >= len(x) {
				t.Fatalf("no element %s in %v", p, x)
			}
			v = x[i]
		default:
			t.Fatalf("cannot read %s of %v (path %v)", p, v, path)
		}
	}
	return v
}

// nums reads the numbers at paths ("a.b.c") of body.
func nums(t *testing.T, body any, paths ...string) []float64 {
	t.Helper()
	out := make([]float64, len(paths))
	for i, p := range paths {
		var parts []string
		start := 0
		for j := 0; j <= len(p); j++ {
			if j == len(p) || p[j] == '.' {
				parts = append(parts, p[start:j])
				start = j + 1
			}
		}
		f, ok := at(t, body, parts...).(float64)
		if !ok {
			t.Fatalf("%s is not a number in %v", p, body)
		}
		out[i] = f
	}
	return out
}

func wantNums(t *testing.T, what string, body any, want map[string]float64) {
	t.Helper()
	var paths []string
	var w []float64
	for p, v := range want {
		paths, w = append(paths, p), append(w, v)
	}
	got := nums(t, body, paths...)
	for i := range paths {
		if got[i] != w[i] {
			t.Errorf("%s: %s = %v, want %v", what, paths[i], got[i], w[i])
		}
	}
}

// examples is a harness whose posts advance the clock a second.
type examples struct {
	*harness
	t *testing.T
}

func (e examples) post(target, body string) map[string]any {
	e.t.Helper()
	e.clock.Advance(time.Second)
	return e.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
}

func (e examples) get(target string) map[string]any {
	e.t.Helper()
	return e.mustDo(req{method: http.MethodGet, target: target}, http.StatusOK)
}

// TestWorkedExampleW4: gift card CODE14 (amount 2000, quantity 18)
// redeemed the legacy way on an order of 6000, then rolled back: every
// number of the redemption, the rollback, the card and the order, and the
// two transactions the card records.
func TestWorkedExampleW4(t *testing.T) {
	e := examples{newHarness(t), t}
	e.post("/v1/vouchers/CODE14", `{"type":"GIFT_VOUCHER","gift":{"amount":2000},"redemption":{"quantity":18}}`)
	r := e.post("/v1/vouchers/CODE14/redemption", `{"customer":{"source_id":"w4"},"order":{"amount":6000}}`)
	wantNums(t, "W4 redemption", r, map[string]float64{"amount": 2000, "gift.amount": 2000, "order.amount": 6000,
		"order.discount_amount": 2000, "order.total_amount": 4000, "voucher.gift.balance": 0,
		"voucher.redemption.redeemed_quantity": 1, "voucher.redemption.redeemed_amount": 2000, "voucher.redemption.quantity": 18})
	if r["result"] != "SUCCESS" || at(t, r, "order", "status") != "PAID" || r["related_object_type"] != "voucher" {
		t.Errorf("W4 redemption: result %v, order %v, related %v", r["result"], at(t, r, "order", "status"), r["related_object_type"])
	}
	id := r["id"].(string)
	rb := e.post("/v1/redemptions/"+id+"/rollback", ``)
	wantNums(t, "W4 rollback", rb, map[string]float64{"amount": -2000, "gift.amount": -2000, "voucher.gift.balance": 2000,
		"voucher.redemption.redeemed_quantity": 0, "voucher.redemption.redeemed_amount": 0,
		"order.amount": 6000, "order.total_amount": 6000})
	entry := at(t, rb, "order", "redemptions", id).(map[string]any)
	if rb["redemption"] != id || at(t, rb, "order", "status") != "CANCELED" || entry["rollback_id"] != rb["id"] || entry["rollback_date"] == nil {
		t.Errorf("W4 rollback: redemption %v, order %v, entry %v", rb["redemption"], at(t, rb, "order", "status"), entry)
	}
	card := e.get("/v1/vouchers/CODE14")
	wantNums(t, "W4 card", card, map[string]float64{"gift.amount": 2000, "gift.balance": 2000, "redemption.redeemed_quantity": 0})
	txs := e.get("/v1/vouchers/CODE14/transactions")
	if d := cmp.Diff([]txRow{{"CREDITS_REFUND", 2000, 2000, 2000}, {"CREDITS_REDEMPTION", -2000, 2000, 0}}, txRows(t, txs)); d != "" {
		t.Errorf("W4 transactions (-want +got):\n%s", d)
	}
	refund := at(t, txs, "data", "0", "details").(map[string]any)
	if at(t, refund, "redemption", "id") != id || at(t, refund, "rollback", "id") != rb["id"] || at(t, refund, "order", "id") != at(t, r, "order", "id") {
		t.Errorf("W4 refund details: %v", refund)
	}
}

// TestWorkedExampleW5: coupon 2CpRCE2c (AMOUNT 300 proportionally over
// the items) on lines of 3300 and 3400 gives 148 and 152; its second
// redemption rolled back leaves one redeemed and the order CANCELED.
func TestWorkedExampleW5(t *testing.T) {
	e := examples{newHarness(t), t}
	e.post("/v1/vouchers/2CpRCE2c", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":300,"effect":"APPLY_TO_ITEMS_PROPORTIONALLY"}}`)
	body := `{"customer":{"source_id":"w5"},"redeemables":[{"object":"voucher","id":"2CpRCE2c"}],` +
		`"order":{"amount":6000,"items":[{"source_id":"line-1","quantity":1,"amount":3300},{"source_id":"line-2","quantity":1,"amount":3400}]}}`
	e.post("/v1/redemptions", body)
	r := e.post("/v1/redemptions", body)
	o := at(t, r, "order")
	wantNums(t, "W5 order", o, map[string]float64{"amount": 6000, "items_discount_amount": 300, "total_discount_amount": 300,
		"total_amount": 5700, "items.0.discount_amount": 148, "items.1.discount_amount": 152})
	wantNums(t, "W5 voucher", at(t, r, "redemptions", "0"), map[string]float64{"voucher.redemption.redeemed_quantity": 2})
	id := at(t, r, "redemptions", "0", "id").(string)
	rb := e.post("/v1/redemptions/"+id+"/rollback", ``)
	wantNums(t, "W5 rollback", rb, map[string]float64{"voucher.redemption.redeemed_quantity": 1})
	if at(t, rb, "order", "status") != "CANCELED" {
		t.Errorf("W5 order after the rollback: %v, want CANCELED", at(t, rb, "order", "status"))
	}
	wantNums(t, "W5 voucher after the rollback", e.get("/v1/vouchers/2CpRCE2c"), map[string]float64{"redemption.redeemed_quantity": 1})
}

// TestWorkedExampleW7: pay with points. 300 points at 20/100 pay 6000 of
// an order of 6000; 5 points at 1/1 pay 500; rolling back gives the
// points back, and the card records POINTS_REDEMPTION and POINTS_REFUND.
func TestWorkedExampleW7(t *testing.T) {
	e := examples{newHarness(t), t}
	camp := e.post("/v1/campaigns", `{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":1000}}}`)["id"].(string)
	e.runActions()
	e.post("/v1/vouchers/W7CARD", `{"type":"LOYALTY_CARD","loyalty_card":{"points":1000},"campaign_id":"`+camp+`"}`)
	coin := e.post("/v1/rewards", `{"name":"100 = $20","parameters":{"coin":{"exchange_ratio":20,"points_ratio":100}}}`)["id"].(string)
	unit := e.post("/v1/rewards", `{"name":"1 = $1","parameters":{"coin":{"exchange_ratio":1,"points_ratio":1}}}`)["id"].(string)
	pay := func(reward string, points int) map[string]any {
		return e.post("/v1/redemptions", fmt.Sprintf(`{"customer":{"source_id":"w7"},"redeemables":[{"object":"voucher","id":"W7CARD","reward":{"id":"%s","points":%d}}],"order":{"amount":6000}}`, reward, points))
	}
	r := pay(coin, 300)
	wantNums(t, "W7 300 points", r, map[string]float64{"order.discount_amount": 6000, "order.total_amount": 0,
		"redemptions.0.amount": 300, "redemptions.0.loyalty_card.points": 300, "redemptions.0.voucher.loyalty_card.balance": 700})
	if at(t, r, "redemptions", "0", "reward", "id") != coin {
		t.Errorf("W7: the redemption names reward %v, want %s", at(t, r, "redemptions", "0", "reward"), coin)
	}
	first := at(t, r, "redemptions", "0", "id").(string)
	r = pay(unit, 5)
	wantNums(t, "W7 5 points", r, map[string]float64{"order.applied_discount_amount": 500, "order.total_amount": 5500,
		"redemptions.0.amount": 5, "redemptions.0.voucher.loyalty_card.balance": 695})
	rb := e.post("/v1/redemptions/"+first+"/rollback", ``)
	wantNums(t, "W7 rollback", rb, map[string]float64{"amount": -300, "loyalty_card.points": -300, "voucher.loyalty_card.balance": 995})
	card := e.get("/v1/vouchers/W7CARD")
	wantNums(t, "W7 card", card, map[string]float64{"loyalty_card.points": 1000, "loyalty_card.balance": 995, "redemption.redeemed_points": 5})
	if d := cmp.Diff([]txRow{{"POINTS_REFUND", 300, 1000, 995}, {"POINTS_REDEMPTION", -5, 1000, 695}, {"POINTS_REDEMPTION", -300, 1000, 700}},
		txRows(t, e.get("/v1/vouchers/W7CARD/transactions"))); d != "" {
		t.Errorf("W7 transactions (-want +got):\n%s", d)
	}
}

// TestWorkedExampleW9: a customer's summary after four redemptions (two
// on one order) and one rollback: the rollback does not lower
// total_succeeded; three orders of 60000, 70000 and 80000 average 70000.
func TestWorkedExampleW9(t *testing.T) {
	e := examples{newHarness(t), t}
	for _, code := range []string{"W9A", "W9B", "W9C", "W9D"} {
		e.post("/v1/vouchers/"+code, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1000}}`)
	}
	redeem := func(code, order string) string {
		r := e.post("/v1/redemptions", `{"customer":{"source_id":"w9"},"redeemables":[{"object":"voucher","id":"`+code+`"}],"order":`+order+`}`)
		return at(t, r, "redemptions", "0", "id").(string)
	}
	first := redeem("W9A", `{"source_id":"o-60","amount":60000}`)
	redeem("W9B", `{"source_id":"o-70","amount":70000}`)
	redeem("W9C", `{"source_id":"o-70"}`)
	redeem("W9D", `{"source_id":"o-80","amount":80000}`)
	e.post("/v1/redemptions/"+first+"/rollback", ``)
	c := e.get("/v1/customers/w9")
	wantNums(t, "W9 summary", c, map[string]float64{
		"summary.redemptions.total_redeemed": 4, "summary.redemptions.total_succeeded": 4, "summary.redemptions.total_failed": 0,
		"summary.redemptions.total_rolled_back": 1, "summary.redemptions.total_rollback_succeeded": 1,
		"summary.orders.total_amount": 210000, "summary.orders.total_count": 3, "summary.orders.average_amount": 70000})
}
