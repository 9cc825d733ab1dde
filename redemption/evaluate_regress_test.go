package redemption

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/rule"
)

// TestEvaluateInitialAmountAfterAddedLine (found by FuzzEvaluate): under
// INITIAL_AMOUNT an item discount after a unit discount that added a line
// is priced on the request's order, which lacks that line; the added line
// takes nothing (it used to index past the scratch order's lines).
func TestEvaluateInitialAmountAfterAddedLine(t *testing.T) {
	t.Parallel()
	off := int64(1)
	unit := Candidate{Object: ObjectVoucher, ID: "unit", Discount: &discount.Discount{Type: discount.Unit, UnitOff: &off,
		UnitType: "prod_9", Effect: discount.AddNewItems},
		Catalog: func(u string) (order.Item, bool) {
			p := int64(250)
			return order.Item{Object: "order_item", ProductID: u, Price: &p}, true
		}}
	pct := percentOff("pct", "10")
	pct.Discount.Effect = discount.ApplyToItems
	pct.Applicability = &discount.Applicability{IncludedAll: true}
	rules := rulesWith(func(r *StackingRules) { r.DiscountCalculationMode = CalcInitialAmount })
	out := Evaluate(rules, []Candidate{unit, pct}, Request{Order: cart(t, 0, 1000, 2000)})
	got := []Status{out.Steps[0].Status, out.Steps[1].Status}
	if diff := cmp.Diff([]Status{Applicable, Applicable}, got); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s", diff)
	}
	o := out.Steps[1].Order
	if len(o.Items) != 3 || o.Items[2].AppliedDiscountAmount != 0 || o.TotalAppliedDiscountAmount != 300 {
		t.Fatalf("lines %d, added line's discount %d, applied %d; want 3, 0, 300", len(o.Items), o.Items[2].AppliedDiscountAmount, o.TotalAppliedDiscountAmount)
	}
}

// TestEvaluateExclusionKeepsFailures (found by FuzzEvaluate): a common
// redeemable that failed its rules before an exclusive one applied stays
// INAPPLICABLE; tried again on the order without the withdrawn ones it
// could pass and apply next to the exclusive one.
func TestEvaluateExclusionKeepsFailures(t *testing.T) {
	t.Parallel()
	big, err := rule.Compile(rule.RuleSet{Logic: "1", Rules: map[string]rule.Rule{
		"1": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {2500.0}}}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := amountOff("c", "100")
	c.Programs = []*rule.Program{big}
	rules := rulesWith(func(r *StackingRules) { r.ExclusiveCategories = []string{"cat_x"} })
	out := Evaluate(rules, []Candidate{amountOff("a", "1000"), c, inCat(amountOff("x", "100"), "cat_x", 1)},
		Request{Order: cart(t, 0, 3000)})
	var got []string
	for _, st := range out.Steps {
		got = append(got, st.Candidate.ID+" "+string(st.Status))
	}
	if diff := cmp.Diff([]string{"a SKIPPED", "c INAPPLICABLE", "x APPLICABLE"}, got); diff != "" {
		t.Fatalf("steps (-want +got):\n%s", diff)
	}
}
