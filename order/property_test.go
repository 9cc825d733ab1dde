package order_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// checkInvariants checks what every calculated order satisfies, whatever
// discounts were applied (the money rules of money.go): totals add up,
// total_amount = amount − total_discount_amount, no amount is negative, a
// line discount never exceeds its line, and the applied amounts are parts
// of the discounts.
func checkInvariants(t testing.TB, o *order.Order) {
	t.Helper()
	if err := invariants(o); err != nil {
		t.Fatalf("%v\norder: %+v", err, totalsOf(o))
	}
}

func invariants(o *order.Order) error {
	var disc, applied int64
	for i, it := range o.Items {
		for name, v := range map[string]int64{"quantity": it.Quantity, "initial_quantity": it.InitialQuantity, "discount_quantity": it.DiscountQuantity,
			"amount": it.Amount, "initial_amount": it.InitialAmount, "discount_amount": it.DiscountAmount,
			"applied_discount_amount": it.AppliedDiscountAmount, "subtotal_amount": it.SubtotalAmount} {
			if v < 0 {
				return fmt.Errorf("item %d: %s %d < 0", i, name, v)
			}
		}
		if it.Price != nil && *it.Price < 0 {
			return fmt.Errorf("item %d: price %d < 0", i, *it.Price)
		}
		if it.DiscountAmount > it.Amount {
			return fmt.Errorf("item %d: discount %d > amount %d", i, it.DiscountAmount, it.Amount)
		}
		if it.SubtotalAmount != it.Amount-it.DiscountAmount {
			return fmt.Errorf("item %d: subtotal %d ≠ amount %d − discount %d", i, it.SubtotalAmount, it.Amount, it.DiscountAmount)
		}
		if it.AppliedDiscountAmount > it.DiscountAmount {
			return fmt.Errorf("item %d: applied %d > discount %d", i, it.AppliedDiscountAmount, it.DiscountAmount)
		}
		if it.Amount > order.MaxAmount {
			return fmt.Errorf("item %d: amount %d > MaxAmount", i, it.Amount)
		}
		disc += it.DiscountAmount
		applied += it.AppliedDiscountAmount
	}
	switch {
	case o.ItemsDiscountAmount != disc:
		return fmt.Errorf("items_discount_amount %d ≠ Σ line discounts %d", o.ItemsDiscountAmount, disc)
	case o.ItemsAppliedDiscountAmount != applied:
		return fmt.Errorf("items_applied_discount_amount %d ≠ Σ line applied %d", o.ItemsAppliedDiscountAmount, applied)
	case o.TotalDiscountAmount != o.DiscountAmount+o.ItemsDiscountAmount:
		return fmt.Errorf("total_discount_amount %d ≠ %d + %d", o.TotalDiscountAmount, o.DiscountAmount, o.ItemsDiscountAmount)
	case o.TotalAmount != o.Amount-o.TotalDiscountAmount:
		return fmt.Errorf("total_amount %d ≠ amount %d − total discount %d", o.TotalAmount, o.Amount, o.TotalDiscountAmount)
	case o.TotalAppliedDiscountAmount != o.AppliedDiscountAmount+o.ItemsAppliedDiscountAmount:
		return fmt.Errorf("total_applied_discount_amount %d ≠ %d + %d", o.TotalAppliedDiscountAmount, o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount)
	case o.AppliedDiscountAmount > o.DiscountAmount:
		return fmt.Errorf("applied_discount_amount %d > discount_amount %d", o.AppliedDiscountAmount, o.DiscountAmount)
	case o.Amount < 0 || o.InitialAmount < 0 || o.DiscountAmount < 0 || o.TotalAmount < 0 || o.Amount > order.MaxAmount:
		return fmt.Errorf("an order amount is out of range: %+v", totalsOf(o))
	}
	return nil
}

// randomCatalog makes products (some without a price or a source id) and SKUs.
func randomCatalog(r *rand.Rand) ([]*catalog.Product, []*catalog.SKU) {
	var prods []*catalog.Product
	var skus []*catalog.SKU
	for i := range 1 + r.IntN(20) {
		p := &catalog.Product{ID: fmt.Sprintf("prod_%d", i), Metadata: promotype.Metadata{}}
		if r.IntN(4) > 0 {
			p.Price = ptr(randMoney(r))
		}
		if r.IntN(2) == 0 {
			p.SourceID = ptr(fmt.Sprintf("p-src-%d", i))
		}
		prods = append(prods, p)
		for j := range r.IntN(3) {
			s := &catalog.SKU{ID: fmt.Sprintf("sku_%d_%d", i, j), ProductID: p.ID, SourceID: ptr(fmt.Sprintf("s-src-%d-%d", i, j)), Metadata: promotype.Metadata{}}
			if r.IntN(3) > 0 {
				s.Price = ptr(randMoney(r))
			}
			skus = append(skus, s)
		}
	}
	return prods, skus
}

// randMoney is usually a shop price, sometimes 0 or huge.
func randMoney(r *rand.Rand) int64 {
	switch r.IntN(10) {
	case 0:
		return 0
	case 1:
		return r.Int64N(order.MaxAmount / 1000)
	}
	return r.Int64N(100_000)
}

// randomRequest makes a valid request over the catalog.
func randomRequest(r *rand.Rand, prods []*catalog.Product, skus []*catalog.SKU) *order.Params {
	in := &order.Params{}
	n := r.IntN(30)
	if r.IntN(50) == 0 {
		n = order.MaxItems
	}
	for range n {
		var it order.ItemParams
		switch k := r.IntN(6); {
		case k == 0 && len(skus) > 0:
			it.SKUID = &skus[r.IntN(len(skus))].ID
		case k == 1 && len(skus) > 0:
			s := skus[r.IntN(len(skus))]
			it.SourceID, it.RelatedObject = s.SourceID, ptr(order.RelatedSKU)
		case k == 2:
			if p := prods[r.IntN(len(prods))]; p.SourceID != nil {
				it.SourceID = p.SourceID
			} else {
				it.ProductID = &p.ID
			}
		case k == 3:
			it.Price = ptr(randMoney(r)) // free-form
		default:
			it.ProductID = &prods[r.IntN(len(prods))].ID
		}
		if r.IntN(2) == 0 {
			it.Quantity = order.Qty(1 + r.Int64N(5))
		}
		if r.IntN(5) == 0 {
			it.Price = ptr(randMoney(r))
		}
		if r.IntN(8) == 0 {
			it.Amount = ptr(randMoney(r))
		}
		in.Items = append(in.Items, it)
	}
	if r.IntN(6) == 0 {
		in.Amount = ptr(randMoney(r))
	}
	return in
}

// TestCalculateProperties calculates thousands of random orders and checks
// the invariants after Calculate and after every step of random discounts:
// line and order discounts, percentages, proportional splits, added and
// free units, and the reset between stacked redeemables.
func TestCalculateProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(20260101, 5))
	for n := range 3000 {
		prods, skus := randomCatalog(r)
		cat := order.NewCatalog(prods, skus)
		in := randomRequest(r, prods, skus)
		o, err := order.Calculate(in, cat)
		if err != nil {
			// Only the sum of huge amounts may be refused here.
			if e := promotype.AsError(err); e.Code != 400 {
				t.Fatalf("case %d: %v", n, err)
			}
			continue
		}
		if err := invariants(o); err != nil {
			t.Fatalf("case %d after Calculate: %v", n, err)
		}
		checkPlain(t, n, in, o)
		for step := range 12 {
			applyRandomDiscount(r, o, true)
			if err := invariants(o); err != nil {
				t.Fatalf("case %d step %d: %v", n, step, err)
			}
			// The incremental updates agree with a full recomputation.
			c := o.Clone()
			c.Recompute()
			if totalsOf(c) != totalsOf(o) {
				t.Fatalf("case %d step %d: Recompute gives %+v, incremental %+v", n, step, totalsOf(c), totalsOf(o))
			}
		}
	}
}

// checkPlain checks the formulas of a plain (undiscounted) calculation.
func checkPlain(t *testing.T, n int, in *order.Params, o *order.Order) {
	t.Helper()
	var sum int64
	for i, it := range o.Items {
		req := in.Items[i]
		q := int64(1)
		if req.Quantity != nil {
			q = req.Quantity.Value()
		}
		switch {
		case req.Amount != nil && it.Amount != *req.Amount:
			t.Fatalf("case %d item %d: amount %d, sent %d", n, i, it.Amount, *req.Amount)
		case req.Amount == nil && it.Price != nil && it.Amount != *it.Price*q:
			t.Fatalf("case %d item %d: amount %d ≠ price %d × quantity %d", n, i, it.Amount, *it.Price, q)
		case req.Amount == nil && it.Price == nil && it.Amount != 0:
			t.Fatalf("case %d item %d: unpriced line with amount %d", n, i, it.Amount)
		case req.Price != nil && *it.Price != *req.Price:
			t.Fatalf("case %d item %d: price %d, sent %d", n, i, *it.Price, *req.Price)
		case it.SKU != nil && req.Price == nil && it.SKU.Price != nil && *it.Price != *it.SKU.Price:
			t.Fatalf("case %d item %d: price %d, SKU price %d", n, i, *it.Price, *it.SKU.Price)
		case it.InitialAmount != it.Amount || it.InitialQuantity != it.Quantity || it.Quantity != q:
			t.Fatalf("case %d item %d: initial values differ: %+v", n, i, it)
		}
		sum += it.Amount
	}
	if in.Amount == nil && o.Amount != sum {
		t.Fatalf("case %d: amount %d ≠ Σ lines %d", n, o.Amount, sum)
	}
	if in.Amount != nil && o.Amount != *in.Amount {
		t.Fatalf("case %d: amount %d, sent %d", n, o.Amount, *in.Amount)
	}
	if o.InitialAmount != o.Amount || o.TotalAmount != o.Amount || o.TotalDiscountAmount != 0 {
		t.Fatalf("case %d: a plain order %+v", n, totalsOf(o))
	}
}

// applyRandomDiscount applies one random step to o: a discount, added or
// free units, or (when reset) the reset between stacked redeemables.
func applyRandomDiscount(r *rand.Rand, o *order.Order, reset bool) {
	pct := func() decimal.Decimal { return decimal.New(r.Int64N(10001), -2) }
	switch k := r.IntN(8); {
	case k == 0:
		o.ApplyOrderDiscount(randMoney(r))
	case k == 1:
		o.ApplyOrderDiscount(order.PercentOf(o.TotalAmount, pct()))
	case k == 7 && reset:
		o.ResetApplied()
	case len(o.Items) == 0:
	case k == 2:
		i := r.IntN(len(o.Items))
		o.ApplyItemDiscount(i, randMoney(r))
	case k == 3:
		i := r.IntN(len(o.Items))
		o.ApplyItemDiscount(i, order.PercentOf(o.Items[i].Amount, pct()))
	case k == 4:
		weights := make([]int64, len(o.Items))
		for i, it := range o.Items {
			weights[i] = it.Amount
		}
		for i, p := range order.Split(randMoney(r), weights) {
			o.ApplyItemDiscount(i, p)
		}
	case k == 5:
		i := r.IntN(len(o.Items))
		_ = o.AddUnits(i, r.Int64N(10)) // may refuse past MaxAmount, changing nothing
	case k == 6:
		i := r.IntN(len(o.Items))
		o.DiscountUnits(i, 1+r.Int64N(o.Items[i].Quantity))
	}
}
