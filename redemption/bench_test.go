package redemption

import (
	"testing"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
)

// BenchmarkEvaluate is the pure evaluation of a 50-line cart with 5
// redeemables (an item discount on every line, gift credits, a percent
// code, an order amount and an item discount on one product) under the
// default stacking rules but for the applicable limit.
func BenchmarkEvaluate(b *testing.B) {
	prices := make([]int64, 50)
	for i := range prices {
		prices[i] = 500 + 37*int64(i)
	}
	o := cart(b, 0, prices...)
	cands := []Candidate{
		itemsOff("items", "100"),
		{Object: ObjectVoucher, ID: "gift", Gift: &GiftCard{Balance: 5000, Credits: promotype.Ptr[int64](100), Effect: discount.ApplyToOrder}},
		percentOff("pct", "10"),
		amountOff("amount", "300"),
		itemsOff("one", "200", "prod_7"),
	}
	rules := rulesWith(func(r *StackingRules) { r.ApplicableRedeemablesLimit = 30 })
	if out := Evaluate(rules, cands, Request{Order: o}); !out.Valid {
		b.Fatal("not valid")
	}
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(rules, cands, Request{Order: o})
	}
}
