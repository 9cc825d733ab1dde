package discount

// Line is an order line as discounts see and change it.
type Line struct {
	ProductID       string
	ProductSourceID string
	SKUID           string
	SKUSourceID     string
	Price           int64 // unit price; meaningful when HasPrice
	HasPrice        bool

	InitialQuantity int64 // before any effect (0 for an added line)
	Quantity        int64 // after effects
	InitialAmount   int64
	Amount          int64 // Price × Quantity (or the client's amount)

	DiscountQuantity int64 // units made free, cumulative
	DiscountAmount   int64 // cumulative over redeemables

	// Changes made by the redeemable being applied.
	AppliedDiscountAmount   int64
	AppliedDiscountQuantity int64
	AppliedQuantity         int64
	AppliedQuantityAmount   int64

	Added  bool // added by a unit effect
	Origin int  // index of the line in the request; -1 when added
}

// remaining is what can still be discounted on the line.
func (l *Line) remaining() int64 { return max(0, l.Amount-l.DiscountAmount) }

// Cart is an order being priced: its lines and the order-level figures,
// with running totals over the redeemables applied so far.
type Cart struct {
	Lines         []Line
	Amount        int64 // Σ line amounts, or the client's amount
	InitialAmount int64
	// DiscountAmount is the order-level discount, cumulative.
	DiscountAmount int64
	// AppliedDiscountAmount is the order-level discount of the redeemable
	// being applied.
	AppliedDiscountAmount int64
}

// ItemsDiscountAmount is Σ line discount_amount.
func (c *Cart) ItemsDiscountAmount() int64 {
	var s int64
	for i := range c.Lines {
		s += c.Lines[i].DiscountAmount
	}
	return s
}

// ItemsAppliedDiscountAmount is Σ line applied_discount_amount.
func (c *Cart) ItemsAppliedDiscountAmount() int64 {
	var s int64
	for i := range c.Lines {
		s += c.Lines[i].AppliedDiscountAmount
	}
	return s
}

// TotalDiscountAmount is the order-level plus the item discounts.
func (c *Cart) TotalDiscountAmount() int64 { return c.DiscountAmount + c.ItemsDiscountAmount() }

// TotalAmount is amount − total_discount_amount, never negative.
func (c *Cart) TotalAmount() int64 { return max(0, c.Amount-c.TotalDiscountAmount()) }

// TotalAppliedDiscountAmount is what the redeemable being applied took.
func (c *Cart) TotalAppliedDiscountAmount() int64 {
	return c.AppliedDiscountAmount + c.ItemsAppliedDiscountAmount()
}

// Begin starts a new redeemable: its applied figures start from zero while
// the cumulative ones carry on (running totals of a stack).
func (c *Cart) Begin() {
	c.AppliedDiscountAmount = 0
	for i := range c.Lines {
		l := &c.Lines[i]
		l.AppliedDiscountAmount, l.AppliedDiscountQuantity, l.AppliedQuantity, l.AppliedQuantityAmount = 0, 0, 0, 0
	}
}

// Clone copies the cart (its lines are values: one allocation).
func (c *Cart) Clone() *Cart {
	out := *c
	out.Lines = append(make([]Line, 0, len(c.Lines)+1), c.Lines...)
	return &out
}

// UnitInfo describes the product or SKU a unit discount gives.
type UnitInfo struct {
	ProductID       string
	ProductSourceID string
	SKUID           string
	SKUSourceID     string
	Price           int64
	HasPrice        bool
	Product         *ProductRef
	SKU             *SKURef
}

// Catalog looks up the product or SKU a unit_type names.
type Catalog func(unitType string) (UnitInfo, bool)
