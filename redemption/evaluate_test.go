package redemption

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
)

// cart is an order of lines at prices (one unit each, products prod_1,
// prod_2, ...); amount, when not 0, is the order amount sent instead of
// the lines' sum.
func cart(t testing.TB, amount int64, prices ...int64) *order.Order {
	t.Helper()
	o := &order.Order{Object: "order"}
	for i, p := range prices {
		o.Items = append(o.Items, order.Item{Object: "order_item", ProductID: fmt.Sprintf("prod_%d", i+1), Price: &p,
			Quantity: 1, InitialQuantity: 1, Amount: p, InitialAmount: p})
		o.Amount += p
	}
	if amount != 0 {
		o.Amount = amount
	}
	o.InitialAmount = o.Amount
	o.Recompute()
	return o
}

func dec(s string) *promotype.Decimal { d := promotype.NewDecimal(s); return &d }

func amountOff(id, off string) Candidate {
	return Candidate{Object: ObjectVoucher, ID: id, Discount: &discount.Discount{Type: discount.Amount, AmountOff: dec(off)}}
}

func percentOff(id, pct string) Candidate {
	return Candidate{Object: ObjectPromotionTier, ID: id, Discount: &discount.Discount{Type: discount.Percent, PercentOff: dec(pct)}}
}

// itemsOff is an item discount on every line (or on the products named).
func itemsOff(id, off string, products ...string) Candidate {
	c := amountOff(id, off)
	c.Discount.Effect = discount.ApplyToItems
	c.Applicability = &discount.Applicability{IncludedAll: len(products) == 0}
	for _, p := range products {
		c.Applicability.Included = append(c.Applicability.Included, discount.Target{Object: "product", ID: p, Effect: discount.ApplyToEvery})
	}
	return c
}

func inCat(c Candidate, cat string, hierarchy int) Candidate {
	c.CategoryID, c.Hierarchy = cat, hierarchy
	return c
}

func rulesWith(f func(r *StackingRules)) *StackingRules {
	r := DefaultStackingRules()
	if f != nil {
		f(r)
	}
	return r
}

// amounts is what a test compares of an order.
type amounts struct {
	Discount, ItemsDiscount, TotalDiscount, Total, Applied, ItemsApplied, TotalApplied int64
}

func amountsOf(o *order.Order) amounts {
	return amounts{o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount, o.TotalAmount,
		o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount, o.TotalAppliedDiscountAmount}
}

// TestEvaluateE10 reproduces promotion-engine E10 ("True - 5 Redeemables"):
// each step's cumulative amounts and own applied amounts, and the final
// order whose applied amounts sum every redeemable.
func TestEvaluateE10(t *testing.T) {
	t.Parallel()
	gift := Candidate{Object: ObjectVoucher, ID: "M3X8IwW8", Gift: &GiftCard{Balance: 5000, Credits: promotype.Ptr[int64](100), Effect: discount.ApplyToOrder}}
	loyalty := Candidate{Object: ObjectVoucher, ID: "AnsvocvP", Loyalty: &LoyaltyCard{Balance: 100, Points: 4}}
	cands := []Candidate{itemsOff("GNcuPKGe", "1000"), loyalty, gift, percentOff("promo_40", "40"), amountOff("promo_30", "30")}
	cands[4].Object = ObjectPromotionTier
	rules := rulesWith(func(r *StackingRules) { r.ApplicableRedeemablesLimit = 30 })
	out := Evaluate(rules, cands, Request{Order: cart(t, 0, 2000, 700)})
	want := []amounts{
		{0, 1700, 1700, 1000, 0, 1700, 1700},
		{0, 1700, 1700, 1000, 0, 0, 0},
		{100, 1700, 1800, 900, 100, 0, 100},
		{460, 1700, 2160, 540, 360, 0, 360},
		{490, 1700, 2190, 510, 30, 0, 30},
	}
	if !out.Valid {
		t.Fatalf("valid = false: %+v", out.Steps)
	}
	var got []amounts
	for _, st := range out.Steps {
		if st.Status != Applicable {
			t.Fatalf("%s: %s %+v", st.Candidate.ID, st.Status, st.Details)
		}
		got = append(got, amountsOf(st.Order))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(amounts{490, 1700, 2190, 510, 490, 1700, 2190}, amountsOf(out.Order)); diff != "" {
		t.Errorf("final order (-want +got):\n%s", diff)
	}
	if out.Steps[1].Points != 4 || out.Steps[2].Credits != 100 {
		t.Errorf("points %d, credits %d; want 4 and 100", out.Steps[1].Points, out.Steps[2].Credits)
	}
	lines := []int64{out.Order.Items[0].AppliedDiscountAmount, out.Order.Items[1].AppliedDiscountAmount}
	if diff := cmp.Diff([]int64{1000, 700}, lines); diff != "" {
		t.Errorf("final lines' applied discount (-want +got):\n%s", diff)
	}
}

// TestEvaluateWorkedExamples: W1 (gift credits, then 20% of the running
// total, then a fixed amount) and W3 (an amount capped by what an earlier
// redemption left of the order).
func TestEvaluateWorkedExamples(t *testing.T) {
	t.Parallel()
	w3 := cart(t, 10000)
	w3.DiscountAmount = 9200
	w3.Recompute()
	tests := []struct {
		name  string
		order *order.Order
		cands []Candidate
		steps []int64 // each redeemable's applied amount
		final amounts
	}{
		{"W1", cart(t, 200000), []Candidate{
			{Object: ObjectVoucher, ID: "dBj56oqJ", Gift: &GiftCard{Balance: 20500, Credits: promotype.Ptr[int64](100)}},
			percentOff("39vnjyS8", "20"), amountOff("promo_wtS1", "8000"),
		}, []int64{100, 39980, 8000}, amounts{48080, 0, 48080, 151920, 48080, 0, 48080}},
		{"W3", w3, []Candidate{amountOff("a2pl4qJw", "1000")}, []int64{800}, amounts{10000, 0, 10000, 0, 800, 0, 800}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := Evaluate(DefaultStackingRules(), tc.cands, Request{Order: tc.order})
			var got []int64
			for _, st := range out.Steps {
				if st.Status != Applicable {
					t.Fatalf("%s: %s", st.Candidate.ID, st.Status)
				}
				got = append(got, st.Order.TotalAppliedDiscountAmount)
			}
			if diff := cmp.Diff(tc.steps, got); diff != "" {
				t.Errorf("applied per step (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.final, amountsOf(out.Order)); diff != "" {
				t.Errorf("final order (-want +got):\n%s", diff)
			}
		})
	}
}

// outcome is a compact view of an evaluation: each step as
// "id:STATUS[:key]" in application order, and the final total.
func outcome(out *Outcome) ([]string, int64) {
	var s []string
	for _, st := range out.Steps {
		v := st.Candidate.ID + ":" + string(st.Status)
		if st.Details != nil {
			v += ":" + st.Details.Key
		}
		s = append(s, v)
	}
	return s, out.Order.TotalAmount
}

// TestStackingRuleFields has a case per stacking-rule field that changes
// an evaluation (the request-level redeemables_limit is a 400, tested on
// the service; the rollback mode concerns rollbacks).
func TestStackingRuleFields(t *testing.T) {
	t.Parallel()
	notFound := Candidate{Object: ObjectVoucher, ID: "gone", Err: promotype.NotFound("voucher", "gone")}
	tests := []struct {
		name  string
		rules func(r *StackingRules)
		cands []Candidate
		want  []string
		total int64
		valid bool
	}{
		{"applicable_redeemables_limit", func(r *StackingRules) { r.ApplicableRedeemablesLimit = 2 },
			[]Candidate{amountOff("a", "100"), amountOff("b", "100"), amountOff("c", "100")},
			[]string{"a:APPLICABLE", "b:APPLICABLE", "c:SKIPPED:applicable_redeemables_limit_exceeded"}, 9800, true},
		{"applicable_redeemables_per_category_limit default 1", nil,
			[]Candidate{inCat(amountOff("a", "100"), "cat_a", 1), inCat(amountOff("b", "100"), "cat_a", 1), amountOff("c", "100"), amountOff("d", "100")},
			[]string{"a:APPLICABLE", "b:SKIPPED:applicable_redeemables_per_category_limit_exceeded", "c:APPLICABLE", "d:APPLICABLE"}, 9700, true},
		{"applicable_redeemables_per_category_limit 2", func(r *StackingRules) { r.ApplicableRedeemablesPerCategoryLimit = 2 },
			[]Candidate{inCat(amountOff("a", "100"), "cat_a", 1), inCat(amountOff("b", "100"), "cat_a", 1)},
			[]string{"a:APPLICABLE", "b:APPLICABLE"}, 9800, true},
		{"applicable_redeemables_category_limits overrides", func(r *StackingRules) {
			r.ApplicableRedeemablesCategoryLimits = map[string]int{"cat_a": 2}
		},
			[]Candidate{inCat(amountOff("a", "100"), "cat_a", 1), inCat(amountOff("b", "100"), "cat_a", 1), inCat(amountOff("c", "100"), "cat_a", 1)},
			[]string{"a:APPLICABLE", "b:APPLICABLE", "c:SKIPPED:applicable_redeemables_per_category_limit_exceeded"}, 9800, true},
		{"applicable_exclusive_redeemables_limit", func(r *StackingRules) { r.ExclusiveCategories = []string{"cat_x", "cat_y"} },
			[]Candidate{inCat(amountOff("x", "100"), "cat_x", 1), inCat(amountOff("y", "100"), "cat_y", 1)},
			[]string{"x:APPLICABLE", "y:SKIPPED:applicable_exclusive_redeemables_limit_exceeded"}, 9900, true},
		{"applicable_exclusive_redeemables_per_category_limit", func(r *StackingRules) {
			r.ExclusiveCategories, r.ApplicableExclusiveRedeemablesLimit, r.ApplicableRedeemablesPerCategoryLimit = []string{"cat_x"}, 2, 2
		},
			[]Candidate{inCat(amountOff("x1", "100"), "cat_x", 1), inCat(amountOff("x2", "100"), "cat_x", 1)},
			[]string{"x1:APPLICABLE", "x2:SKIPPED:applicable_exclusive_redeemables_per_category_limit_exceeded"}, 9900, true},
		{"exclusive_categories withdraw common ones, whatever their order", func(r *StackingRules) { r.ExclusiveCategories = []string{"cat_x"} },
			[]Candidate{amountOff("common", "100"), inCat(amountOff("x", "500"), "cat_x", 1), notFound},
			[]string{"common:SKIPPED:exclusion_rules_not_met", "x:APPLICABLE", "gone:INAPPLICABLE:not_found"}, 9500, true},
		{"joint_categories stack with exclusive ones and apply last", func(r *StackingRules) {
			r.ExclusiveCategories, r.JointCategories = []string{"cat_x"}, []string{"cat_j"}
		},
			[]Candidate{inCat(percentOff("j", "10"), "cat_j", 1), inCat(amountOff("x", "1000"), "cat_x", 1), amountOff("common", "100")},
			[]string{"x:APPLICABLE", "common:SKIPPED:exclusion_rules_not_met", "j:APPLICABLE"}, 8100, true},
		{"redeemables_application_mode ALL", func(r *StackingRules) { r.RedeemablesApplicationMode = ModeAll },
			[]Candidate{amountOff("a", "100"), notFound, amountOff("b", "100")},
			[]string{"a:APPLICABLE", "gone:INAPPLICABLE:not_found", "b:SKIPPED:preceding_validation_failed"}, 9900, false},
		{"redeemables_application_mode PARTIAL", nil,
			[]Candidate{amountOff("a", "100"), notFound, amountOff("b", "100")},
			[]string{"a:APPLICABLE", "gone:INAPPLICABLE:not_found", "b:APPLICABLE"}, 9800, true},
		{"PARTIAL with nothing applicable", nil, []Candidate{notFound}, []string{"gone:INAPPLICABLE:not_found"}, 10000, false},
		{"redeemables_sorting_rule CATEGORY_HIERARCHY", func(r *StackingRules) {
			r.RedeemablesSortingRule, r.ApplicableRedeemablesPerCategoryLimit = SortCategoryHierarchy, 5
		},
			[]Candidate{inCat(percentOff("h2", "10"), "cat_2", 2), amountOff("none", "1000"), inCat(amountOff("h0", "2000"), "cat_0", 0)},
			[]string{"h0:APPLICABLE", "none:APPLICABLE", "h2:APPLICABLE"}, 6300, true},
		{"redeemables_sorting_rule REQUESTED_ORDER", nil,
			[]Candidate{inCat(percentOff("h2", "10"), "cat_2", 2), amountOff("none", "1000"), inCat(amountOff("h0", "2000"), "cat_0", 0)},
			[]string{"h2:APPLICABLE", "none:APPLICABLE", "h0:APPLICABLE"}, 6000, true},
		{"discount_calculation_mode INITIAL_AMOUNT", func(r *StackingRules) { r.DiscountCalculationMode = CalcInitialAmount },
			[]Candidate{percentOff("p10", "10"), percentOff("p20", "20")},
			[]string{"p10:APPLICABLE", "p20:APPLICABLE"}, 7000, true},
		{"discount_calculation_mode DISCOUNTED_AMOUNT", nil,
			[]Candidate{percentOff("p10", "10"), percentOff("p20", "20")},
			[]string{"p10:APPLICABLE", "p20:APPLICABLE"}, 7200, true},
		{"initial_amount_mode_categories", func(r *StackingRules) { r.InitialAmountModeCategories = []string{"cat_i"} },
			[]Candidate{percentOff("p10", "10"), inCat(percentOff("p20", "20"), "cat_i", 1)},
			[]string{"p10:APPLICABLE", "p20:APPLICABLE"}, 7000, true},
		{"discounted_amount_mode_categories", func(r *StackingRules) {
			r.DiscountCalculationMode, r.DiscountedAmountModeCategories = CalcInitialAmount, []string{"cat_d"}
		},
			[]Candidate{percentOff("p10", "10"), inCat(percentOff("p20", "20"), "cat_d", 1)},
			[]string{"p10:APPLICABLE", "p20:APPLICABLE"}, 7200, true},
		{"redeemables_products_application_mode ONCE", func(r *StackingRules) {
			r.RedeemablesProductsApplicationMode = ProductsOnce
		},
			[]Candidate{itemsOff("i1", "100", "prod_1"), itemsOff("i2", "100")},
			[]string{"i1:APPLICABLE", "i2:APPLICABLE"}, 9800, true},
		{"redeemables_products_application_mode STACK", nil,
			[]Candidate{itemsOff("i1", "100", "prod_1"), itemsOff("i2", "100")},
			[]string{"i1:APPLICABLE", "i2:APPLICABLE"}, 9700, true},
		{"redeemables_no_effect_rule SKIP", func(r *StackingRules) { r.RedeemablesNoEffectRule = NoEffectSkip },
			[]Candidate{itemsOff("none", "100", "prod_9"), amountOff("a", "100")},
			[]string{"none:SKIPPED:no_effect", "a:APPLICABLE"}, 9900, true},
		{"redeemables_no_effect_rule REDEEM_ANYWAY", nil,
			[]Candidate{itemsOff("none", "100", "prod_9"), amountOff("a", "100")},
			[]string{"none:APPLICABLE", "a:APPLICABLE"}, 9900, true},
		{"no_effect_skip_categories", func(r *StackingRules) { r.NoEffectSkipCategories = []string{"cat_s"} },
			[]Candidate{inCat(itemsOff("none", "100", "prod_9"), "cat_s", 1)},
			[]string{"none:SKIPPED:no_effect"}, 10000, false},
		{"no_effect_redeem_anyway_categories", func(r *StackingRules) {
			r.RedeemablesNoEffectRule, r.NoEffectRedeemAnywayCategories = NoEffectSkip, []string{"cat_r"}
		},
			[]Candidate{inCat(itemsOff("none", "100", "prod_9"), "cat_r", 1)},
			[]string{"none:APPLICABLE"}, 10000, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := Evaluate(rulesWith(tc.rules), tc.cands, Request{Order: cart(t, 0, 5000, 5000)})
			got, total := outcome(out)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			if total != tc.total || out.Valid != tc.valid {
				t.Errorf("total %d, valid %v; want %d, %v", total, out.Valid, tc.total, tc.valid)
			}
		})
	}
}

// TestEvaluateCards: gift credits and loyalty points, and their errors.
func TestEvaluateCards(t *testing.T) {
	t.Parallel()
	coin := &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("20"), PointsRatio: promotype.Ptr[int64](100)}
	tests := []struct {
		name    string
		order   *order.Order
		cand    Candidate
		want    string
		total   int64
		credits int64
	}{
		{"credits omitted: as much of the balance as the total takes", cart(t, 0, 5000),
			Candidate{ID: "g", Gift: &GiftCard{Balance: 8000}}, "g:APPLICABLE", 0, 5000},
		{"credits above the balance", cart(t, 0, 5000),
			Candidate{ID: "g", Gift: &GiftCard{Balance: 10, Credits: promotype.Ptr[int64](11)}}, "g:INAPPLICABLE:gift_amount_exceeded", 5000, 0},
		{"gift without an amount", cart(t, 0),
			Candidate{ID: "g", Gift: &GiftCard{Balance: 10}}, "g:INAPPLICABLE:missing_amount", 0, 0},
		{"gift on items: largest remainder over the subtotals", cart(t, 0, 3300, 3400),
			Candidate{ID: "g", Gift: &GiftCard{Balance: 300, Effect: discount.ApplyToItems}}, "g:APPLICABLE", 6400, 300},
		{"gift on items none applies to", cart(t, 0, 3300),
			Candidate{ID: "g", Gift: &GiftCard{Balance: 300, Effect: discount.ApplyToItems},
				Applicability: &discount.Applicability{Included: []discount.Target{{Object: "product", ID: "prod_9", Effect: discount.ApplyToEvery}}}},
			"g:INAPPLICABLE:missing_order_items_amount", 3300, 0},
		{"pay with points: 300 points at 20/100", cart(t, 0, 6000),
			Candidate{ID: "l", Loyalty: &LoyaltyCard{Balance: 300, Points: 300, Coin: coin}}, "l:APPLICABLE", 0, 0},
		{"points above the balance", cart(t, 0, 6000),
			Candidate{ID: "l", Loyalty: &LoyaltyCard{Balance: 2, Points: 3, Coin: coin}}, "l:INAPPLICABLE:loyalty_card_points_exceeded", 6000, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.cand.Object = ObjectVoucher
			out := Evaluate(DefaultStackingRules(), []Candidate{tc.cand}, Request{Order: tc.order})
			got, total := outcome(out)
			if diff := cmp.Diff([]string{tc.want}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if total != tc.total || out.Steps[0].Credits != tc.credits {
				t.Errorf("total %d, credits %d; want %d, %d", total, out.Steps[0].Credits, tc.total, tc.credits)
			}
		})
	}
}

// TestEvaluateStackProperty: with no limits in the way, the cumulative
// order of a stack equals applying its redeemables one by one, each
// step's applied amount is what it added, and no amount goes negative nor
// any discount above what it applies to.
func TestEvaluateStackProperty(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(14, 2026))
	rules := rulesWith(func(r *StackingRules) { r.ApplicableRedeemablesLimit = 30 })
	for n := range 300 {
		var prices []int64
		for range 1 + rng.IntN(6) {
			prices = append(prices, int64(rng.IntN(5000)))
		}
		base := cart(t, 0, prices...)
		var cands []Candidate
		for k := range 1 + rng.IntN(6) {
			id := fmt.Sprintf("r%d", k)
			switch rng.IntN(4) {
			case 0:
				cands = append(cands, amountOff(id, fmt.Sprint(rng.IntN(3000))))
			case 1:
				cands = append(cands, percentOff(id, fmt.Sprint(rng.IntN(101))))
			case 2:
				cands = append(cands, itemsOff(id, fmt.Sprint(rng.IntN(3000))))
			default:
				cands = append(cands, Candidate{Object: ObjectVoucher, ID: id, Gift: &GiftCard{Balance: int64(rng.IntN(4000))}})
			}
		}
		out := Evaluate(rules, cands, Request{Order: base})

		seq := base.Fork()
		var sum int64
		for i, c := range cands {
			seq.ResetApplied()
			before := seq.TotalDiscountAmount
			if c.Gift != nil {
				seq.ApplyOrderDiscount(c.Gift.Balance)
			} else if _, err := discount.Apply(seq, c.Discount, c.Applicability, nil); err != nil {
				t.Fatal(err)
			}
			st := out.Steps[i]
			if st.Status != Applicable {
				t.Fatalf("case %d: %s is %s", n, c.ID, st.Status)
			}
			if got, want := st.Order.TotalAppliedDiscountAmount, seq.TotalDiscountAmount-before; got != want {
				t.Fatalf("case %d step %d: applied %d, want %d", n, i, got, want)
			}
			sum += st.Order.TotalAppliedDiscountAmount
		}
		if diff := cmp.Diff(amountsOf(seq).Total, out.Order.TotalAmount); diff != "" {
			t.Fatalf("case %d: total (-sequential +stack):\n%s", n, diff)
		}
		if out.Order.TotalAppliedDiscountAmount != sum || out.Order.TotalDiscountAmount != sum {
			t.Fatalf("case %d: final applied %d, discount %d, Σ steps %d", n, out.Order.TotalAppliedDiscountAmount, out.Order.TotalDiscountAmount, sum)
		}
		checkMoney(t, n, out.Order)
		for _, st := range out.Steps {
			checkMoney(t, n, st.Order)
		}
	}
}

func checkMoney(t *testing.T, n int, o *order.Order) {
	t.Helper()
	if o.TotalAmount < 0 || o.DiscountAmount < 0 || o.TotalDiscountAmount > o.Amount {
		t.Fatalf("case %d: order amounts %+v", n, amountsOf(o))
	}
	for i, it := range o.Items {
		if it.DiscountAmount < 0 || it.DiscountAmount > it.Amount || it.SubtotalAmount < 0 || it.AppliedDiscountAmount < 0 {
			t.Fatalf("case %d line %d: amount %d discount %d subtotal %d", n, i, it.Amount, it.DiscountAmount, it.SubtotalAmount)
		}
	}
}
