package formula

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/promoengine/promo/internal/cputime"
)

func testEnv() *Env {
	pink := &Item{Price: 6500, HasPrice: true, Amount: 6500, Subtotal: 6500, Quantity: 1,
		Metadata: map[string]any{"size": "M"}, ProductMetadata: map[string]any{"category": "sweaters"}}
	return &Env{
		OrderAmount:        46500,
		OrderItemsQuantity: 5,
		OrderUnitsQuantity: 7,
		OrderMetadata:      map[string]any{"day_of_week": json.Number("5"), "store_city": "Boston"},
		CustomerMetadata: map[string]any{
			"age": json.Number("40"), "customer_life_time_value": 75.55, "tier": "VIP",
			"favorite_brands": []any{"Adidas", "Nike"}, "visits": "12", "flag": true, "nested": map[string]any{},
		},
		RedemptionMetadata: map[string]any{"store_list": "A,B"},
		RedeemableMetadata: map[string]any{"bonus": int64(3)},
		Item:               pink,
		Cheapest:           &Item{Price: 2000, HasPrice: true, Amount: 2000, Subtotal: 2000, Quantity: 1},
		MostExpensive:      &Item{Price: 11000, HasPrice: true, Amount: 22000, Subtotal: 22000, Quantity: 2},
		Voucher:            &Voucher{RedemptionQuantity: 10, HasRedemptionQuantity: true, RedeemedQuantity: 4, PublishCount: 1},
	}
}

// parsed parses src, reporting a failure (and returning nil).
func parsed(t *testing.T, src string) *Program {
	t.Helper()
	p, err := Parse(src)
	if err != nil {
		t.Errorf("Parse(%q): %v", src, err)
	}
	return p
}

func TestEval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want string
	}{
		{"2", "2"},
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"10 - 4 - 3", "3"},
		{"7 % 4", "3"},
		{"-7 % 4", "-3"},
		{"10 / 4", "2.5"},
		{"1 / 3", "0.333333"},
		{"2 / 3", "0.666667"},
		{"-2 / 3", "-0.666667"},
		{"- -2", "2"},
		{`CUSTOMER_METADATA("age") - -2`, "42"},
		{"ORDER_AMOUNT", "465"},
		{"ORDER_ITEMS_QUANTITY", "5"},
		{"ORDER_UNITS_QUANTITY", "7"},
		{"ORDER_ITEM_PRICE * 0.8", "52"},
		{"ORDER_ITEM_PRICE * 0.01 + 1", "1.65"},
		{"IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)", "52"},
		{"IF(ORDER_AMOUNT > 400;0;20)", "0"},
		{"IF(ORDER_AMOUNT > 500;0;20)", "20"},
		{"if(order_amount >= 465;1;2)", "1"},
		{"IF(ORDER_AMOUNT <= 464.99;1;2)", "2"},
		{"IF(ORDER_AMOUNT != 465;1;2)", "2"},
		{"IF(ORDER_AMOUNT <> 465;1;2)", "2"},
		{"IF(ORDER_AMOUNT = 465;1;2)", "1"},
		{`IF(CUSTOMER_METADATA("favorite_brands") contains "Nike";20;CUSTOMER_METADATA("age"))`, "20"},
		{`IF(CUSTOMER_METADATA("favorite_brands") contains "Puma";20;CUSTOMER_METADATA("age"))`, "40"},
		{`IF(CUSTOMER_METADATA("tier") is "VIP";25;10)`, "25"},
		{`IF(CUSTOMER_METADATA("tier") isNot "VIP";25;10)`, "10"},
		{`IF(CUSTOMER_METADATA("tier") startsWith "V";1;0)`, "1"},
		{`IF(CUSTOMER_METADATA("tier") endsWith "x";1;0)`, "0"},
		{`IF(ORDER_METADATA("store_city") IN_ARRAY "Boston, New York";1;0)`, "1"},
		{`IF(ORDER_METADATA("store_city") NOT_IN_ARRAY "Boston,New York";1;0)`, "0"},
		{`IF(CUSTOMER_METADATA("visits") > 10 AND ORDER_METADATA("day_of_week") = 5;20;3)`, "20"},
		{`IF(CUSTOMER_METADATA("visits") > 20 AND ORDER_METADATA("day_of_week") = 5;20;3)`, "3"},
		{`IF(CUSTOMER_METADATA("visits") > 20 OR ORDER_METADATA("day_of_week") = 5;20;3)`, "20"},
		{`IF(1 > 2 AND CUSTOMER_METADATA("missing") > 1;1;2)`, "2"},
		{`IF(CUSTOMER_METADATA("flag");1;2)`, "1"},
		{"IF(ORDER_ITEMS_QUANTITY > 4;IF(ORDER_AMOUNT > 200;25;15);10)", "25"},
		{"MIN(3;1;2)", "1"},
		{"MAX(3;1;2)", "3"},
		{"MIN(-1)", "-1"},
		{"POW(2;10)", "1024"},
		{"POW(2;-2)", "0.25"},
		{"POW(4;0.5)", "2"},
		{"POW(1.5;2)", "2.25"},
		{`ROUND(CUSTOMER_METADATA("customer_life_time_value");1)`, "75.6"},
		{`ROUND(CUSTOMER_METADATA("customer_life_time_value");0)`, "76"},
		{`ROUND(CUSTOMER_METADATA("customer_life_time_value");-1)`, "80"},
		{`ROUND(CUSTOMER_METADATA("customer_life_time_value"))`, "76"},
		{`FLOOR(CUSTOMER_METADATA("customer_life_time_value");1)`, "75.5"},
		{`FLOOR(CUSTOMER_METADATA("customer_life_time_value");0)`, "75"},
		{`FLOOR(CUSTOMER_METADATA("customer_life_time_value");-1)`, "70"},
		{"CEIL(74.44;1)", "74.5"},
		{"CEIL(74.44;0)", "75"},
		{"CEIL(74.44;-1)", "80"},
		{"ROUND(-2.5)", "-3"},
		{"FLOOR(-2.5)", "-3"},
		{"CEIL(-2.5)", "-2"},
		{`DEFAULT_TO(REDEMPTION_METADATA("nope") / 2;5)`, "5"},
		{`DEFAULT_TO(REDEMPTION_METADATA("store_list") / 2;5)`, "5"},
		{`DEFAULT_TO(CUSTOMER_METADATA("age") / 2;5)`, "20"},
		{`SWITCH(ORDER_METADATA("store_city");SWITCH_CASE("Boston";10) SWITCH_CASE("New York";15);5)`, "10"},
		{`SWITCH(CUSTOMER_METADATA("tier");SWITCH_CASE("Boston";10);SWITCH_CASE("New York";15);5)`, "5"},
		{`SWITCH(ORDER_METADATA("day_of_week");SWITCH_CASE(4;10) SWITCH_CASE(5;15))`, "15"},
		{`REDEEMABLE_METADATA("bonus") * 2`, "6"},
		{`CUSTOMER_METADATA("visits") + 1`, "13"},
		{`IF(ORDER_ITEM_METADATA("size") is "M";ORDER_ITEM_UNITS_QUANTITY;0)`, "1"},
		{`IF(ORDER_ITEM_PRODUCT_METADATA("category") = "sweaters";ORDER_ITEM_AMOUNT - ORDER_ITEM_SUBTOTAL;9)`, "0"},
		{"CHEAPEST_ORDER_ITEM_PRICE + MOST_EXPENSIVE_ORDER_ITEM_AMOUNT", "240"},
		{"MOST_EXPENSIVE_ORDER_ITEM_UNITS_QUANTITY * CHEAPEST_ORDER_ITEM_SUBTOTAL", "40"},
		{"IF(VOUCHER_PUBLISH_COUNT = 1;25;5)", "25"},
		{"VOUCHER_REDEMPTION_QUANTITY - VOUCHER_REDEEMED_QUANTITY", "6"},
		{"0.1 + 0.2", "0.3"},
		{".5 * 4", "2"},
		{"1.0000005", "1.000001"},
		{"  12  ", "12"},
	}
	env := testEnv()
	for _, tt := range tests {
		p := parsed(t, tt.src)
		if p == nil {
			continue
		}
		got, err := p.Eval(env)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.src, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("Eval(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want error
	}{
		{`CUSTOMER_METADATA("missing")`, ErrMissing},
		{`CUSTOMER_METADATA("nested")`, ErrMissing},
		{`CUSTOMER_METADATA("tier") + 1`, ErrType},
		{`CUSTOMER_METADATA("tier")`, ErrType},
		{`IF(CUSTOMER_METADATA("tier");1;2)`, ErrType},
		{"1 > 0", ErrType},
		{"1 / 0", ErrDivision},
		{"1 % 0", ErrDivision},
		{"9000000000000 * 9000000000000", ErrOverflow},
		{"9000000000000 + 9000000000000", ErrOverflow},
		{"-9000000000000 - 9000000000000", ErrOverflow},
		{"1 / 0.000001 / 0.000001 / 0.000001", ErrOverflow},
		{"POW(10;20)", ErrOverflow},
		{"POW(2;1000000)", ErrOverflow},
		{"POW(-8;0.5)", ErrOverflow},
		{"ROUND(1;-20)", ErrOverflow},
		{"ROUND(1;0.5)", ErrType},
		{`SWITCH(CUSTOMER_METADATA("tier");SWITCH_CASE("x";1))`, ErrNoCase},
		{`DEFAULT_TO(CUSTOMER_METADATA("a");CUSTOMER_METADATA("b"))`, ErrMissing},
	}
	env := testEnv()
	for _, tt := range tests {
		p := parsed(t, tt.src)
		if p == nil {
			continue
		}
		if _, err := p.Eval(env); !errors.Is(err, tt.want) {
			t.Errorf("Eval(%q) error = %v, want %v", tt.src, err, tt.want)
		}
	}
	// Item operands outside an order item have no value.
	p, _ := Parse("ORDER_ITEM_PRICE * 0.8")
	if _, err := p.Eval(&Env{OrderAmount: 100}); !errors.Is(err, ErrMissing) {
		t.Errorf("ORDER_ITEM_PRICE without an item: error = %v, want ErrMissing", err)
	}
	if _, err := p.Eval(&Env{Item: &Item{Amount: 100, Quantity: 1}}); !errors.Is(err, ErrMissing) {
		t.Errorf("ORDER_ITEM_PRICE of a line without a price: error = %v, want ErrMissing", err)
	}
	// Voucher operands for a promotion tier, a limit on an unlimited voucher.
	p, _ = Parse("VOUCHER_PUBLISH_COUNT")
	if _, err := p.Eval(&Env{}); !errors.Is(err, ErrMissing) {
		t.Errorf("VOUCHER_PUBLISH_COUNT without a voucher: error = %v, want ErrMissing", err)
	}
	p, _ = Parse("VOUCHER_REDEMPTION_QUANTITY")
	if _, err := p.Eval(&Env{Voucher: &Voucher{}}); !errors.Is(err, ErrMissing) {
		t.Errorf("VOUCHER_REDEMPTION_QUANTITY of an unlimited voucher: error = %v, want ErrMissing", err)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want string
	}{
		{"", "formula is empty (at position 0)"},
		{"1 +", "expected a value, found end of formula (at position 3)"},
		{"(1", `expected ")", found end of formula (at position 2)`},
		{"1 2", `unexpected "2" (at position 2)`},
		{"FOO(1)", "unknown name FOO (at position 0)"},
		{"ORDER_TOTAL", "unknown name ORDER_TOTAL (at position 0)"},
		{"VOUCHER_START_DATE", "VOUCHER_START_DATE is not supported by this engine (at position 0)"},
		{`IF(PUBLICATION_METADATA("year") > 1;1;2)`, "PUBLICATION_METADATA is not supported by this engine (at position 3)"},
		{"IF(1;2)", "IF takes 3 arguments (condition; value if true; value if false) (at position 0)"},
		{"POW(1)", "POW takes 2 arguments (number; power) (at position 0)"},
		{"CUSTOMER_METADATA(age)", "CUSTOMER_METADATA takes a metadata key in quotes (at position 18)"},
		{`CUSTOMER_METADATA("age"`, `expected ")", found end of formula (at position 23)`},
		{"1 < 2 < 3", "comparisons do not chain: use AND (at position 6)"},
		{`"open`, `unexpected character "\"open" (at position 0)`},
		{"1 ! 2", `unexpected character "!" (at position 2)`},
		{"1 # 2", `unexpected character "#" (at position 2)`},
		{"1..2", `unexpected character "1..2" (at position 0)`},
		{"SWITCH(1;2)", "SWITCH needs at least one SWITCH_CASE (at position 0)"},
		{"SWITCH(1;SWITCH_CASE(1))", "SWITCH_CASE takes 2 arguments (value; result) (at position 23)"},
		{strings.Repeat("(", MaxDepth+1) + "1" + strings.Repeat(")", MaxDepth+1), "formula is nested deeper than 24 levels (at position 24)"},
		{strings.Repeat("1+", MaxLength), "formula is longer than 1024 characters (at position 1024)"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want a *SyntaxError", tt.src, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q) error = %q, want %q", tt.src, err, tt.want)
		}
	}
}

func TestReads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want Reads
	}{
		{"ORDER_AMOUNT * 0.1", 0},
		{"ORDER_UNITS_QUANTITY", ReadsOrderCounts},
		{"ORDER_ITEM_PRICE * 0.8", ReadsItem},
		{`CHEAPEST_ORDER_ITEM_METADATA("a") + MOST_EXPENSIVE_ORDER_ITEM_PRICE`, ReadsCheapest | ReadsMostExpensive},
	}
	for _, tt := range tests {
		p, err := Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		if p.Reads() != tt.want {
			t.Errorf("Parse(%q).Reads() = %b, want %b", tt.src, p.Reads(), tt.want)
		}
	}
}

func TestNumberConversions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src          string
		minor, units int64
	}{
		{"52", 5200, 52},
		{"0.125", 13, 0},
		{"2.5", 250, 3},
		{"-2.5", -250, -3},
		{"0.004", 0, 0},
		{"0.005", 1, 0},
	} {
		p, err := Parse(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		n, err := p.Eval(&Env{})
		if err != nil {
			t.Fatal(err)
		}
		if n.MinorUnits() != tt.minor || n.Integer() != tt.units {
			t.Errorf("%s: MinorUnits %d Integer %d, want %d %d", tt.src, n.MinorUnits(), n.Integer(), tt.minor, tt.units)
		}
	}
}

// FuzzFormula parses and evaluates arbitrary text: neither ever panics, a
// formula over the limits is refused, and a parsed one evaluates twice to
// the same result.
func FuzzFormula(f *testing.F) {
	for _, s := range []string{
		"IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)",
		`IF(CUSTOMER_METADATA("favorite_brands") contains "Nike";20;CUSTOMER_METADATA("age"))`,
		`SWITCH(ORDER_METADATA("store_city");SWITCH_CASE("Boston";10) SWITCH_CASE("New York";15);5)`,
		"POW(2;0.5) / ROUND(1/3;2) % 7",
		`DEFAULT_TO(REDEMPTION_METADATA("store_list") / 2;5)`,
		"- - -(1)", "((((1))))", "1e5", "\"\\\"\"",
	} {
		f.Add(s)
	}
	env := testEnv()
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %v is not a *SyntaxError", src, err)
			}
			return
		}
		if len(src) > MaxLength {
			t.Fatalf("Parse accepted %d bytes", len(src))
		}
		a, errA := p.Eval(env)
		b, errB := p.Eval(env)
		if a != b || !errors.Is(errA, errB) && errA != errB {
			t.Fatalf("Eval(%q) not deterministic: %v %v / %v %v", src, a, errA, b, errB)
		}
		_, _ = p.Eval(&Env{})
	})
}

// BenchmarkEval is a typical formula: a condition on the order amount and
// a share of the line's price.
func BenchmarkEval(b *testing.B) {
	p, err := Parse("IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)")
	if err != nil {
		b.Fatal(err)
	}
	env := testEnv()
	b.ReportAllocs()
	cpu0 := cputime.Used()
	for b.Loop() {
		if _, err := p.Eval(env); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkEvalMetadata reads customer metadata and compares text.
func BenchmarkEvalMetadata(b *testing.B) {
	p, err := Parse(`IF(CUSTOMER_METADATA("tier") is "VIP" AND ORDER_UNITS_QUANTITY > 3;ROUND(ORDER_AMOUNT * 0.15;2);CUSTOMER_METADATA("age") / 2)`)
	if err != nil {
		b.Fatal(err)
	}
	env := testEnv()
	b.ReportAllocs()
	cpu0 := cputime.Used()
	for b.Loop() {
		if _, err := p.Eval(env); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
}
