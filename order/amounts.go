package order

// Amounts are the nine calculated amounts of an order (see Order).
type Amounts struct {
	Amount                     int64
	InitialAmount              int64
	DiscountAmount             int64
	ItemsDiscountAmount        int64
	TotalDiscountAmount        int64
	TotalAmount                int64
	AppliedDiscountAmount      int64
	ItemsAppliedDiscountAmount int64
	TotalAppliedDiscountAmount int64
}

// Amounts returns o's calculated amounts.
func (o *Order) Amounts() Amounts {
	return Amounts{o.Amount, o.InitialAmount, o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount,
		o.TotalAmount, o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount, o.TotalAppliedDiscountAmount}
}

func (o *Order) putAmounts(a Amounts) {
	o.Amount, o.InitialAmount, o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount = a.Amount,
		a.InitialAmount, a.DiscountAmount, a.ItemsDiscountAmount, a.TotalDiscountAmount
	o.TotalAmount, o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount, o.TotalAppliedDiscountAmount = a.TotalAmount,
		a.AppliedDiscountAmount, a.ItemsAppliedDiscountAmount, a.TotalAppliedDiscountAmount
}

// LineAmounts are the counts and amounts of a line that discounts change
// (the rest of a line, its initial values, price and product data, stays).
type LineAmounts struct {
	Quantity                int64
	DiscountQuantity        int64
	Amount                  int64
	DiscountAmount          int64
	AppliedDiscountAmount   int64
	AppliedDiscountQuantity int64
	AppliedQuantity         int64
	AppliedQuantityAmount   int64
	SubtotalAmount          int64
}

// LineAmounts returns the line's counts and amounts that discounts change.
func (it *Item) LineAmounts() LineAmounts {
	return LineAmounts{it.Quantity, it.DiscountQuantity, it.Amount, it.DiscountAmount, it.AppliedDiscountAmount,
		it.AppliedDiscountQuantity, it.AppliedQuantity, it.AppliedQuantityAmount, it.SubtotalAmount}
}

func (it *Item) setLineAmounts(a LineAmounts) {
	it.Quantity, it.DiscountQuantity, it.Amount, it.DiscountAmount, it.AppliedDiscountAmount = a.Quantity,
		a.DiscountQuantity, a.Amount, a.DiscountAmount, a.AppliedDiscountAmount
	it.AppliedDiscountQuantity, it.AppliedQuantity, it.AppliedQuantityAmount, it.SubtotalAmount = a.AppliedDiscountQuantity,
		a.AppliedQuantity, a.AppliedQuantityAmount, a.SubtotalAmount
}

// hasApplied reports whether o carries a redeemable's applied_* amounts.
func (o *Order) hasApplied() bool {
	if o.AppliedDiscountAmount != 0 || o.ItemsAppliedDiscountAmount != 0 || o.TotalAppliedDiscountAmount != 0 {
		return true
	}
	for i := range o.Items {
		it := &o.Items[i]
		if it.AppliedDiscountAmount != 0 || it.AppliedDiscountQuantity != 0 || it.AppliedQuantity != 0 || it.AppliedQuantityAmount != 0 {
			return true
		}
	}
	return false
}
