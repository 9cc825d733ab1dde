package discount

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

func TestValidateRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    Discount
		want string
	}{
		{Discount{Type: "SHIPPING"}, "Property .discount.type must be equal to one of the allowed values: AMOUNT, PERCENT, FIXED, UNIT"},
		{Discount{Type: Amount}, "Property .discount must have required property 'amount_off'"},
		{Discount{Type: Amount, AmountOff: dec("-1")}, "Property .discount.amount_off must be >= 0"},
		{Discount{Type: Percent, PercentOff: dec("101")}, "Property .discount.percent_off must be between 0 and 100"},
		{Discount{Type: Percent, PercentOff: dec("5"), Effect: ApplyToItemsByQuantity}, "Property .discount.effect must be one of [APPLY_TO_ORDER APPLY_TO_ITEMS] for a PERCENT discount"},
		{Discount{Type: Fixed}, "Property .discount must have required property 'fixed_amount'"},
		{Discount{Type: Unit, UnitOff: i64(1)}, "Property .discount must have required property 'unit_type'"},
		{Discount{Type: Unit, UnitType: "prod_1", UnitOff: i64(0)}, "Property .discount.unit_off must be >= 1"},
		{Discount{Type: Unit, UnitType: "prod_1", UnitOff: i64(1), Effect: AddSameItems}, "Property .discount.effect ADD_SAME_ITEMS is not supported by this engine yet"},
		{Discount{Type: Unit, Effect: AddManyItems}, "Property .discount.units must NOT have fewer than 1 items"},
		{Discount{Type: Unit, Units: []UnitItem{{UnitType: "p", UnitOff: i64(1), Effect: ApplyToOrder}}}, "Property .discount.units[0].effect must be equal to one of the allowed values: ADD_MISSING_ITEMS, ADD_NEW_ITEMS"},
	}
	for _, tc := range tests {
		err := tc.d.Validate(".discount")
		if e := promotype.AsError(err); err == nil || e.Key != "invalid_payload" || e.Details != tc.want {
			t.Errorf("Validate(%+v) = %v, want %q", tc.d, err, tc.want)
		}
	}
	d := Discount{Type: Amount, AmountOff: dec("1"), AmountOffFormula: str("ORDER_AMOUNT*0.1")}
	if err := d.Validate(".discount"); err != nil || !d.IsDynamic {
		t.Errorf("a formula must mark the discount dynamic: %v %v", err, d.IsDynamic)
	}
}

func randomCart(r *rand.Rand) *order.Order {
	var lines []order.Item
	for i := range r.IntN(8) {
		l := line(fmt.Sprintf("prod_%d", i%4), "", int64(r.IntN(5000)), 1+int64(r.IntN(5)))
		if r.IntN(3) == 0 { // a SKU line, some with source ids
			l.SKUID = fmt.Sprintf("sku_%d", r.IntN(3))
			l.SKU = &order.ItemSKU{ID: l.SKUID}
			if r.IntN(2) == 0 {
				l.SKU.SourceID = str("src-" + l.SKUID)
			}
		}
		if r.IntN(3) == 0 {
			l.Product = &order.ItemProduct{ID: l.ProductID, SourceID: str("src-" + l.ProductID)}
		}
		lines = append(lines, l)
	}
	c := newCart(lines...)
	if r.IntN(4) == 0 { // a client amount above or below the lines
		withAmount(c, int64(r.IntN(30000)))
	}
	return c
}

func randomDiscount(r *rand.Rand) (*Discount, *Applicability) {
	amount := func() *promotype.Decimal { return dec(fmt.Sprint(r.IntN(6000))) }
	d := []*Discount{
		{Type: Amount, AmountOff: amount(), Effect: ApplyToOrder},
		{Type: Amount, AmountOff: amount(), Effect: ApplyToItems, AggregatedAmountLimit: i64(int64(r.IntN(3000)))},
		{Type: Amount, AmountOff: amount(), Effect: ApplyToItemsProportionally},
		{Type: Amount, AmountOff: amount(), Effect: ApplyToItemsProportionallyByQuantity},
		{Type: Amount, AmountOff: amount(), Effect: ApplyToItemsByQuantity},
		{Type: Percent, PercentOff: dec(fmt.Sprintf("%d.%d", r.IntN(100), r.IntN(10))), Effect: ApplyToOrder, AmountLimit: amount()},
		{Type: Percent, PercentOff: dec(fmt.Sprint(r.IntN(101))), Effect: ApplyToItems},
		{Type: Fixed, FixedAmount: amount(), Effect: ApplyToOrder},
		{Type: Fixed, FixedAmount: amount(), Effect: ApplyToItems},
		{Type: Unit, UnitType: "prod_red", UnitOff: i64(1 + int64(r.IntN(4))), Effect: []Effect{AddMissingItems, AddNewItems}[r.IntN(2)]},
	}[r.IntN(10)]
	effects := []string{ApplyToEvery, ApplyToCheapest, ApplyToMostExpensive, ApplyFromCheapest, ApplyFromMostExpensive}
	app := &Applicability{}
	for i := range 4 {
		if r.IntN(2) == 0 {
			e := Target{Object: "product", ID: fmt.Sprintf("prod_%d", i), Effect: effects[r.IntN(len(effects))], Target: []string{TargetItem, TargetUnit}[r.IntN(2)]}
			switch r.IntN(6) { // SKUs and source ids name lines too
			case 0:
				e.Object, e.ID = "sku", fmt.Sprintf("sku_%d", i%3)
			case 1:
				e.Object, e.ID, e.SourceID = "sku", "", str(fmt.Sprintf("src-sku_%d", i%3))
			case 2:
				e.ID, e.SourceID = "", str(e.ID)
				*e.SourceID = "src-" + *e.SourceID
			}
			if r.IntN(3) == 0 {
				e.QuantityLimit = i64(int64(r.IntN(3)))
			}
			if r.IntN(3) == 0 {
				e.AmountLimit = i64(int64(r.IntN(2000)))
			}
			if r.IntN(3) == 0 {
				e.SkipInitially, e.Repeat = i64(int64(r.IntN(3))), i64(int64(r.IntN(3)))
			}
			app.Included = append(app.Included, e)
		}
	}
	if r.IntN(3) == 0 {
		app.Excluded = []Target{{Object: "product", ID: fmt.Sprintf("prod_%d", r.IntN(4))}}
	}
	return d, app
}

// checkInvariants holds the money rules after any discount: no amount
// negative, totals add up, a line discount within its line.
func checkInvariants(t *testing.T, c *order.Order, applied int64) {
	t.Helper()
	var lines int64
	for i, l := range c.Items {
		if l.DiscountAmount < 0 || l.AppliedDiscountAmount < 0 || l.Amount < 0 || l.Quantity < 0 {
			t.Fatalf("line %d has a negative figure: %+v", i, l)
		}
		if l.DiscountAmount > l.Amount {
			t.Fatalf("line %d discount %d exceeds its amount %d", i, l.DiscountAmount, l.Amount)
		}
		lines += l.DiscountAmount
	}
	if c.ItemsDiscountAmount != lines || c.TotalDiscountAmount != c.DiscountAmount+lines {
		t.Fatalf("totals do not add up")
	}
	again := c.Fork()
	again.Recompute()
	if again.TotalAmount != c.TotalAmount || again.ItemsAppliedDiscountAmount != c.ItemsAppliedDiscountAmount {
		t.Fatalf("incremental totals differ from a full recompute")
	}
	if c.TotalDiscountAmount > c.Amount {
		t.Fatalf("total discount %d exceeds the order amount %d", c.TotalDiscountAmount, c.Amount)
	}
	if c.TotalAmount < 0 || c.TotalAmount != c.Amount-c.TotalDiscountAmount {
		t.Fatalf("total_amount %d != amount %d - total_discount %d", c.TotalAmount, c.Amount, c.TotalDiscountAmount)
	}
	if applied != c.TotalAppliedDiscountAmount || applied < 0 {
		t.Fatalf("Apply returned %d, the cart shows %d applied", applied, c.TotalAppliedDiscountAmount)
	}
}

func TestMoneyInvariants(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		c := randomCart(r)
		for range 1 + r.IntN(3) { // a few redeemables with running totals
			d, app := randomDiscount(r)
			if err := d.Validate(".discount"); err != nil {
				t.Fatalf("random discount invalid: %v", err)
			}
			c.ResetApplied()
			indexed := c.Clone()
			applied, err := Apply(c, d, app, catalog)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, c, applied)
			// The line index changes which lines are visited, never the result.
			got, err := ApplyIndexed(indexed, d, app, catalog, IndexLines(indexed))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.Items, indexed.Items); diff != "" || got != applied || c.Amounts() != indexed.Amounts() {
				t.Fatalf("indexed apply differs (-plain +indexed):\n%s\napplied %d vs %d", diff, applied, got)
			}
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add(`{"type":"AMOUNT","amount_off":100,"effect":"APPLY_TO_ITEMS_PROPORTIONALLY"}`, `{"included":[{"object":"product","id":"prod_1","effect":"APPLY_FROM_CHEAPEST","repeat":2,"target":"UNIT"}]}`, uint64(1))
	f.Add(`{"type":"PERCENT","percent_off":33.333,"amount_limit":7}`, `{"included_all":true}`, uint64(2))
	f.Add(`{"type":"UNIT","units":[{"unit_type":"prod_red","unit_off":3,"effect":"ADD_NEW_ITEMS"}]}`, `{}`, uint64(3))
	f.Fuzz(func(t *testing.T, dJSON, appJSON string, seed uint64) {
		var d Discount
		var app Applicability
		if json.Unmarshal([]byte(dJSON), &d) != nil || json.Unmarshal([]byte(appJSON), &app) != nil {
			return
		}
		if err := d.Validate(".discount"); err != nil {
			if !strings.HasPrefix(promotype.AsError(err).Details, "Property .discount") {
				t.Fatalf("a refusal must name the property: %v", err)
			}
			return
		}
		c := randomCart(rand.New(rand.NewPCG(seed, seed)))
		c.ResetApplied()
		applied, err := Apply(c, &d, &app, catalog)
		if err != nil {
			return // unknown unit type
		}
		checkInvariants(t, c, applied)
	})
}
