package order

import "github.com/promoengine/promo/promotype"

// The discount step: how promotion evaluation (campaign) changes a
// calculated order. Each tier is priced on its own copy of the original
// order (Fork); a stack applies its tiers one after another to one copy,
// calling ResetApplied before each so that every redeemable's order shows
// only its own applied_* amounts while discount_amount and the totals stay
// cumulative (a stack applies its redeemables in turn). Every method keeps the invariants:
//
//	line: 0 ≤ discount_amount ≤ amount, subtotal_amount = amount − discount_amount
//	order: items_discount_amount = Σ line discount_amount,
//	       total_discount_amount = discount_amount + items_discount_amount,
//	       total_amount = amount − total_discount_amount ≥ 0,
//	       items_applied_discount_amount = Σ line applied_discount_amount,
//	       total_applied_discount_amount = applied_discount_amount + items_applied_discount_amount.
//
// Percentages and splits are computed with PercentOf, Ratio and Split
// (money.go) before being applied here.

// Fork returns a copy of o to apply discounts to, at the cost of one
// allocation per order plus one for its lines: the counts and amounts of
// the copy and of its lines are its own, while the lines' prices, product
// and SKU data and the metadata are shared with o (the discount step only
// reads them). Use Clone for a copy that shares nothing.
func (o *Order) Fork() *Order {
	c := *o
	c.Items = append(make([]Item, 0, len(o.Items)+1), o.Items...)
	return &c
}

// Recompute sets the derived fields (each line's subtotal_amount, the
// items_* sums and the totals) from the inputs: the lines' amount,
// discount_amount and applied_discount_amount, and the order's amount,
// discount_amount and applied_discount_amount.
func (o *Order) Recompute() {
	var disc, applied int64
	for i := range o.Items {
		it := &o.Items[i]
		it.SubtotalAmount = it.Amount - it.DiscountAmount
		disc += it.DiscountAmount
		applied += it.AppliedDiscountAmount
	}
	o.ItemsDiscountAmount = disc
	o.ItemsAppliedDiscountAmount = applied
	o.totals()
}

func (o *Order) totals() {
	o.TotalDiscountAmount = o.DiscountAmount + o.ItemsDiscountAmount
	o.TotalAmount = o.Amount - o.TotalDiscountAmount
	o.TotalAppliedDiscountAmount = o.AppliedDiscountAmount + o.ItemsAppliedDiscountAmount
}

// ResetApplied zeroes the applied_* fields of the order and its lines: call
// it before applying the next redeemable of a stack.
func (o *Order) ResetApplied() {
	for i := range o.Items {
		it := &o.Items[i]
		it.AppliedDiscountAmount, it.AppliedDiscountQuantity = 0, 0
		it.AppliedQuantity, it.AppliedQuantityAmount = 0, 0
	}
	o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount = 0, 0
	o.totals()
}

// ApplyItemDiscount puts a discount of up to amount on line i. It is capped
// by what is left of the line (its subtotal) and of the order (its total),
// so no amount goes negative; it returns the discount applied.
func (o *Order) ApplyItemDiscount(i int, amount int64) int64 {
	it := &o.Items[i]
	applied := min(amount, it.SubtotalAmount, o.TotalAmount)
	if applied <= 0 {
		return 0
	}
	it.DiscountAmount += applied
	it.AppliedDiscountAmount += applied
	it.SubtotalAmount -= applied
	o.ItemsDiscountAmount += applied
	o.ItemsAppliedDiscountAmount += applied
	o.totals()
	return applied
}

// ApplyOrderDiscount puts an order-level discount of up to amount on the
// order, capped by its running total; it returns the discount applied.
func (o *Order) ApplyOrderDiscount(amount int64) int64 {
	applied := min(amount, o.TotalAmount)
	if applied <= 0 {
		return 0
	}
	o.DiscountAmount += applied
	o.AppliedDiscountAmount += applied
	o.totals()
	return applied
}

// AddUnits adds n units to line i at its price (a unit effect raising a
// line): quantity, amount and the order amount grow by n units and
// price × n; applied_quantity and applied_quantity_amount record the change.
// A line without a price gets the units and no amount.
func (o *Order) AddUnits(i int, n int64) error {
	it := &o.Items[i]
	if n < 0 || n > MaxAmount-it.Quantity {
		return promotype.InvalidPayload("Adding %d units to item %d makes a quantity larger than %d", n, i, MaxAmount)
	}
	var add int64
	if it.Price != nil {
		a, ok := lineAmount(*it.Price, n)
		if !ok || it.Amount+a > MaxAmount || o.Amount+a > MaxAmount {
			return promotype.InvalidPayload("Adding %d units to item %d makes an amount larger than %d", n, i, MaxAmount)
		}
		add = a
	}
	it.Quantity += n
	it.Amount += add
	it.SubtotalAmount += add
	it.AppliedQuantity += n
	it.AppliedQuantityAmount += add
	o.Amount += add
	o.totals()
	return nil
}

// AddItem appends a line that a unit effect adds to the order (build it
// with Calculate from a one-item request): its initial quantity and amount
// are 0, and its quantity and amount count as added by the redeemable. It
// returns the new line's index.
func (o *Order) AddItem(it Item) (int, error) {
	if len(o.Items) >= MaxItems {
		return 0, promotype.InvalidPayload("Property .items must NOT have more than %d items", MaxItems)
	}
	if o.Amount+it.Amount > MaxAmount {
		return 0, promotype.InvalidPayload("Adding item %s makes an amount larger than %d", it.ProductID, MaxAmount)
	}
	it.Object = "order_item"
	it.InitialQuantity, it.InitialAmount = 0, 0
	it.DiscountAmount, it.DiscountQuantity, it.AppliedDiscountAmount, it.AppliedDiscountQuantity = 0, 0, 0, 0
	it.AppliedQuantity, it.AppliedQuantityAmount = it.Quantity, it.Amount
	it.SubtotalAmount = it.Amount
	o.Items = append(o.Items, it)
	o.Amount += it.Amount
	o.totals()
	return len(o.Items) - 1, nil
}

// DiscountUnits makes n units of line i free (a unit effect):
// discount_quantity grows by n and the line gets a discount of price × n,
// capped as ApplyItemDiscount caps it. It returns the discount applied.
func (o *Order) DiscountUnits(i int, n int64) int64 {
	it := &o.Items[i]
	if n <= 0 {
		return 0
	}
	it.DiscountQuantity += n
	it.AppliedDiscountQuantity += n
	if it.Price == nil {
		return 0
	}
	a, ok := lineAmount(*it.Price, n)
	if !ok {
		a = MaxAmount
	}
	return o.ApplyItemDiscount(i, a)
}
