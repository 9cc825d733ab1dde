package rule

import (
	"testing"

	"github.com/promoengine/promo/promotype"
)

// cart is a fixed input: a T-shirt (product p1) as SKU s1 ×2 at 2000, a mug
// (p2) ×1 at 700, customer, order and redemption metadata.
func cart() *Input {
	return &Input{
		Customer:      AttrsOf(promotype.Metadata{"tier": "gold", "age": 34.0, "tags": []any{"vip", "newsletter"}, "joined": "2020-05-01"}),
		Order:         AttrsOf(promotype.Metadata{"location": "Santorini", "channel": "web"}),
		Redemption:    AttrsOf(promotype.Metadata{"cashier": "7"}),
		Segments:      []string{"seg_a", "seg_c"},
		Amount:        4700,
		InitialAmount: 4700,
		TotalAmount:   4700,
		Items: []Item{
			{ProductID: "p1", ProductSourceID: "tshirt", SKUID: "s1", SKUSourceID: "tshirt-m", Quantity: 2, Price: 2000, Amount: 4000, Meta: AttrsOf(promotype.Metadata{"color": "red", "test": 1.0})},
			{ProductID: "p2", ProductSourceID: "mug", Quantity: 1, Price: 700, Amount: 700, Meta: AttrsOf(promotype.Metadata{"color": "white"})},
		},
	}
}

func one(name, prop, conds string) string {
	p := ""
	if prop != "" {
		p = `,"property":"` + prop + `"`
	}
	return `{"logic":"1","1":{"name":"` + name + `"` + p + `,"conditions":` + conds + `}}`
}

func TestEval(t *testing.T) {
	t.Parallel()
	item := func(object, id string) string { return `[{"id":"` + id + `","object":"` + object + `"}]` }
	tests := []struct {
		name string
		js   string
		want bool
	}{
		{"customer metadata $is", one("customer.metadata", "tier", `{"$is":["gold"]}`), true},
		{"segment $is", one("customer.segment", "", `{"$is":["seg_c"]}`), true},
		{"segment $in one of them", one("customer.segment", "", `{"$in":["seg_b","seg_a"]}`), true},
		{"segment $in none", one("customer.segment", "", `{"$in":["seg_b","seg_d"]}`), false},
		{"segment $is_not a member's", one("customer.segment", "", `{"$is_not":["seg_a"]}`), false},
		{"segment $not_in none", one("customer.segment", "", `{"$not_in":["seg_b","seg_d"]}`), true},
		{"segment $is and $not_in", one("customer.segment", "", `{"$is":["seg_a"],"$not_in":["seg_c"]}`), false},
		{"customer metadata $in misses", one("customer.metadata", "tier", `{"$in":["silver","bronze"]}`), false},
		{"customer metadata number", one("customer.metadata", "age", `{"$more_than_or_equal":[18]}`), true},
		{"string 34 equals number 34", one("customer.metadata", "age", `{"$is":["34"]}`), true},
		{"array holds a value", one("customer.metadata", "tags", `{"$is":["vip"]}`), true},
		{"array count", one("customer.metadata", "tags", `{"$count_more":[1]}`), true},
		{"date after", one("customer.metadata", "joined", `{"$after":["2019-12-31"]}`), true},
		{"date before", one("customer.metadata", "joined", `{"$before":["2019-12-31"]}`), false},
		{"missing key fails $is", one("customer.metadata", "nope", `{"$is":["x"]}`), false},
		{"missing key passes $is_not", one("customer.metadata", "nope", `{"$is_not":["x"]}`), true},
		{"$is_not on a present value", one("customer.metadata", "tier", `{"$is_not":["gold"]}`), false},
		{"two conditions must both hold", one("customer.metadata", "age", `{"$more_than":[18],"$less_than":[30]}`), false},
		{"order metadata (official example)", one("order.metadata", "location", `{"$is":["Santorini"]}`), true},
		{"order metadata starts with", one("order.metadata", "channel", `{"$starts_with":["we"]}`), true},
		{"redemption metadata", one("redemption.metadata", "cashier", `{"$in":[7, 8]}`), true},
		{"order amount more than", one("order.amount", "", `{"$more_than":[4000]}`), true},
		{"order amount less than (official: less than $40)", one("order.amount", "", `{"$less_than":[4000]}`), false},
		{"initial amount", one("order.initial_amount", "", `{"$is":[4700]}`), true},
		{"items count is units", one("order.items.count", "", `{"$is":[3]}`), true},
		{"price any", one("order.items.price_any", "", `{"$is":[700]}`), true},
		{"price each", one("order.items.price_each", "", `{"$more_than":[1000]}`), false},
		{"metadata any", one("order.items.metadata_any", "color", `{"$is":["white"]}`), true},
		{"metadata each", one("order.items.metadata_each", "color", `{"$in":["red","white"]}`), true},
		{"items any by product id", one("order.items.any", "", `{"$is":`+item("product", "p2")+`}`), true},
		{"a product matches its SKU lines", one("order.items.any", "", `{"$is":`+item("product", "p1")+`}`), true},
		{"items any by sku", one("order.items.any", "", `{"$is":`+item("sku", "s1")+`}`), true},
		{"items any by source id", one("order.items.any", "", `{"$is":[{"source_id":"mug","object":"product"}]}`), true},
		{"items any misses", one("order.items.any", "", `{"$is":`+item("product", "p9")+`}`), false},
		{"items every", one("order.items.every", "", `{"$is":[{"id":"p1","object":"product"},{"id":"p2","object":"product"}]}`), true},
		{"items every misses one", one("order.items.every", "", `{"$is":[{"id":"p1","object":"product"},{"id":"p9","object":"product"}]}`), false},
		{"items none", one("order.items.none", "", `{"$is":`+item("product", "p9")+`}`), true},
		{"items none hit", one("order.items.none", "", `{"$is":`+item("product", "p2")+`}`), false},
		{"cheapest", one("order.items.cheapest", "", `{"$is":`+item("product", "p2")+`}`), true},
		{"most expensive", one("order.items.most_expensive", "", `{"$is":`+item("product", "p2")+`}`), false},
		{"legacy product.id", one("product.id", "", `{"$is":[{"id":"p2"}]}`), true},
		{"legacy sku.id", one("sku.id", "", `{"$is":[{"id":"s9"}]}`), false},
	}
	in := cart()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := compile(t, tc.js)
			if got, _ := p.Eval(in); got != tc.want {
				t.Errorf("Eval = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestItemSubRules(t *testing.T) {
	t.Parallel()
	rule := func(sub string) string {
		return `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"p1","object":"product"}]},"rules":` + sub + `}}`
	}
	tests := []struct {
		name string
		sub  string
		want bool
	}{
		{"quantity", `{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[2]}}}`, true},
		{"quantity too low", `{"1":{"name":"order.items.quantity","conditions":{"$more_than":[2]}}}`, false},
		{"aggregated amount", `{"1":{"name":"order.items.aggregated_amount","conditions":{"$is":[4000]}}}`, true},
		{"price", `{"1":{"name":"order.items.price","conditions":{"$less_than":[2000]}}}`, false},
		{"metadata (official: greater_than_or_equal)", `{"1":{"name":"order.items.metadata","property":"test","conditions":{"$greater_than_or_equal":[1]}}}`, true},
		{"sub-rules default to all", `{"1":{"name":"order.items.quantity","conditions":{"$is":[2]}},"2":{"name":"order.items.price","conditions":{"$is":[1]}}}`, false},
		{"sub-rules with or", `{"logic":"1 or 2","1":{"name":"order.items.quantity","conditions":{"$is":[2]}},"2":{"name":"order.items.price","conditions":{"$is":[1]}}}`, true},
	}
	in := cart()
	for _, tc := range tests {
		if got, _ := compile(t, rule(tc.sub)).Eval(in); got != tc.want {
			t.Errorf("%s: Eval = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestErrorMessageSelection(t *testing.T) {
	t.Parallel()
	js := `{"logic":"1 and 2",
		"1":{"name":"order.amount","conditions":{"$more_than":[100]},"error":{"message":"too small"}},
		"2":{"name":"order.metadata","property":"location","conditions":{"$is":["Crete"]},"error":{"message":"Crete only"}}}`
	p := compile(t, js)
	in := cart()
	if ok, msg := p.Eval(in); ok || msg != "Crete only" {
		t.Errorf("got %v %q, want the failing rule's message", ok, msg)
	}
	in.Amount = 50
	if ok, msg := p.Eval(in); ok || msg != "too small" {
		t.Errorf("got %v %q, want the first failing rule's message", ok, msg)
	}
	plain := compile(t, one("order.amount", "", `{"$less_than":[0]}`))
	if ok, msg := plain.Eval(in); ok || msg != "set message" {
		t.Errorf("got %v %q, want the set's message", ok, msg)
	}
}

func TestNeedsTotal(t *testing.T) {
	t.Parallel()
	if !compile(t, one("order.total_amount", "", `{"$more_than":[0]}`)).NeedsTotal {
		t.Error("order.total_amount must mark the program")
	}
	if compile(t, one("order.amount", "", `{"$more_than":[0]}`)).NeedsTotal {
		t.Error("order.amount must not mark the program")
	}
}

func TestEvalAudience(t *testing.T) {
	t.Parallel()
	p := compile(t, `{"logic":"1 and 2","1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},"2":{"name":"order.amount","conditions":{"$more_than":[1000000]}}}`)
	in := cart()
	if ok, _ := p.Eval(in); ok {
		t.Error("the order rule must fail a full evaluation")
	}
	if ok, _ := p.EvalAudience(in); !ok {
		t.Error("audience evaluation must ignore the order rule")
	}
	in.Customer = nil
	if ok, _ := p.EvalAudience(in); ok {
		t.Error("audience evaluation must still check the customer rule")
	}
}
