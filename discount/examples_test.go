package discount

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

func dec(s string) *promotype.Decimal { d := promotype.NewDecimal(s); return &d }
func i64(v int64) *int64              { return &v }
func str(s string) *string            { return &s }

// line is a priced request line of qty units.
func line(product, sku string, price, qty int64) order.Item {
	return order.Item{Object: "order_item", ProductID: product, SKUID: sku, Price: &price, Quantity: qty, InitialQuantity: qty, Amount: price * qty, InitialAmount: price * qty}
}

func newCart(lines ...order.Item) *order.Order {
	c := &order.Order{Items: lines}
	for i := range c.Items {
		c.Amount += c.Items[i].Amount
	}
	c.InitialAmount = c.Amount
	c.Recompute()
	return c
}

// withAmount gives the cart a client amount, taken as it is.
func withAmount(c *order.Order, amount int64) *order.Order {
	c.Amount, c.InitialAmount = amount, amount
	c.Recompute()
	return c
}

// valCart is the six-line cart of the official promotions-validation
// examples: 2900 + 3100 + 2900 + 1700 (a SKU) + 1500 (the vase) + 60000 = 72100.
func valCart() *order.Order {
	return newCart(
		line("prod_red", "", 2900, 1), line("prod_blue", "", 3100, 1), line("prod_green", "", 2900, 1),
		line("prod_comics", "sku_comics", 1700, 1), line("prod_vase", "", 1500, 1), line("prod_iphone", "", 60000, 1))
}

var catalog Catalog = func(unitType string) (order.Item, bool) {
	priced := func(product, sku string, p int64) order.Item {
		return order.Item{ProductID: product, SKUID: sku, Price: &p}
	}
	items := map[string]order.Item{
		"prod_vase":     priced("prod_vase", "", 1500),
		"prod_roses":    priced("prod_roses", "", 500),
		"prod_red":      priced("prod_red", "", 2900),
		"prod_blue":     priced("prod_blue", "", 3100),
		"prod_iphone":   priced("prod_iphone", "", 60000),
		"sku_comics":    priced("prod_comics", "sku_comics", 1700),
		"sku_samsung":   priced("prod_samsung", "sku_samsung", 210000),
		"prod_5h1pp1ng": {ProductID: "prod_5h1pp1ng"},
	}
	it, ok := items[unitType]
	return it, ok
}

// totals are the order-level figures an example states.
type totals struct {
	Amount, InitialAmount, DiscountAmount, ItemsDiscountAmount, TotalDiscountAmount, TotalAmount, Applied int64
}

func totalsOf(c *order.Order) totals {
	return totals{c.Amount, c.InitialAmount, c.DiscountAmount, c.ItemsDiscountAmount, c.TotalDiscountAmount, c.TotalAmount, c.TotalAppliedDiscountAmount}
}

func apply(t *testing.T, c *order.Order, d *Discount, app *Applicability) int64 {
	t.Helper()
	if err := d.Validate(".discount"); err != nil {
		t.Fatalf("invalid discount: %v", err)
	}
	c.ResetApplied()
	got, err := Apply(c, d, app, catalog)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func lineDiscounts(c *order.Order) []int64 {
	out := make([]int64, len(c.Items))
	for i, l := range c.Items {
		out[i] = l.DiscountAmount
	}
	return out
}

func products(ids ...string) *Applicability {
	a := &Applicability{}
	for _, id := range ids {
		a.Included = append(a.Included, Target{Object: "product", ID: id, Effect: ApplyToEvery})
	}
	return a
}

func TestE1AmountToOrder(t *testing.T) {
	t.Parallel()
	c := valCart()
	got := apply(t, c, &Discount{Type: Amount, AmountOff: dec("100")}, nil)
	want := totals{Amount: 72100, InitialAmount: 72100, DiscountAmount: 100, TotalDiscountAmount: 100, TotalAmount: 72000, Applied: 100}
	if d := cmp.Diff(want, totalsOf(c)); d != "" || got != 100 {
		t.Errorf("discount %d; totals (-want +got):\n%s", got, d)
	}
}

func TestE2FixedToItems(t *testing.T) {
	t.Parallel()
	c := valCart()
	app := &Applicability{}
	for _, l := range c.Items {
		app.Included = append(app.Included, Target{Object: "product", ID: l.ProductID, Price: i64(800), Effect: ApplyToEvery})
	}
	apply(t, c, &Discount{Type: Fixed, FixedAmount: dec("800"), Effect: ApplyToItems}, app)
	if d := cmp.Diff([]int64{2100, 2300, 2100, 900, 700, 59200}, lineDiscounts(c)); d != "" {
		t.Errorf("line discounts (-want +got):\n%s", d)
	}
	if got := totalsOf(c); got.ItemsDiscountAmount != 67300 || got.TotalAmount != 4800 {
		t.Errorf("items discount %d total %d, want 67300 and 4800", got.ItemsDiscountAmount, got.TotalAmount)
	}
}

func TestE3AddMissingItems(t *testing.T) {
	t.Parallel()
	c := valCart()
	apply(t, c, &Discount{Type: Unit, UnitOff: i64(5), UnitType: "prod_vase", Effect: AddMissingItems}, nil)
	vase := c.Items[4]
	if vase.InitialQuantity != 1 || vase.Quantity != 5 || vase.DiscountQuantity != 5 || vase.InitialAmount != 1500 || vase.Amount != 7500 || vase.DiscountAmount != 7500 {
		t.Errorf("vase line = %+v", vase)
	}
	want := totals{Amount: 78100, InitialAmount: 72100, ItemsDiscountAmount: 7500, TotalDiscountAmount: 7500, TotalAmount: 70600, Applied: 7500}
	if d := cmp.Diff(want, totalsOf(c)); d != "" {
		t.Errorf("totals (-want +got):\n%s", d)
	}
	// The SKU variant: unit_off 23 of the 1700 SKU, cart holds 1.
	c = valCart()
	apply(t, c, &Discount{Type: Unit, UnitOff: i64(23), UnitType: "sku_comics"}, nil)
	comics := c.Items[3]
	if comics.Amount != 39100 || comics.DiscountAmount != 39100 || c.Amount != 109500 || c.TotalAmount != 70400 {
		t.Errorf("SKU variant: line %+v, order amount %d total %d", comics, c.Amount, c.TotalAmount)
	}
}

func TestE4AddNewItems(t *testing.T) {
	t.Parallel()
	c := valCart()
	apply(t, c, &Discount{Type: Unit, UnitOff: i64(8), UnitType: "prod_roses", Effect: AddNewItems}, nil)
	roses := c.Items[6]
	if roses.InitialQuantity != 0 || roses.Quantity != 8 || roses.Amount != 4000 || roses.DiscountAmount != 4000 {
		t.Errorf("roses line = %+v", roses)
	}
	if c.Amount != 76100 || c.ItemsDiscountAmount != 4000 || c.TotalAmount != 72100 {
		t.Errorf("order amount %d items discount %d total %d", c.Amount, c.ItemsDiscountAmount, c.TotalAmount)
	}
	// Merged into an existing line: qty 1 → 2, amount 5800, discount 2900.
	c = newCart(line("prod_red", "", 2900, 1))
	apply(t, c, &Discount{Type: Unit, UnitOff: i64(1), UnitType: "prod_red", Effect: AddNewItems}, nil)
	if l := c.Items[0]; len(c.Items) != 1 || l.Quantity != 2 || l.Amount != 5800 || l.DiscountAmount != 2900 {
		t.Errorf("merged line = %+v", c.Items)
	}
}

func TestE5AddManyItems(t *testing.T) {
	t.Parallel()
	c := valCart()
	d := &Discount{Type: Unit, Effect: AddManyItems, Units: []UnitItem{
		{UnitType: "sku_samsung", UnitOff: i64(11), Effect: AddMissingItems},
		{UnitType: "sku_comics", UnitOff: i64(22), Effect: AddNewItems},
		{UnitType: "prod_iphone", UnitOff: i64(111), Effect: AddMissingItems},
		{UnitType: "prod_vase", UnitOff: i64(222), Effect: AddMissingItems},
	}}
	got := apply(t, c, d, nil)
	comics, iphone, vase, samsung := c.Items[3], c.Items[5], c.Items[4], c.Items[6]
	checks := []struct {
		name                           string
		l                              order.Item
		qty, amount, discount, discQty int64
	}{
		{"samsung", samsung, 11, 2310000, 2310000, 11},
		{"comics", comics, 23, 39100, 37400, 22},
		{"iphone", iphone, 111, 6660000, 6660000, 111},
		{"vase", vase, 222, 333000, 333000, 222},
	}
	for _, ck := range checks {
		if ck.l.Quantity != ck.qty || ck.l.Amount != ck.amount || ck.l.DiscountAmount != ck.discount || ck.l.DiscountQuantity != ck.discQty {
			t.Errorf("%s line = %+v", ck.name, ck.l)
		}
	}
	want := totals{Amount: 9351000, InitialAmount: 72100, ItemsDiscountAmount: 9340400, TotalDiscountAmount: 9340400, TotalAmount: 10600, Applied: 9340400}
	if d := cmp.Diff(want, totalsOf(c)); d != "" || got != 9340400 {
		t.Errorf("tier discount %d; totals (-want +got):\n%s", got, d)
	}
	// The small case: Red ADD_MISSING 1, Blue ADD_NEW 1 on Red 2900 + Blue 3100.
	c = newCart(line("prod_red", "", 2900, 1), line("prod_blue", "", 3100, 1))
	apply(t, c, &Discount{Type: Unit, Units: []UnitItem{
		{UnitType: "prod_red", UnitOff: i64(1), Effect: AddMissingItems},
		{UnitType: "prod_blue", UnitOff: i64(1), Effect: AddNewItems},
	}}, nil)
	if c.Amount != 9100 || c.TotalDiscountAmount != 6000 || c.TotalAmount != 3100 || c.Items[1].Amount-c.Items[1].DiscountAmount != 3100 {
		t.Errorf("small case: amount %d discount %d total %d", c.Amount, c.TotalDiscountAmount, c.TotalAmount)
	}
}

func TestE6PercentToOrder(t *testing.T) {
	t.Parallel()
	// A client amount of 20050 is taken as it is, even above the lines.
	c := withAmount(newCart(line("prod_a", "", 10000, 1)), 20050)
	apply(t, c, &Discount{Type: Percent, PercentOff: dec("10"), Effect: ApplyToOrder}, nil)
	if c.DiscountAmount != 2005 || c.TotalAmount != 18045 {
		t.Errorf("discount %d total %d, want 2005 and 18045", c.DiscountAmount, c.TotalAmount)
	}
	c = newCart(line("prod_a", "", 46500, 1))
	apply(t, c, &Discount{Type: Percent, PercentOff: dec("10")}, nil)
	if c.DiscountAmount != 4650 || c.TotalAmount != 41850 {
		t.Errorf("discount %d total %d, want 4650 and 41850", c.DiscountAmount, c.TotalAmount)
	}
}

func TestE7AmountToItemsAndProportionally(t *testing.T) {
	t.Parallel()
	cart := func() *order.Order {
		return newCart(line("prod_mug", "", 2000, 1), line("prod_pen", "", 8000, 1), line("prod_other", "", 185000, 1))
	}
	c := cart()
	apply(t, c, &Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItems}, products("prod_mug", "prod_pen"))
	if d := cmp.Diff([]int64{1000, 1000, 0}, lineDiscounts(c)); d != "" || c.TotalAmount != 193000 {
		t.Errorf("APPLY_TO_ITEMS total %d (-want +got):\n%s", c.TotalAmount, d)
	}
	c = cart()
	apply(t, c, &Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItemsProportionally}, products("prod_mug", "prod_pen"))
	if d := cmp.Diff([]int64{200, 800, 0}, lineDiscounts(c)); d != "" || c.TotalAmount != 194000 {
		t.Errorf("PROPORTIONALLY total %d (-want +got):\n%s", c.TotalAmount, d)
	}
}

// E8: Mug 2×$10, Poster 3×$15, T-shirt 3×$20 matched; Bottle 2×$25 not.
func TestE8DashboardCart(t *testing.T) {
	t.Parallel()
	app := products("prod_mug", "prod_poster", "prod_tshirt")
	cart := func() *order.Order {
		return newCart(line("prod_mug", "", 1000, 2), line("prod_poster", "", 1500, 3), line("prod_tshirt", "", 2000, 3), line("prod_bottle", "", 2500, 2))
	}
	tests := []struct {
		name  string
		d     *Discount
		lines []int64
		total int64
	}{
		{"$10 per line", &Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItems}, []int64{1000, 1000, 1000, 0}, 14500},
		{"$10 per unit", &Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItemsByQuantity}, []int64{2000, 3000, 3000, 0}, 9500},
		{"$10 proportional", &Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItemsProportionally}, []int64{160, 360, 480, 0}, 16500},
		{"$10 by quantity", &Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItemsProportionallyByQuantity}, []int64{250, 375, 375, 0}, 16500},
		{"10% per line", &Discount{Type: Percent, PercentOff: dec("10"), Effect: ApplyToItems}, []int64{200, 450, 600, 0}, 16250},
		{"new price $10", &Discount{Type: Fixed, FixedAmount: dec("1000"), Effect: ApplyToItems}, []int64{0, 1500, 3000, 0}, 13000},
	}
	for _, tc := range tests {
		c := cart()
		apply(t, c, tc.d, app)
		if d := cmp.Diff(tc.lines, lineDiscounts(c)); d != "" || c.TotalAmount != tc.total {
			t.Errorf("%s: total %d, want %d; lines (-want +got):\n%s", tc.name, c.TotalAmount, tc.total, d)
		}
	}
}

// DTE: $5 off from the most expensive, skip 1, repeat 2, over T-shirt
// 3×$20, Poster 5×$15, Mug 2×$10, Socks 4×$5 (one applicable_to entry per
// product, all with the same mode): target ITEM gives Poster −5 and Socks
// −5; target UNIT with $5 per unit gives −5/−15/−5/−10 = −35.
func TestFromMostExpensiveSkipRepeat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		target string
		want   []int64
	}{
		{TargetItem, []int64{0, 500, 0, 500}},
		{TargetUnit, []int64{500, 1500, 500, 1000}},
	} {
		c := newCart(line("prod_tshirt", "", 2000, 3), line("prod_poster", "", 1500, 5), line("prod_mug", "", 1000, 2), line("prod_socks", "", 500, 4))
		app := &Applicability{}
		for _, id := range []string{"prod_mug", "prod_socks", "prod_tshirt", "prod_poster"} {
			app.Included = append(app.Included, Target{Object: "product", ID: id, Effect: ApplyFromMostExpensive, SkipInitially: i64(1), Repeat: i64(2), Target: tc.target})
		}
		before := c.TotalAmount
		apply(t, c, &Discount{Type: Amount, AmountOff: dec("500"), Effect: ApplyToItems}, app)
		var sum int64
		for _, v := range tc.want {
			sum += v
		}
		if d := cmp.Diff(tc.want, lineDiscounts(c)); d != "" || before-c.TotalAmount != sum {
			t.Errorf("target %s: took %d (-want +got):\n%s", tc.target, before-c.TotalAmount, d)
		}
	}
}

// E10: five redeemables with running totals on lines 2000 + 700.
func TestE10StackedRunningTotals(t *testing.T) {
	t.Parallel()
	c := newCart(line("prod_a", "", 2000, 1), line("prod_b", "", 700, 1))
	steps := []struct {
		d                                       *Discount
		applied, discount, totalDiscount, total int64
	}{
		{&Discount{Type: Amount, AmountOff: dec("1000"), Effect: ApplyToItems}, 1700, 0, 1700, 1000},
		{&Discount{Type: Amount, AmountOff: dec("100"), Effect: ApplyToOrder}, 100, 100, 1800, 900}, // gift credits act as an order discount
		{&Discount{Type: Percent, PercentOff: dec("40"), Effect: ApplyToOrder}, 360, 460, 2160, 540},
		{&Discount{Type: Amount, AmountOff: dec("30"), Effect: ApplyToOrder}, 30, 490, 2190, 510},
	}
	for i, s := range steps {
		got := apply(t, c, s.d, &Applicability{IncludedAll: true})
		if got != s.applied || c.DiscountAmount != s.discount || c.TotalDiscountAmount != s.totalDiscount || c.TotalAmount != s.total {
			t.Errorf("step %d: applied %d discount %d total_discount %d total %d; want %d %d %d %d",
				i+1, got, c.DiscountAmount, c.TotalDiscountAmount, c.TotalAmount, s.applied, s.discount, s.totalDiscount, s.total)
		}
	}
	if d := cmp.Diff([]int64{1000, 700}, lineDiscounts(c)); d != "" {
		t.Errorf("the 700 line is capped at its amount (-want +got):\n%s", d)
	}
}

// TestEntryAggregatedAmountLimit caps what one applicable_to entry takes
// over all its lines, in line order, while another entry's lines are not
// counted against it.
func TestEntryAggregatedAmountLimit(t *testing.T) {
	t.Parallel()
	c := newCart(line("prod_a", "", 1000, 1), line("prod_b", "", 1000, 1), line("prod_a", "", 1000, 1))
	limit := int64(500)
	app := &Applicability{Included: []Target{
		{Object: "product", ID: "prod_a", Effect: ApplyToEvery, AggregatedAmountLimit: &limit},
		{Object: "product", ID: "prod_b", Effect: ApplyToEvery},
	}}
	got := apply(t, c, &Discount{Type: Amount, AmountOff: dec("400"), Effect: ApplyToItems}, app)
	if diff := cmp.Diff([]int64{400, 400, 100}, lineDiscounts(c)); diff != "" || got != 900 {
		t.Errorf("discount %d; line discounts (-want +got):\n%s", got, diff)
	}
}
