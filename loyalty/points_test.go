package loyalty

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

func TestRulePoints(t *testing.T) {
	t.Parallel()
	ratio := func(every, points Int) *Ratio { return &Ratio{Every: every, Points: points} }
	items := []order.Item{
		{ProductID: "prod_X", Quantity: 3, DiscountQuantity: 1, Amount: 3000, SubtotalAmount: 2400},
		{SKUID: "sku_Y", Quantity: 2, Amount: 500, SubtotalAmount: 500, SKU: &order.ItemSKU{ID: "sku_Y", SourceID: promotype.Ptr("y")}},
	}
	o := &order.Order{Amount: 25990, TotalAmount: 20000, Metadata: promotype.Metadata{"visits": 7.0, "text": "x", "str": "9"}, Items: items}
	for _, tc := range []struct {
		name string
		e    Earning
		f    Facts
		want int64
	}{
		{"fixed", Earning{Type: Fixed, Points: promotype.Ptr(Int(20))}, Facts{Order: o}, 20},
		{"order amount", Earning{Type: Proportional, CalculationType: OrderAmount, Order: &OrderRatio{Amount: ratio(1000, 3)}}, Facts{Order: o}, 75},
		{"total amount", Earning{Type: Proportional, CalculationType: OrderTotalAmount, Order: &OrderRatio{TotalAmount: ratio(100, 1)}}, Facts{Order: o}, 200},
		{"order metadata", Earning{Type: Proportional, CalculationType: OrderMetadata, Order: &OrderRatio{Metadata: &Ratio{Every: 2, Points: 1, Property: "visits"}}}, Facts{Order: o}, 3},
		{"metadata as a numeric string", Earning{Type: Proportional, CalculationType: OrderMetadata, Order: &OrderRatio{Metadata: &Ratio{Every: 2, Points: 1, Property: "str"}}}, Facts{Order: o}, 4},
		{"metadata not a number", Earning{Type: Proportional, CalculationType: OrderMetadata, Order: &OrderRatio{Metadata: &Ratio{Every: 1, Points: 1, Property: "text"}}}, Facts{Order: o}, 0},
		{"metadata missing", Earning{Type: Proportional, CalculationType: OrderMetadata, Order: &OrderRatio{Metadata: &Ratio{Every: 1, Points: 1, Property: "nope"}}}, Facts{Order: o}, 0},
		{"items quantity without free units", Earning{Type: Proportional, CalculationType: OrderItemsQuantity,
			OrderItems: &ItemsRatio{Quantity: &Ratio{Every: 1, Points: 1, Object: ItemProduct, ID: "prod_X"}}}, Facts{Order: o}, 2},
		{"items amount by SKU source id", Earning{Type: Proportional, CalculationType: OrderItemsAmount,
			OrderItems: &ItemsRatio{Amount: &Ratio{Every: 100, Points: 1, Object: ItemSKU, ID: "y"}}}, Facts{Order: o}, 5},
		{"items subtotal, two refs, each line once", Earning{Type: Proportional, CalculationType: OrderItemsSubtotalAmount,
			OrderItems: &ItemsRatio{SubtotalAmount: &Ratio{Every: 100, Points: 1, ApplicableTo: []ItemRef{{ItemProduct, "prod_X"}, {ItemProduct, "prod_X"}, {ItemSKU, "sku_Y"}}}}}, Facts{Order: o}, 29},
		{"customer metadata", Earning{Type: Proportional, CalculationType: CustomerMetadata, Customer: &MetaRatio{Metadata: &Ratio{Every: 4, Points: 4, Property: "ltv"}}},
			Facts{Order: o, CustomerMetadata: promotype.Metadata{"ltv": json.Number("10")}}, 8},
		{"event metadata", Earning{Type: Proportional, CalculationType: CustomEventMetadata, CustomEvent: &MetaRatio{Metadata: &Ratio{Every: 1, Points: 2, Property: "n"}}},
			Facts{EventMetadata: promotype.Metadata{"n": 4.0}}, 8},
		{"an order ratio without an order", Earning{Type: Proportional, CalculationType: OrderAmount, Order: &OrderRatio{Amount: ratio(1, 1)}}, Facts{}, 0},
		{"below one step", Earning{Type: Proportional, CalculationType: OrderAmount, Order: &OrderRatio{Amount: ratio(30000, 1)}}, Facts{Order: o}, 0},
		{"capped", Earning{Type: Proportional, CalculationType: OrderAmount, Order: &OrderRatio{Amount: ratio(1, MaxPoints)}}, Facts{Order: o}, MaxPoints},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &EarningRule{Loyalty: tc.e}
			if got := r.Points(tc.f); got != tc.want {
				t.Errorf("Points = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestMappingApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m        Mapping
		in, want int64
	}{
		{Mapping{Type: MappingCustom, Points: promotype.Ptr[int64](5)}, 20, 5},
		{Mapping{Type: MappingMultiply, Multiplier: promotype.Ptr(promotype.NewDecimal("1.5"))}, 15, 23}, // 22.5 rounds half up
		{Mapping{Type: MappingMultiply, Multiplier: promotype.Ptr(promotype.NewDecimal("0.5"))}, 100, 50},
		{Mapping{Type: MappingMultiply}, 7, 7}, // no multiplier: unchanged
	} {
		if got := tc.m.apply(tc.in); got != tc.want {
			t.Errorf("%+v.apply(%d) = %d, want %d", tc.m, tc.in, got, tc.want)
		}
	}
}

func TestIntUnmarshal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want Int
		ok   bool
	}{{`5`, 5, true}, {`"5"`, 5, true}, {`-3`, -3, true}, {`"x"`, 0, false}, {`1.5`, 0, false}, {`"9223372036854775808"`, 0, false}} {
		var n Int
		err := json.Unmarshal([]byte(tc.in), &n)
		if (err == nil) != tc.ok || (tc.ok && n != tc.want) {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d, ok %v", tc.in, n, err, tc.want, tc.ok)
		}
	}
}
