package order_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/order"
)

// The documented discount examples (E1–E10) replayed through the discount step's
// extension points (discount.go), against the plain orders Calculate makes.
// Promotion evaluation (issue 6) decides which lines and amounts; these
// tests pin that the calculated order and its methods give the documented
// exact numbers.

type totals struct {
	Amount, InitialAmount, DiscountAmount, ItemsDiscountAmount, TotalDiscountAmount, TotalAmount int64
	AppliedDiscountAmount, ItemsAppliedDiscountAmount, TotalAppliedDiscountAmount                int64
}

func totalsOf(o *order.Order) totals {
	return totals{o.Amount, o.InitialAmount, o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount, o.TotalAmount,
		o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount, o.TotalAppliedDiscountAmount}
}

func wantTotals(t *testing.T, what string, o *order.Order, want totals) {
	t.Helper()
	if got := totalsOf(o); got != want {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
	checkInvariants(t, o)
}

type line struct{ Quantity, DiscountQuantity, InitialQuantity, Amount, DiscountAmount, InitialAmount, SubtotalAmount int64 }

func wantLine(t *testing.T, what string, it order.Item, want line) {
	t.Helper()
	got := line{it.Quantity, it.DiscountQuantity, it.InitialQuantity, it.Amount, it.DiscountAmount, it.InitialAmount, it.SubtotalAmount}
	if got != want {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func refCart(t *testing.T) *order.Order {
	return calc(t, decodeParams(t, refCartRequest), refCatalog())
}

// E1 AMOUNT / APPLY_TO_ORDER: 100 off 72100.
func TestE1AmountOffOrder(t *testing.T) {
	t.Parallel()
	o := refCart(t)
	wantTotals(t, "plain cart", o, totals{Amount: 72100, InitialAmount: 72100, TotalAmount: 72100})
	if got := o.ApplyOrderDiscount(100); got != 100 {
		t.Errorf("applied %d, want 100", got)
	}
	wantTotals(t, "E1", o, totals{Amount: 72100, InitialAmount: 72100, DiscountAmount: 100, TotalDiscountAmount: 100, TotalAmount: 72000,
		AppliedDiscountAmount: 100, TotalAppliedDiscountAmount: 100})
	for i, it := range o.Items {
		if it.SubtotalAmount != it.Amount {
			t.Errorf("line %d: subtotal %d, amount %d", i, it.SubtotalAmount, it.Amount)
		}
	}
}

// E2 FIXED / APPLY_TO_ITEMS: every line's new unit price is 800.
func TestE2FixedNewPrice(t *testing.T) {
	t.Parallel()
	o := refCart(t)
	wantDisc := []int64{2100, 2300, 2100, 900, 700, 59200}
	for i := range o.Items {
		it := o.Items[i]
		if got := o.ApplyItemDiscount(i, max(0, it.Amount-800*it.Quantity)); got != wantDisc[i] {
			t.Errorf("line %d: discount %d, want %d", i, got, wantDisc[i])
		}
		if o.Items[i].SubtotalAmount != 800 {
			t.Errorf("line %d: subtotal %d, want 800", i, o.Items[i].SubtotalAmount)
		}
	}
	wantTotals(t, "E2", o, totals{Amount: 72100, InitialAmount: 72100, ItemsDiscountAmount: 67300, TotalDiscountAmount: 67300, TotalAmount: 4800,
		ItemsAppliedDiscountAmount: 67300, TotalAppliedDiscountAmount: 67300})
}

// E3 UNIT / ADD_MISSING_ITEMS: 5 vases free with one in the cart; and the
// SKU variant, 23 comics free with one in the cart.
func TestE3AddMissingItems(t *testing.T) {
	t.Parallel()
	o := refCart(t)
	must(t, o.AddUnits(4, 4))
	o.DiscountUnits(4, 5)
	wantLine(t, "vase", o.Items[4], line{Quantity: 5, DiscountQuantity: 5, InitialQuantity: 1, Amount: 7500, DiscountAmount: 7500, InitialAmount: 1500})
	wantTotals(t, "E3", o, totals{Amount: 78100, InitialAmount: 72100, ItemsDiscountAmount: 7500, TotalDiscountAmount: 7500, TotalAmount: 70600,
		ItemsAppliedDiscountAmount: 7500, TotalAppliedDiscountAmount: 7500})

	o = refCart(t)
	must(t, o.AddUnits(3, 22))
	o.DiscountUnits(3, 23)
	wantLine(t, "comics SKU", o.Items[3], line{Quantity: 23, DiscountQuantity: 23, InitialQuantity: 1, Amount: 39100, DiscountAmount: 39100, InitialAmount: 1700})
	if o.Amount != 109500 || o.TotalAmount != 70400 {
		t.Errorf("E3 SKU variant: amount %d total %d, want 109500 70400", o.Amount, o.TotalAmount)
	}
}

// E4 UNIT / ADD_NEW_ITEMS: 8 roses added free; and GIF's merged case.
func TestE4AddNewItems(t *testing.T) {
	t.Parallel()
	o := refCart(t)
	added := calc(t, &order.Params{Items: []order.ItemParams{{ProductID: ptr(roses.ID), Quantity: order.Qty(8)}}}, refCatalog())
	i, err := o.AddItem(added.Items[0])
	must(t, err)
	o.DiscountUnits(i, 8)
	wantLine(t, "roses", o.Items[i], line{Quantity: 8, DiscountQuantity: 8, Amount: 4000, DiscountAmount: 4000})
	wantTotals(t, "E4", o, totals{Amount: 76100, InitialAmount: 72100, ItemsDiscountAmount: 4000, TotalDiscountAmount: 4000, TotalAmount: 72100,
		ItemsAppliedDiscountAmount: 4000, TotalAppliedDiscountAmount: 4000})

	o = calc(t, decodeParams(t, `{"items":[{"product_id":"prod_0a9f9ab4ab019a42d5","quantity":1,"price":2900}]}`), refCatalog())
	must(t, o.AddUnits(0, 1))
	o.DiscountUnits(0, 1)
	wantLine(t, "GIF merged", o.Items[0], line{Quantity: 2, DiscountQuantity: 1, InitialQuantity: 1, Amount: 5800, DiscountAmount: 2900, InitialAmount: 2900, SubtotalAmount: 2900})
}

// E5 UNIT / ADD_MANY_ITEMS: four units at once.
func TestE5AddManyItems(t *testing.T) {
	t.Parallel()
	o := refCart(t)
	samsungLine := calc(t, &order.Params{Items: []order.ItemParams{{SKUID: ptr(samsungSK.ID), Quantity: order.Qty(11)}}}, refCatalog()).Items[0]
	i, err := o.AddItem(samsungLine) // ADD_MISSING 11, absent
	must(t, err)
	o.DiscountUnits(i, 11)
	must(t, o.AddUnits(3, 22)) // comics ADD_NEW 22
	o.DiscountUnits(3, 22)
	must(t, o.AddUnits(5, 110)) // iPhone ADD_MISSING 111, cart 1
	o.DiscountUnits(5, 111)
	must(t, o.AddUnits(4, 221)) // vase ADD_MISSING 222, cart 1
	o.DiscountUnits(4, 222)
	wantLine(t, "samsung", o.Items[i], line{Quantity: 11, DiscountQuantity: 11, Amount: 2310000, DiscountAmount: 2310000})
	wantLine(t, "comics", o.Items[3], line{Quantity: 23, DiscountQuantity: 22, InitialQuantity: 1, Amount: 39100, DiscountAmount: 37400, InitialAmount: 1700, SubtotalAmount: 1700})
	wantLine(t, "iphone", o.Items[5], line{Quantity: 111, DiscountQuantity: 111, InitialQuantity: 1, Amount: 6660000, DiscountAmount: 6660000, InitialAmount: 60000})
	wantLine(t, "vase", o.Items[4], line{Quantity: 222, DiscountQuantity: 222, InitialQuantity: 1, Amount: 333000, DiscountAmount: 333000, InitialAmount: 1500})
	wantTotals(t, "E5", o, totals{Amount: 9351000, InitialAmount: 72100, ItemsDiscountAmount: 9340400, TotalDiscountAmount: 9340400, TotalAmount: 10600,
		ItemsAppliedDiscountAmount: 9340400, TotalAppliedDiscountAmount: 9340400})
}

// E6 PERCENT / APPLY_TO_ORDER: 10% of 20050, and of 46500.
func TestE6PercentOffOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ amount, discount, total int64 }{{20050, 2005, 18045}, {46500, 4650, 41850}} {
		o := calc(t, &order.Params{Amount: ptr(tc.amount)}, nil)
		o.ApplyOrderDiscount(order.PercentOf(o.TotalAmount, decimal.NewFromInt(10)))
		if o.DiscountAmount != tc.discount || o.TotalAmount != tc.total {
			t.Errorf("10%% of %d: discount %d total %d, want %d %d", tc.amount, o.DiscountAmount, o.TotalAmount, tc.discount, tc.total)
		}
		checkInvariants(t, o)
	}
}

// E7 AMOUNT / APPLY_TO_ITEMS and APPLY_TO_ITEMS_PROPORTIONALLY on an order
// of 195000 whose matched lines are a mug (2000) and a pen (8000).
func TestE7AmountOffItems(t *testing.T) {
	t.Parallel()
	cart := `{"amount":195000,"items":[{"price":2000},{"price":8000},{"price":185000}]}`
	o := calc(t, decodeParams(t, cart), nil)
	o.ApplyItemDiscount(0, 1000)
	o.ApplyItemDiscount(1, 1000)
	if o.TotalDiscountAmount != 2000 || o.TotalAmount != 193000 {
		t.Errorf("APPLY_TO_ITEMS: total discount %d total %d, want 2000 193000", o.TotalDiscountAmount, o.TotalAmount)
	}
	o = calc(t, decodeParams(t, cart), nil)
	parts := order.Split(1000, []int64{o.Items[0].Amount, o.Items[1].Amount})
	o.ApplyItemDiscount(0, parts[0])
	o.ApplyItemDiscount(1, parts[1])
	if o.Items[0].DiscountAmount != 200 || o.Items[1].DiscountAmount != 800 || o.TotalAmount != 194000 {
		t.Errorf("PROPORTIONALLY: mug %d pen %d total %d, want 200 800 194000", o.Items[0].DiscountAmount, o.Items[1].DiscountAmount, o.TotalAmount)
	}
	checkInvariants(t, o)
}

// E8, the dashboard cart: Mug 2×$10, Poster 3×$15, T-shirt 3×$20 matched,
// Bottle 2×$25 not; $175.
func TestE8DashboardCart(t *testing.T) {
	t.Parallel()
	cart := func() *order.Order {
		o := calc(t, decodeParams(t, `{"items":[{"price":1000,"quantity":2},{"price":1500,"quantity":3},{"price":2000,"quantity":3},{"price":2500,"quantity":2}]}`), nil)
		if o.Amount != 17500 {
			t.Fatalf("cart amount %d, want 17500", o.Amount)
		}
		return o
	}
	matched := []int{0, 1, 2}
	tests := []struct {
		name  string
		apply func(o *order.Order)
		total int64
	}{
		{"$10 per line", func(o *order.Order) {
			for _, i := range matched {
				o.ApplyItemDiscount(i, 1000)
			}
		}, 14500},
		{"$10 per unit", func(o *order.Order) {
			for _, i := range matched {
				o.ApplyItemDiscount(i, 1000*o.Items[i].Quantity)
			}
		}, 9500},
		{"$10 proportionally by amount", func(o *order.Order) {
			for k, p := range order.Split(1000, []int64{o.Items[0].Amount, o.Items[1].Amount, o.Items[2].Amount}) {
				o.ApplyItemDiscount(matched[k], p)
			}
		}, 16500},
		{"$10 proportionally by quantity", func(o *order.Order) {
			for k, p := range order.Split(1000, []int64{o.Items[0].Quantity, o.Items[1].Quantity, o.Items[2].Quantity}) {
				o.ApplyItemDiscount(matched[k], p)
			}
		}, 16500},
		{"10% per line", func(o *order.Order) {
			for _, i := range matched {
				o.ApplyItemDiscount(i, order.PercentOf(o.Items[i].Amount, decimal.NewFromInt(10)))
			}
		}, 16250},
		{"new price $10", func(o *order.Order) {
			for _, i := range matched {
				o.ApplyItemDiscount(i, max(0, o.Items[i].Amount-1000*o.Items[i].Quantity))
			}
		}, 13000},
	}
	for _, tc := range tests {
		o := cart()
		tc.apply(o)
		if o.TotalAmount != tc.total {
			t.Errorf("%s: total %d, want %d", tc.name, o.TotalAmount, tc.total)
		}
		checkInvariants(t, o)
	}
}

// E10, five stacked redeemables with running totals: each redeemable's order
// shows the cumulative discounts and only its own applied_* amounts.
func TestE10StackedRunningTotals(t *testing.T) {
	t.Parallel()
	o := calc(t, decodeParams(t, `{"items":[{"price":2000},{"price":700}]}`), nil)
	steps := []struct {
		name  string
		apply func()
		want  totals
	}{
		{"AMOUNT 1000 on each item", func() { o.ApplyItemDiscount(0, 1000); o.ApplyItemDiscount(1, 1000) },
			totals{Amount: 2700, InitialAmount: 2700, ItemsDiscountAmount: 1700, TotalDiscountAmount: 1700, TotalAmount: 1000,
				ItemsAppliedDiscountAmount: 1700, TotalAppliedDiscountAmount: 1700}},
		{"loyalty card: no change", func() {},
			totals{Amount: 2700, InitialAmount: 2700, ItemsDiscountAmount: 1700, TotalDiscountAmount: 1700, TotalAmount: 1000}},
		{"gift credits 100", func() { o.ApplyOrderDiscount(100) },
			totals{Amount: 2700, InitialAmount: 2700, DiscountAmount: 100, ItemsDiscountAmount: 1700, TotalDiscountAmount: 1800, TotalAmount: 900,
				AppliedDiscountAmount: 100, TotalAppliedDiscountAmount: 100}},
		{"PERCENT 40 of the running total", func() { o.ApplyOrderDiscount(order.PercentOf(o.TotalAmount, decimal.NewFromInt(40))) },
			totals{Amount: 2700, InitialAmount: 2700, DiscountAmount: 460, ItemsDiscountAmount: 1700, TotalDiscountAmount: 2160, TotalAmount: 540,
				AppliedDiscountAmount: 360, TotalAppliedDiscountAmount: 360}},
		{"AMOUNT 30 on the order", func() { o.ApplyOrderDiscount(30) },
			totals{Amount: 2700, InitialAmount: 2700, DiscountAmount: 490, ItemsDiscountAmount: 1700, TotalDiscountAmount: 2190, TotalAmount: 510,
				AppliedDiscountAmount: 30, TotalAppliedDiscountAmount: 30}},
	}
	for _, s := range steps {
		o.ResetApplied()
		s.apply()
		wantTotals(t, s.name, o, s.want)
	}
	if o.Items[1].DiscountAmount != 700 {
		t.Errorf("the 700 line's discount is capped at 700, got %d", o.Items[1].DiscountAmount)
	}
}

// Caps: a discount never exceeds what it applies to.
func TestDiscountCaps(t *testing.T) {
	t.Parallel()
	o := calc(t, decodeParams(t, `{"amount":500,"items":[{"price":400},{"price":300}]}`), nil)
	if got := o.ApplyItemDiscount(0, 1000); got != 400 {
		t.Errorf("line cap: applied %d, want 400", got)
	}
	if got := o.ApplyItemDiscount(1, 1000); got != 100 { // the order (500) has 100 left
		t.Errorf("order cap on a line: applied %d, want 100", got)
	}
	if got := o.ApplyOrderDiscount(1); got != 0 {
		t.Errorf("nothing left: applied %d", got)
	}
	if got := o.ApplyItemDiscount(0, -5); got != 0 {
		t.Errorf("a negative discount applied %d", got)
	}
	checkInvariants(t, o)
	if o.TotalAmount != 0 {
		t.Errorf("total %d, want 0", o.TotalAmount)
	}
	// A line without a price gets units and no amount.
	p := calc(t, decodeParams(t, `{"items":[{"product_id":"prod_5h1pp1ng"}]}`), refCatalog())
	must(t, p.AddUnits(0, 2))
	if got := p.DiscountUnits(0, 3); got != 0 || p.Items[0].Quantity != 3 || p.Items[0].DiscountQuantity != 3 || p.Amount != 0 {
		t.Errorf("unpriced line: %+v", p.Items[0])
	}
	if err := p.AddUnits(0, order.MaxAmount); err == nil {
		t.Error("AddUnits took a quantity past MaxAmount")
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A fork's numbers are its own: discounting it leaves the original alone.
func TestForkIsolatesNumbers(t *testing.T) {
	t.Parallel()
	o := refCart(t)
	f := o.Fork()
	f.ApplyItemDiscount(0, 100)
	must(t, f.AddUnits(1, 2))
	f.ApplyOrderDiscount(50)
	if _, err := f.AddItem(order.Item{Amount: 10, Quantity: 1}); err != nil {
		t.Fatal(err)
	}
	wantTotals(t, "original after forking", o, totals{Amount: 72100, InitialAmount: 72100, TotalAmount: 72100})
	if len(o.Items) != 6 || o.Items[0].DiscountAmount != 0 || o.Items[1].Quantity != 1 {
		t.Errorf("the original's lines changed: %+v", o.Items[:2])
	}
	checkInvariants(t, f)
}
