package discount

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// e9Cart is the cart of the official voucher validation example "Fixed":
// a pink sweater 6500, navy pants 6000, shipping 2000, 2 gray pants at
// 5000, 2 pearl sweaters at 11000 (46500).
func e9Cart() *order.Order {
	return newCart(line("prod_pink", "", 6500, 1), line("prod_navy", "", 6000, 1), line("prod_5h1pp1ng", "", 2000, 1),
		line("prod_gray", "", 5000, 2), line("prod_pearl", "", 11000, 2))
}

// e9Applicability is the example's applicable_to: new prices by formula,
// 99900 (and 2000 for shipping) as the static fallbacks.
func e9Applicability() *Applicability {
	sweaters, pants := "IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE)", "IF(ORDER_AMOUNT > 200;ORDER_ITEM_PRICE * 0.9;ORDER_ITEM_PRICE)"
	entry := func(id string, price int64, f string) Target {
		return Target{Object: "product", ID: id, Price: i64(price), PriceFormula: str(f), Effect: ApplyToEvery}
	}
	return &Applicability{Included: []Target{
		entry("prod_5h1pp1ng", 2000, "IF(ORDER_AMOUNT > 400;0;20)"),
		entry("prod_pink", 99900, sweaters), entry("prod_navy", 99900, pants),
		entry("prod_gray", 99900, pants), entry("prod_pearl", 99900, sweaters),
	}}
}

// TestE9FixedWithFormulas is worked example E9: new prices computed by
// price_formula (ORDER_AMOUNT and ORDER_ITEM_PRICE in currency units).
func TestE9FixedWithFormulas(t *testing.T) {
	t.Parallel()
	c := e9Cart()
	got := apply(t, c, &Discount{Type: Fixed, FixedAmount: dec("0"), Effect: ApplyToItems}, e9Applicability())
	if d := cmp.Diff([]int64{1300, 600, 2000, 1000, 4400}, lineDiscounts(c)); d != "" {
		t.Errorf("line discounts (-want +got):\n%s", d)
	}
	want := totals{Amount: 46500, InitialAmount: 46500, ItemsDiscountAmount: 9300, TotalDiscountAmount: 9300, TotalAmount: 37200, Applied: 9300}
	if d := cmp.Diff(want, totalsOf(c)); d != "" || got != 9300 {
		t.Errorf("discount %d; totals (-want +got):\n%s", got, d)
	}
}

// TestFormulaFallback: the static value applies when a formula cannot be
// computed (missing metadata, division by zero, a result out of range).
func TestFormulaFallback(t *testing.T) {
	t.Parallel()
	facts := &Facts{
		Customer:   promotype.Metadata{"age": 40.0, "tier": "VIP", "zero": 0.0},
		Redemption: promotype.Metadata{"store": "Boston"},
		Redeemable: promotype.Metadata{"bonus": 3.0},
		Voucher:    &VoucherFacts{RedeemedQuantity: 2, PublishCount: 1},
	}
	tests := []struct {
		name string
		d    Discount
		app  *Applicability
		want int64 // the discount on valCart (72100)
	}{
		{"amount by customer metadata", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`CUSTOMER_METADATA("age")`)}, nil, 4000},
		{"amount, missing metadata", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`CUSTOMER_METADATA("height")`)}, nil, 100},
		{"amount, division by zero", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`10 / CUSTOMER_METADATA("zero")`)}, nil, 100},
		{"amount, negative", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`-5`)}, nil, 100},
		{"amount, fraction of a cent", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`0.125`)}, nil, 13},
		{"amount by the redeemable's metadata", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`REDEEMABLE_METADATA("bonus") * 10`)}, nil, 3000},
		{"amount by the request's metadata", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str(`IF(REDEMPTION_METADATA("store") is "Boston";1;2)`)}, nil, 100},
		{"amount by publication (the hosted example)", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str("IF(VOUCHER_PUBLISH_COUNT = 1;25;5)")}, nil, 2500},
		{"amount, unlimited voucher's limit", Discount{Type: Amount, AmountOff: dec("100"), AmountOffFormula: str("VOUCHER_REDEMPTION_QUANTITY")}, nil, 100},
		{"percent by order amount", Discount{Type: Percent, PercentOff: dec("5"), PercentOffFormula: str("IF(ORDER_AMOUNT > 300;15;5)")}, nil, 10815},
		{"percent above 100", Discount{Type: Percent, PercentOff: dec("5"), PercentOffFormula: str("150")}, nil, 3605},
		{"percent with a fraction", Discount{Type: Percent, PercentOff: dec("5"), PercentOffFormula: str("100 / 3")}, nil, 24033},
		{"fixed order total", Discount{Type: Fixed, FixedAmount: dec("70000"), FixedAmountFormula: str("ORDER_AMOUNT - 21")}, nil, 2100},
		{"fixed, item operand at order level", Discount{Type: Fixed, FixedAmount: dec("70000"), FixedAmountFormula: str("ORDER_ITEM_PRICE")}, nil, 2100},
		{"amount per line by its price", Discount{Type: Amount, AmountOff: dec("1"), AmountOffFormula: str("ORDER_ITEM_PRICE * 0.01 + 1"), Effect: ApplyToItems}, products("prod_red", "prod_iphone"), 129 + 700},
		{"percent of the cheapest line", Discount{Type: Percent, PercentOff: dec("1"), PercentOffFormula: str("IF(CHEAPEST_ORDER_ITEM_PRICE < 20;50;1)"), Effect: ApplyToItems}, products("prod_vase"), 750},
		{"proportional by units", Discount{Type: Amount, AmountOff: dec("1"), AmountOffFormula: str("ORDER_UNITS_QUANTITY"), Effect: ApplyToItemsProportionally}, products("prod_red", "prod_blue"), 600},
		{"units by formula", Discount{Type: Unit, UnitType: "prod_vase", UnitOff: i64(1), UnitOffFormula: str(`REDEEMABLE_METADATA("bonus")`)}, nil, 4500},
		{"units below one", Discount{Type: Unit, UnitType: "prod_vase", UnitOff: i64(2), UnitOffFormula: str(`0.4`)}, nil, 3000},
		{"many units by formula", Discount{Type: Unit, Units: []UnitItem{{UnitType: "prod_roses", UnitOff: i64(1), UnitOffFormula: str("ORDER_ITEMS_QUANTITY / 2"), Effect: AddNewItems}}}, nil, 1500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := tt.d
			if err := d.Validate(".discount"); err != nil {
				t.Fatal(err)
			}
			if !d.IsDynamic {
				t.Error("a discount with a formula must be dynamic")
			}
			c := valCart()
			got, err := ApplyWith(c, &d, tt.app, catalog, nil, facts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("discount = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestFormulaRefused: a formula that does not parse is a 400 naming the
// field and what is wrong.
func TestFormulaRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    Discount
		want string
	}{
		{Discount{Type: Amount, AmountOff: dec("1"), AmountOffFormula: str("IF(ORDER_AMOUNT > 1;2)")},
			"Property .discount.amount_off_formula is not a valid formula: IF takes 3 arguments (condition; value if true; value if false) (at position 0)"},
		{Discount{Type: Percent, PercentOff: dec("1"), PercentOffFormula: str("ORDER_TOTAL")},
			"Property .discount.percent_off_formula is not a valid formula: unknown name ORDER_TOTAL (at position 0)"},
		{Discount{Type: Fixed, FixedAmount: dec("1"), FixedAmountFormula: str("TODAY")},
			"Property .discount.fixed_amount_formula is not a valid formula: TODAY is not supported by this engine (at position 0)"},
		{Discount{Type: Unit, UnitType: "p", UnitOff: i64(1), UnitOffFormula: str("(")},
			"Property .discount.unit_off_formula is not a valid formula: expected a value, found end of formula (at position 1)"},
		{Discount{Type: Unit, Units: []UnitItem{{UnitType: "p", UnitOff: i64(1), UnitOffFormula: str("1 +"), Effect: AddNewItems}}},
			"Property .discount.units[0].unit_off_formula is not a valid formula: expected a value, found end of formula (at position 3)"},
	}
	for _, tc := range tests {
		err := tc.d.Validate(".discount")
		if e := promotype.AsError(err); err == nil || e.Key != "invalid_payload" || e.Details != tc.want {
			t.Errorf("Validate(%+v) = %v, want %q", tc.d, err, tc.want)
		}
	}
}
