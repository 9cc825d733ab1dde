package rule

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promoengine/promo/promotype"
)

func compileJS(t *testing.T, js string) *Program {
	t.Helper()
	var set RuleSet
	if err := json.Unmarshal([]byte(js), &set); err != nil {
		t.Fatal(err)
	}
	p, err := Compile(set, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExplain: each failed program names the rules that decided it, the
// condition that failed and the value the cart held.
func TestExplain(t *testing.T) {
	t.Parallel()
	p1 := ItemRef{ID: "p1", Object: "product"}
	p3 := ItemRef{ID: "p3", Object: "product"}
	tests := []struct {
		name string
		js   string
		want []Failure
	}{
		{"passes", one("order.amount", "", `{"$more_than":[4000]}`), nil},
		{"amount", one("order.amount", "", `{"$more_than":[5000]}`),
			[]Failure{{Rule: "1", Name: "order.amount", Condition: "$more_than", Expected: []any{5000.0}, Actual: int64(4700)}}},
		{"second condition of two", one("order.amount", "", `{"$more_than":[1000],"$less_than":[2000]}`),
			[]Failure{{Rule: "1", Name: "order.amount", Condition: "$less_than", Expected: []any{2000.0}, Actual: int64(4700)}}},
		{"metadata value", one("customer.metadata", "tier", `{"$in":["silver","bronze"]}`),
			[]Failure{{Rule: "1", Name: "customer.metadata", Property: "tier", Condition: "$in", Expected: []any{"silver", "bronze"}, Actual: "gold"}}},
		{"metadata missing", one("order.metadata", "nope", `{"$is":["x"]}`),
			[]Failure{{Rule: "1", Name: "order.metadata", Property: "nope", Condition: "$is", Expected: []any{"x"}, Actual: nil}}},
		{"items count", one("order.items.count", "", `{"$more_than":[5]}`),
			[]Failure{{Rule: "1", Name: "order.items.count", Condition: "$more_than", Expected: []any{5.0}, Actual: int64(3)}}},
		{"price each: the first line that fails", one("order.items.price_each", "", `{"$more_than":[1000]}`),
			[]Failure{{Rule: "1", Name: "order.items.price_each", Condition: "$more_than", Expected: []any{1000.0}, Actual: int64(700)}}},
		{"and: the first failing operand",
			`{"logic":"1 and 2 and 3","1":{"name":"order.amount","conditions":{"$more_than":[1]}},` +
				`"2":{"name":"order.items.count","conditions":{"$is":[7]}},"3":{"name":"order.amount","conditions":{"$is":[1]}}}`,
			[]Failure{{Rule: "2", Name: "order.items.count", Condition: "$is", Expected: []any{7.0}, Actual: int64(3)}}},
		{"or: every operand",
			`{"logic":"(1 and 2) or 3","1":{"name":"order.amount","conditions":{"$more_than":[1]}},` +
				`"2":{"name":"order.items.count","conditions":{"$is":[7]}},"3":{"name":"order.amount","conditions":{"$is":[1]}}}`,
			[]Failure{
				{Rule: "2", Name: "order.items.count", Condition: "$is", Expected: []any{7.0}, Actual: int64(3)},
				{Rule: "3", Name: "order.amount", Condition: "$is", Expected: []any{1.0}, Actual: int64(4700)},
			}},
		{"or: a passing operand drops the failures before it",
			`{"logic":"(2 or 1) and 3","1":{"name":"order.amount","conditions":{"$more_than":[1]}},` +
				`"2":{"name":"order.items.count","conditions":{"$is":[7]}},"3":{"name":"order.amount","conditions":{"$is":[1]}}}`,
			[]Failure{{Rule: "3", Name: "order.amount", Condition: "$is", Expected: []any{1.0}, Actual: int64(4700)}}},
		{"item missing", one("order.items.any", "", `{"$is":[{"id":"p3","object":"product"}]}`),
			[]Failure{{Rule: "1", Name: "order.items.any", Condition: "$is", Expected: []any{p3}, Actual: nil}}},
		{"item present but its sub-rule fails",
			`{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"p1","object":"product"}]},` +
				`"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than":[5]}}}}}`,
			[]Failure{{Rule: "1.1", Name: "order.items.quantity", Condition: "$more_than", Expected: []any{5.0}, Actual: int64(2)}}},
		{"excluded item present", one("order.items.none", "", `{"$is":[{"id":"p1","object":"product"}]}`),
			[]Failure{{Rule: "1", Name: "order.items.none", Condition: "$is_not", Expected: []any{p1},
				Actual: ItemRef{ID: "s1", SourceID: "tshirt-m", Object: "sku"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := compileJS(t, tt.js)
			ok, _ := p.Eval(cart())
			if ok != (tt.want == nil) {
				t.Fatalf("Eval = %v, want %v", ok, tt.want == nil)
			}
			if diff := cmp.Diff(tt.want, p.Explain(cart())); diff != "" {
				t.Errorf("Explain (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExplainAgreesWithEval is a property test over random rule sets and
// carts: Explain is nil exactly when Eval passes; when Eval fails, every
// rule it names fails when evaluated alone, and a number condition's
// reported value really fails the reported condition.
func TestExplainAgreesWithEval(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(14, 2026))
	failed := 0
	for n := range 3000 {
		set := randomSet(rng)
		p, err := Compile(set, "")
		if err != nil {
			t.Fatalf("case %d: %v", n, err)
		}
		in := explainInput(rng)
		ok, _ := p.Eval(in)
		fs := p.Explain(in)
		if ok {
			if fs != nil {
				t.Fatalf("case %d: passes but explained %+v", n, fs)
			}
			continue
		}
		failed++
		if len(fs) == 0 {
			t.Fatalf("case %d: fails without an explanation (logic %q)", n, set.Logic)
		}
		for _, f := range fs {
			top, _, _ := strings.Cut(f.Rule, ".")
			alone, err := Compile(RuleSet{Logic: "1", Rules: map[string]Rule{"1": set.Rules[top]}}, "")
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := alone.Eval(in); ok {
				t.Fatalf("case %d: rule %s (%s) explained as failed passes alone", n, f.Rule, f.Name)
			}
			if f.Name == "order.amount" || f.Name == "order.items.count" {
				if numHolds([]cond{numCondOf(t, f)}, float64(f.Actual.(int64))) {
					t.Fatalf("case %d: %+v: the value holds the condition", n, f)
				}
			}
		}
	}
	if failed < 500 || failed > 2500 {
		t.Fatalf("%d of 3000 random sets failed: the generator does not exercise both verdicts", failed)
	}
}

// numCondOf rebuilds a number condition from an explanation.
func numCondOf(t *testing.T, f Failure) cond {
	t.Helper()
	c, err := compileCond("1", f.Name, f.Condition, f.Expected.([]any), kindNumber)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var numOps = []string{"$is", "$in", "$is_not", "$less_than", "$less_than_or_equal", "$more_than", "$more_than_or_equal"}

func randomSet(rng *rand.Rand) RuleSet {
	n := 1 + rng.IntN(5)
	set := RuleSet{Rules: map[string]Rule{}}
	for i := 1; i <= n; i++ {
		set.Rules[strconv.Itoa(i)] = randomRule(rng)
	}
	set.Logic = randomLogic(rng, 1, n)
	return set
}

// randomLogic combines keys lo..hi with and/or, parenthesised at random.
func randomLogic(rng *rand.Rand, lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	mid := lo + rng.IntN(hi-lo)
	op := []string{" and ", " or "}[rng.IntN(2)]
	s := randomLogic(rng, lo, mid) + op + randomLogic(rng, mid+1, hi)
	if rng.IntN(2) == 0 {
		s = "(" + s + ")"
	}
	return s
}

func randomRule(rng *rand.Rand) Rule {
	num := func() map[string][]any {
		op := numOps[rng.IntN(len(numOps))]
		vals := []any{float64(rng.IntN(5000))}
		if op == "$in" {
			vals = append(vals, float64(rng.IntN(5000)))
		}
		return map[string][]any{op: vals}
	}
	small := func() map[string][]any {
		return map[string][]any{numOps[rng.IntN(len(numOps))]: {float64(rng.IntN(6))}}
	}
	prop := "tier"
	ref := func() []any {
		return []any{map[string]any{"id": fmt.Sprintf("p%d", 1+rng.IntN(3)), "object": "product"}}
	}
	switch rng.IntN(7) {
	case 0:
		return Rule{Name: "order.amount", Conditions: num()}
	case 1:
		return Rule{Name: "order.items.count", Conditions: small()}
	case 2:
		op := []string{"$is", "$is_not", "$in"}[rng.IntN(3)]
		return Rule{Name: "customer.metadata", Property: &prop, Conditions: map[string][]any{op: {[]string{"gold", "silver"}[rng.IntN(2)]}}}
	case 3:
		return Rule{Name: "order.items.price_any", Conditions: num()}
	case 4:
		r := Rule{Name: []string{"order.items.any", "order.items.every", "order.items.none"}[rng.IntN(3)], Conditions: map[string][]any{"$is": ref()}}
		if rng.IntN(2) == 0 {
			r.Rules = RuleSet{Rules: map[string]Rule{"1": {Name: "order.items.quantity", Conditions: small()}}}
		}
		return r
	case 5:
		return Rule{Name: "order.items.cheapest", Conditions: map[string][]any{"$is": ref()}}
	}
	return Rule{Name: "order.items.price_each", Conditions: num()}
}

func explainInput(rng *rand.Rand) *Input {
	in := &Input{}
	switch rng.IntN(3) {
	case 0:
		in.Customer = AttrsOf(promotype.Metadata{"tier": "gold"})
	case 1:
		in.Customer = AttrsOf(promotype.Metadata{"tier": "silver"})
	}
	for range rng.IntN(4) {
		it := Item{ProductID: fmt.Sprintf("p%d", 1+rng.IntN(3)), Quantity: 1 + int64(rng.IntN(4)), Price: int64(rng.IntN(3000))}
		it.Amount = it.Price * it.Quantity
		in.Items = append(in.Items, it)
		in.Amount += it.Amount
	}
	in.InitialAmount, in.TotalAmount = in.Amount, in.Amount
	return in
}
