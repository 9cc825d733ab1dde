package redemption

import (
	"fmt"
	"math/rand/v2"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
)

// choices draws decisions from bytes (a fuzzer's input: each byte steers
// one decision, zero once they run out) so the same generator serves the
// fuzz target and the seeded property tests.
type choices struct{ data []byte }

// n returns a number in [0, k).
func (c *choices) n(k int) int {
	if k <= 1 {
		return 0
	}
	if len(c.data) == 0 {
		return 0
	}
	b := int(c.data[0])
	c.data = c.data[1:]
	if k > 256 { // two bytes for wide ranges
		b = b<<8 | c.n(256)
	}
	return b % k
}

func (c *choices) bool() bool { return c.n(2) == 1 }

// randomBytes is a seeded byte string for choices.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

// scenario is one generated evaluation: stacking rules, candidates and
// the request, and the rule sets the candidates' programs were compiled
// from (by RuleID).
type scenario struct {
	rules *StackingRules
	cands []Candidate
	req   Request
	sets  map[string]rule.RuleSet
}

var fuzzCategories = []string{"cat_a", "cat_b", "cat_c"}

// genScenario builds a scenario from c: random stacking rules (limits,
// modes, exclusive and joint categories), up to 8 redeemables (amount,
// percent, fixed and unit discounts on the order or the items, gift
// credits, loyalty points, unusable ones, with categories and rules) and
// a cart of up to 8 lines.
func genScenario(c *choices) scenario {
	s := scenario{sets: map[string]rule.RuleSet{}}
	r := DefaultStackingRules()
	r.ApplicableRedeemablesLimit = 1 + c.n(30)
	r.ApplicableRedeemablesPerCategoryLimit = 1 + c.n(r.ApplicableRedeemablesLimit)
	r.ApplicableExclusiveRedeemablesLimit = 1 + c.n(5)
	r.ApplicableExclusiveRedeemablesPerCategoryLimit = 1 + c.n(r.ApplicableExclusiveRedeemablesLimit)
	for _, cat := range fuzzCategories {
		switch c.n(4) {
		case 1:
			r.ExclusiveCategories = append(r.ExclusiveCategories, cat)
		case 2:
			r.JointCategories = append(r.JointCategories, cat)
		}
		if c.n(4) == 0 {
			r.ApplicableRedeemablesCategoryLimits[cat] = 1 + c.n(10)
		}
		switch c.n(4) {
		case 1:
			r.InitialAmountModeCategories = append(r.InitialAmountModeCategories, cat)
		case 2:
			r.DiscountedAmountModeCategories = append(r.DiscountedAmountModeCategories, cat)
		}
		switch c.n(4) {
		case 1:
			r.NoEffectSkipCategories = append(r.NoEffectSkipCategories, cat)
		case 2:
			r.NoEffectRedeemAnywayCategories = append(r.NoEffectRedeemAnywayCategories, cat)
		}
	}
	r.RedeemablesApplicationMode = []string{ModePartial, ModeAll}[c.n(2)]
	r.RedeemablesSortingRule = []string{SortRequestedOrder, SortCategoryHierarchy}[c.n(2)]
	r.DiscountCalculationMode = []string{CalcDiscountedAmount, CalcInitialAmount}[c.n(2)]
	r.RedeemablesProductsApplicationMode = []string{ProductsStack, ProductsOnce}[c.n(2)]
	r.RedeemablesNoEffectRule = []string{NoEffectRedeemAnyway, NoEffectSkip}[c.n(2)]
	s.rules = r

	o := &order.Order{Object: "order"}
	for i := range c.n(9) {
		p := int64(c.n(10001))
		q := int64(1 + c.n(5))
		o.Items = append(o.Items, order.Item{Object: "order_item", ProductID: fmt.Sprintf("prod_%d", 1+i%4), Price: &p,
			Quantity: q, InitialQuantity: q, Amount: p * q, InitialAmount: p * q})
		o.Amount += p * q
	}
	if len(o.Items) == 0 || c.n(8) == 0 {
		o.Amount = int64(c.n(50001)) // an order amount sent without (or instead of) lines
	}
	o.InitialAmount = o.Amount
	o.Recompute()
	s.req = Request{Order: o, Customer: promotype.Metadata{"tier": []string{"gold", "silver"}[c.n(2)]}}

	for k := range 1 + c.n(8) {
		s.cands = append(s.cands, genCandidate(c, k, s.sets))
	}
	return s
}

var effects = []discount.Effect{discount.ApplyToOrder, discount.ApplyToItems, discount.ApplyToItemsProportionally,
	discount.ApplyToItemsProportionallyByQuantity, discount.ApplyToItemsByQuantity}

func genCandidate(c *choices, k int, sets map[string]rule.RuleSet) Candidate {
	cd := Candidate{Object: []string{ObjectVoucher, ObjectPromotionTier}[c.n(2)], ID: fmt.Sprintf("r%d", k)}
	if c.n(3) > 0 {
		cd.CategoryID = fuzzCategories[c.n(len(fuzzCategories))]
		cd.Hierarchy = c.n(4)
	}
	num := func(max int) *promotype.Decimal { return dec(fmt.Sprint(c.n(max + 1))) }
	switch c.n(9) {
	case 0:
		cd.Discount = &discount.Discount{Type: discount.Amount, AmountOff: num(5000), Effect: effects[c.n(len(effects))]}
	case 1:
		cd.Discount = &discount.Discount{Type: discount.Percent, PercentOff: num(100), Effect: effects[c.n(2)]}
		if c.bool() {
			cd.Discount.AmountLimit = num(3000)
		}
	case 2:
		cd.Discount = &discount.Discount{Type: discount.Fixed, FixedAmount: num(20000), Effect: effects[c.n(2)]}
	case 3:
		off := int64(1 + c.n(3))
		cd.Discount = &discount.Discount{Type: discount.Unit, UnitOff: &off, UnitType: fmt.Sprintf("prod_%d", 1+c.n(6)),
			Effect: []discount.Effect{discount.AddMissingItems, discount.AddNewItems}[c.n(2)]}
		cd.Catalog = func(unit string) (order.Item, bool) {
			p := int64(250)
			return order.Item{Object: "order_item", ProductID: unit, Price: &p}, unit != "prod_6"
		}
	case 4, 5:
		g := &GiftCard{Balance: int64(c.n(20001)), Effect: []discount.Effect{discount.ApplyToOrder, discount.ApplyToItems}[c.n(2)]}
		if c.bool() {
			credits := int64(c.n(25001))
			g.Credits = &credits
		}
		cd.Object, cd.Gift = ObjectVoucher, g
	case 6:
		l := &LoyaltyCard{Balance: int64(c.n(1001)), Points: int64(c.n(1201))}
		if c.bool() {
			l.Coin = &reward.CoinParams{ExchangeRatio: *dec(fmt.Sprint(1 + c.n(3)))}
		}
		cd.Object, cd.Loyalty = ObjectVoucher, l
	case 7:
		cd.Err = promotype.BadRequest("voucher_expired", "voucher expired", "%s", cd.ID)
	default:
		cd.Discount = &discount.Discount{Type: discount.Amount, AmountOff: num(2000), Effect: discount.ApplyToItems}
	}
	if cd.Discount != nil && cd.Discount.Effect != discount.ApplyToOrder && cd.Discount.Type != discount.Unit {
		cd.Applicability = &discount.Applicability{IncludedAll: true}
		if c.bool() {
			cd.Applicability = &discount.Applicability{Included: []discount.Target{{Object: "product", ID: fmt.Sprintf("prod_%d", 1+c.n(4)),
				Effect: discount.ApplyToEvery}}}
		}
	}
	if cd.Gift != nil && cd.Gift.Effect == discount.ApplyToItems && c.bool() {
		cd.Applicability = &discount.Applicability{Included: []discount.Target{{Object: "product", ID: fmt.Sprintf("prod_%d", 1+c.n(4)),
			Effect: discount.ApplyToEvery}}}
	}
	if cd.Discount != nil {
		if err := cd.Discount.Validate(".discount"); err != nil {
			panic(fmt.Sprintf("generated discount is invalid: %v", err))
		}
	}
	for j := range c.n(3) {
		id := fmt.Sprintf("val_%d_%d", k, j)
		set := genRuleSet(c)
		p, err := rule.Compile(set, "")
		if err != nil {
			panic(fmt.Sprintf("generated rule set does not compile: %v", err))
		}
		p.RuleID = id
		sets[id] = set
		cd.Programs = append(cd.Programs, p)
	}
	return cd
}

// genRuleSet is one or two rules on the running order (amount, units,
// an item) or the customer's metadata, joined by and/or.
func genRuleSet(c *choices) rule.RuleSet {
	ops := []string{"$more_than", "$less_than", "$is", "$is_not", "$more_than_or_equal"}
	prop := "tier"
	one := func() rule.Rule {
		switch c.n(4) {
		case 0:
			return rule.Rule{Name: "order.amount", Conditions: map[string][]any{ops[c.n(len(ops))]: {float64(c.n(40001))}}}
		case 1:
			return rule.Rule{Name: "order.items.count", Conditions: map[string][]any{ops[c.n(len(ops))]: {float64(c.n(12))}}}
		case 2:
			return rule.Rule{Name: "customer.metadata", Property: &prop, Conditions: map[string][]any{"$is": {[]string{"gold", "silver"}[c.n(2)]}}}
		}
		return rule.Rule{Name: "order.items.any", Conditions: map[string][]any{"$is": {map[string]any{"id": fmt.Sprintf("prod_%d", 1+c.n(5)), "object": "product"}}}}
	}
	set := rule.RuleSet{Logic: "1", Rules: map[string]rule.Rule{"1": one()}}
	if c.bool() {
		set.Rules["2"] = one()
		set.Logic = []string{"1 and 2", "1 or 2"}[c.n(2)]
	}
	return set
}
