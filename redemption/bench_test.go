package redemption

import (
	"testing"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
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

// BenchmarkEvaluateExplain is BenchmarkEvaluate's cart with a rule that
// fails on one redeemable and an applicable limit of 3 that skips two,
// with Request.Explain off and on: off must cost what an evaluation
// without the option cost before it existed.
func BenchmarkEvaluateExplain(b *testing.B) {
	prices := make([]int64, 50)
	for i := range prices {
		prices[i] = 500 + 37*int64(i)
	}
	o := cart(b, 0, prices...)
	big, err := rule.Compile(rule.RuleSet{Logic: "1 and 2", Rules: map[string]rule.Rule{
		"1": {Name: "order.items.count", Conditions: map[string][]any{"$more_than": {10.0}}},
		"2": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {1e9}}}}}, "")
	if err != nil {
		b.Fatal(err)
	}
	failing := amountOff("rule", "300")
	failing.Programs = []*rule.Program{big}
	cands := []Candidate{
		itemsOff("items", "100"),
		{Object: ObjectVoucher, ID: "gift", Gift: &GiftCard{Balance: 5000, Credits: promotype.Ptr[int64](100), Effect: discount.ApplyToOrder}},
		failing,
		percentOff("pct", "10"),
		amountOff("amount", "300"),
		itemsOff("one", "200", "prod_7"),
	}
	rules := rulesWith(func(r *StackingRules) { r.ApplicableRedeemablesLimit = 3 })
	for _, explain := range []bool{false, true} {
		name := "off"
		if explain {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			req := Request{Order: o, Explain: explain}
			out := Evaluate(rules, cands, req)
			if !out.Valid || out.Steps[2].Status != Inapplicable || out.Steps[5].Status != Skipped || (out.Steps[5].Explanation != nil) != explain {
				b.Fatalf("unexpected outcome")
			}
			b.ReportAllocs()
			for b.Loop() {
				Evaluate(rules, cands, req)
			}
		})
	}
}
