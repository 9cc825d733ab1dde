package rule

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

// set parses a rule set written as JSON, failing the test on bad JSON.
func set(t testing.TB, js string) RuleSet {
	t.Helper()
	var s RuleSet
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatalf("bad test JSON %s: %v", js, err)
	}
	return s
}

func compile(t testing.TB, js string) *Program {
	t.Helper()
	p, err := Compile(set(t, js), "set message")
	if err != nil {
		t.Fatalf("Compile(%s): %v", js, err)
	}
	return p
}

// The official example's rule set survives a JSON round trip.
func TestRuleSetJSON(t *testing.T) {
	t.Parallel()
	in := `{"1":{"name":"order.metadata","property":"location","conditions":{"$is":["Santorini"]},"rules":{},"error":{"message":"Your order must be placed at one of our Santorini shops."}},` +
		`"2":{"name":"order.items.every","property":null,"conditions":{"$is":[{"id":"prod_1","object":"product","source_id":"src","effect":"APPLY_TO_EVERY"}]},` +
		`"rules":{"1":{"name":"order.items.metadata","property":"test","conditions":{"$greater_than_or_equal":[1]},"rules":{}}}},"logic":"1 and 2"}`
	s := set(t, in)
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var again RuleSet
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, again); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	if _, err := Compile(s, ""); err != nil {
		t.Errorf("the official example does not compile: %v", err)
	}
	if d := cmp.Diff(s, s.Clone()); d != "" {
		t.Errorf("Clone (-want +got):\n%s", d)
	}
}

func TestLogic(t *testing.T) {
	t.Parallel()
	index := map[string]int{"1": 0, "2": 1, "3": 2, "4": 3}
	ok := []string{"1", " 1", "1 and 2", "1 or 2", "1 AND 2", "(1 and 2) and (3)", " 1 AND 2 AND (  3 AND 4 )", "1 or 2 and 3", "((1))"}
	for _, s := range ok {
		if _, err := parseLogic(s, index); err != nil {
			t.Errorf("parseLogic(%q): %v", s, err)
		}
	}
	bad := map[string]string{
		"not 1":        "not",
		"1 and 5":      `"5"`,
		"(1 and 2":     "unclosed",
		"1 and":        "ends too early",
		"1 2":          "unexpected",
		"and 1":        "unexpected",
		"1 xor 2":      "unexpected",
		"1 and (2 or)": "unexpected",
	}
	for s, want := range bad {
		_, err := parseLogic(s, index)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseLogic(%q) = %v, want an error about %s", s, err, want)
		}
	}
	if _, err := parseLogic(strings.Repeat("(", 100)+"1"+strings.Repeat(")", 100), index); err == nil {
		t.Error("deep nesting accepted")
	}
}

// and binds tighter than or: "1 or 2 and 3" is "1 or (2 and 3)".
func TestLogicPrecedence(t *testing.T) {
	t.Parallel()
	p := compile(t, `{"logic":"1 or 2 and 3",
		"1":{"name":"order.amount","conditions":{"$is":[1]}},
		"2":{"name":"order.amount","conditions":{"$more_than":[0]}},
		"3":{"name":"order.amount","conditions":{"$less_than":[0]}}}`)
	if ok, _ := p.Eval(&Input{Amount: 1}); !ok {
		t.Error("1 or (2 and 3) with 1 true must pass")
	}
	if ok, _ := p.Eval(&Input{Amount: 5}); ok {
		t.Error("1 or (2 and 3) with 1 and 3 false must fail")
	}
}

func TestCompileRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, js, want string }{
		{"unknown name", `{"logic":"1","1":{"name":"order.colour","conditions":{"$is":["red"]}}}`, "Rule 1 has an unknown name 'order.colour'"},
		{"segment $starts_with", `{"logic":"1","1":{"name":"customer.segment","conditions":{"$starts_with":["seg_"]}}}`, "supports only $is, $in, $is_not and $not_in"},
		{"segment number", `{"logic":"1","1":{"name":"customer.segment","conditions":{"$is":[7]}}}`, "takes segment ids (strings)"},
		{"per key counters not yet", `{"logic":"1","1":{"name":"redemption.count.per_api_key","conditions":{"$less_than":[2]}}}`, "not supported by this engine yet: it needs redemption history"},
		{"missing property", `{"logic":"1","1":{"name":"customer.metadata","conditions":{"$is":["x"]}}}`, "Rule 'customer.metadata' must have a 'property'"},
		{"sub-rule at top", `{"logic":"1","1":{"name":"order.items.quantity","conditions":{"$more_than":[1]}}}`, "must be a sub-rule of an order item rule"},
		{"item rule as sub-rule", `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"p","object":"product"}]},"rules":{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"p","object":"product"}]}}}}}`, "cannot be a sub-rule"},
		{"sub-rules on a number rule", `{"logic":"1","1":{"name":"order.amount","conditions":{"$is":[1]},"rules":{"1":{"name":"order.items.quantity","conditions":{"$is":[1]}}}}}`, "cannot have sub-rules"},
		{"unknown condition", `{"logic":"1","1":{"name":"order.amount","conditions":{"$timeframe":["x"]}}}`, "unsupported condition $timeframe"},
		{"string on amount", `{"logic":"1","1":{"name":"order.amount","conditions":{"$more_than":["lots"]}}}`, "takes a number"},
		{"two bounds", `{"logic":"1","1":{"name":"order.amount","conditions":{"$more_than":[1,2]}}}`, "exactly one number"},
		{"contains on amount", `{"logic":"1","1":{"name":"order.amount","conditions":{"$contains":["1"]}}}`, "metadata only"},
		{"empty values", `{"logic":"1","1":{"name":"order.amount","conditions":{"$is":[]}}}`, "needs at least one value"},
		{"no conditions", `{"logic":"1","1":{"name":"order.amount","conditions":{}}}`, "must have conditions"},
		{"collection without id", `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"source_id":"x","object":"products_collection"}]}}}`, "must have the id of the product collection"},
		{"item without id", `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"object":"product"}]}}}`, "must have an id or a source_id"},
		{"item $is_not", `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is_not":[{"id":"p","object":"product"}]}}}`, "supports only $is and $in"},
		{"keys not from 1", `{"logic":"2","2":{"name":"order.amount","conditions":{"$is":[1]}}}`, "consecutive integers from 1"},
		{"logic names a missing rule", `{"logic":"1 and 2","1":{"name":"order.amount","conditions":{"$is":[1]}}}`, `names rule "2"`},
		{"rules without logic", `{"1":{"name":"order.amount","conditions":{"$is":[1]}}}`, "no logic"},
		{"bad date", `{"logic":"1","1":{"name":"order.metadata","property":"d","conditions":{"$after":["soon"]}}}`, "takes an ISO-8601 date"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compile(set(t, tc.js), "")
			e := promotype.AsError(err)
			if err == nil || e.Key != "invalid_validation_rules" || e.Code != 400 || !strings.Contains(e.Details, tc.want) {
				t.Errorf("got %v, want 400 invalid_validation_rules containing %q", err, tc.want)
			}
		})
	}
	if p, err := Compile(RuleSet{}, ""); err != nil || p.root != nil {
		t.Errorf("an empty rule set (only applicable_to) must compile to an always-true program: %v", err)
	}
}
