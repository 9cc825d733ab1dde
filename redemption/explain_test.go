package redemption

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// checkExplanation checks step i of an explained outcome: an applicable
// step has no explanation, any other one has one whose reason is its
// details' key; a rule the explanation names fails when evaluated alone
// on the running order the step met, and a limit's position is above it.
func checkExplanation(t *testing.T, s scenario, out *Outcome, i int) {
	t.Helper()
	st := out.Steps[i]
	x := st.Explanation
	if st.Status == Applicable {
		if x != nil {
			t.Fatalf("step %d: applicable with an explanation %+v", i, x)
		}
		return
	}
	if x == nil || x.Reason != st.Details.Key {
		t.Fatalf("step %d (%s %s): explanation %+v", i, st.Status, st.Details.Key, x)
	}
	// The running order the step met: of the walk that decided it (a
	// common redeemable that failed before an exclusive one withdrew the
	// others keeps the first walk's step).
	walk := out.Steps
	ev := &evaluator{rules: s.rules, cands: s.cands, req: s.req}
	for _, o := range out.Steps {
		if o.Details == skipExclusion && ev.kind(st.Candidate) == common && st.Status == Inapplicable {
			walk, _ = ev.walk(ev.sort(), make([]bool, len(s.cands)), nil)
			break
		}
	}
	running := s.req.Order
	for _, prev := range walk {
		if prev.Candidate == st.Candidate {
			break
		}
		if prev.Status == Applicable {
			running = prev.Order
		}
	}
	rules := 0
	for _, ch := range x.Checks {
		switch {
		case ch.RuleID != "":
			rules++
			set, ok := s.sets[ch.RuleID]
			if !ok {
				t.Fatalf("step %d: check names unknown rule %q", i, ch.RuleID)
			}
			top, _, _ := strings.Cut(ch.Rule, ".")
			alone, err := rule.Compile(rule.RuleSet{Logic: "1", Rules: map[string]rule.Rule{"1": set.Rules[top]}}, "")
			if err != nil {
				t.Fatal(err)
			}
			in := promotion.RuleInput(running, s.req.Customer, s.req.Redemption)
			in.Amount = running.TotalAmount
			ok, _ = alone.Eval(in)
			promotion.ReleaseInput(in)
			if ok {
				t.Fatalf("step %d: rule %s %s of %s explained as failed passes alone", i, ch.Rule, ch.Subject, ch.RuleID)
			}
		case strings.HasSuffix(ch.Subject, "_limit") || ch.Subject == "applicable_redeemables_category_limits":
			if ch.Actual.(int) <= ch.Expected.(int) {
				t.Fatalf("step %d: %s: position %v within limit %v", i, ch.Subject, ch.Actual, ch.Expected)
			}
		}
	}
	if (x.Reason == "order_rules_violated" || x.Reason == "customer_rules_violated") && rules == 0 {
		t.Fatalf("step %d: %s without a rule", i, x.Reason)
	}
	if x.Reason == "customer_rules_violated" {
		for _, ch := range x.Checks {
			if ch.Subject == "customer.metadata" {
				return
			}
		}
		t.Fatalf("step %d: customer_rules_violated without a customer rule: %+v", i, x.Checks)
	}
}

// TestExplainEvaluate: the explanation of each kind of reason, as the
// answer shows it.
func TestExplainEvaluate(t *testing.T) {
	t.Parallel()
	bigCart, err := rule.Compile(rule.RuleSet{Logic: "1", Rules: map[string]rule.Rule{
		"1": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {10000.0}}}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	bigCart.RuleID = "val_big"
	withRule := amountOff("big", "100")
	withRule.Programs = []*rule.Program{bigCart}
	credits := int64(600)
	tests := []struct {
		name  string
		rules *StackingRules
		cands []Candidate
		want  map[string]*Explanation // by candidate id; the others applicable
	}{
		{"limit 2, position 3", rulesWith(func(r *StackingRules) { r.ApplicableRedeemablesLimit = 2 }),
			[]Candidate{amountOff("a", "100"), amountOff("b", "100"), amountOff("c", "100")},
			map[string]*Explanation{"c": {Reason: "applicable_redeemables_limit_exceeded", Checks: []Check{
				{Subject: "applicable_redeemables_limit", Condition: "$less_than_or_equal", Expected: 2, Actual: 3}}}}},
		{"a rule", nil, []Candidate{withRule},
			map[string]*Explanation{"big": {Reason: "order_rules_violated", Checks: []Check{
				{RuleID: "val_big", Rule: "1", Subject: "order.amount", Condition: "$more_than", Expected: []any{10000.0}, Actual: int64(3000)}}}}},
		{"gift credits above the balance", nil,
			[]Candidate{{Object: ObjectVoucher, ID: "gift", Gift: &GiftCard{Balance: 500, Credits: &credits}}},
			map[string]*Explanation{"gift": {Reason: "gift_amount_exceeded", Checks: []Check{
				{Subject: "gift.credits", Condition: "$less_than_or_equal", Expected: int64(500), Actual: int64(600)}}}}},
		{"after a failure under ALL", rulesWith(func(r *StackingRules) { r.RedeemablesApplicationMode = ModeAll }),
			[]Candidate{withRule, amountOff("a", "100")},
			map[string]*Explanation{
				"big": {Reason: "order_rules_violated", Checks: []Check{
					{RuleID: "val_big", Rule: "1", Subject: "order.amount", Condition: "$more_than", Expected: []any{10000.0}, Actual: int64(3000)}}},
				"a": {Reason: "preceding_validation_failed", Checks: []Check{
					{Subject: "preceding_redeemable", Property: "big", Condition: "$is", Expected: "APPLICABLE", Actual: "INAPPLICABLE"}}}}},
		{"excluded by an exclusive one", rulesWith(func(r *StackingRules) { r.ExclusiveCategories = []string{"cat_x"} }),
			[]Candidate{amountOff("a", "100"), inCat(amountOff("x", "100"), "cat_x", 1)},
			map[string]*Explanation{"a": {Reason: "exclusion_rules_not_met", Checks: []Check{
				{Subject: "exclusive_redeemables_applied", Condition: "$is", Expected: []string{}, Actual: []string{"x"}}}}}},
		{"no effect", rulesWith(func(r *StackingRules) { r.RedeemablesNoEffectRule = NoEffectSkip }),
			[]Candidate{amountOff("zero", "0")},
			map[string]*Explanation{"zero": {Reason: "no_effect", Checks: []Check{
				{Subject: "applied_discount_amount", Condition: "$more_than", Expected: int64(0), Actual: int64(0)}}}}},
		{"unusable, explained by its resolver", nil,
			[]Candidate{{Object: ObjectVoucher, ID: "old", Err: promotype.BadRequest("voucher_expired", "voucher expired", "old"),
				Explanation: explained("voucher_expired", Check{Subject: "voucher.expiration_date"})}},
			map[string]*Explanation{"old": {Reason: "voucher_expired", Checks: []Check{{Subject: "voucher.expiration_date"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rules := tt.rules
			if rules == nil {
				rules = DefaultStackingRules()
			}
			out := Evaluate(rules, tt.cands, Request{Order: cart(t, 0, 1000, 2000), Explain: true})
			got := map[string]*Explanation{}
			for _, st := range out.Steps {
				if st.Explanation != nil {
					got[st.Candidate.ID] = st.Explanation
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("explanations (-want +got):\n%s", diff)
			}
			off := Evaluate(rules, tt.cands, Request{Order: cart(t, 0, 1000, 2000)})
			for _, st := range off.Steps {
				if st.Explanation != nil {
					t.Errorf("%s: explained without Explain", st.Candidate.ID)
				}
			}
		})
	}
}

// TestExplainResolverErrorWithoutExplanation: a candidate given with an
// error but no explanation is explained by its key alone, whatever the
// key (an effect's key without the effect must not be read).
func TestExplainResolverErrorWithoutExplanation(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"gift_amount_exceeded", "loyalty_card_points_exceeded", "voucher_expired"} {
		c := Candidate{Object: ObjectVoucher, ID: "v", Err: promotype.BadRequest(key, key, "v")}
		out := Evaluate(DefaultStackingRules(), []Candidate{c}, Request{Order: cart(t, 0, 1000), Explain: true})
		if diff := cmp.Diff(explained(key), out.Steps[0].Explanation); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
}
