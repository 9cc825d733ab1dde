package formula

// Env is what a formula reads: the order, its metadata and the metadata
// of the customer, the redemption request and the redeemable (the voucher
// or promotion tier). Amounts are in minor units (cents), as orders carry
// them; a formula sees them in currency units (amount / 100). Fill only
// what the program reads (Program.Reads).
type Env struct {
	OrderAmount        int64 // order amount, minor units
	OrderItemsQuantity int64 // number of order lines
	OrderUnitsQuantity int64 // sum of the lines' quantities

	OrderMetadata      map[string]any
	CustomerMetadata   map[string]any
	RedemptionMetadata map[string]any
	RedeemableMetadata map[string]any

	// Item is the order line a product discount is pricing; nil outside
	// one (order discounts, unit discounts).
	Item *Item
	// Cheapest and MostExpensive are the order's cheapest and most
	// expensive lines (Better picks them); nil when the order has no line
	// with a price.
	Cheapest, MostExpensive *Item

	// Voucher is the voucher being validated; nil for a promotion tier.
	Voucher *Voucher
}

// Voucher is what VOUCHER_* operands read.
type Voucher struct {
	RedemptionQuantity    int64 // its redemption limit
	HasRedemptionQuantity bool  // false: unlimited (the operand has no value)
	RedeemedQuantity      int64
	PublishCount          int64
}

// Item is an order line as a formula reads it. Amounts are minor units.
type Item struct {
	Price    int64
	HasPrice bool
	Amount   int64
	Subtotal int64
	Quantity int64

	Metadata        map[string]any
	ProductMetadata map[string]any
}

// Reads says which parts of an Env a program reads, so that the caller
// fills only those.
type Reads uint8

// What a program may read.
const (
	ReadsOrderCounts   Reads = 1 << iota // ORDER_ITEMS_QUANTITY, ORDER_UNITS_QUANTITY
	ReadsItem                            // ORDER_ITEM_*
	ReadsCheapest                        // CHEAPEST_ORDER_ITEM_*
	ReadsMostExpensive                   // MOST_EXPENSIVE_ORDER_ITEM_*
)

// Better reports whether line a comes before line b when choosing the
// cheapest (cheapest) or the most expensive line: by price, then the lower
// subtotal; on a tie the earlier line stays, so call it over the lines in
// order and keep the first.
func Better(a, b *Item, cheapest bool) bool {
	if a.Price != b.Price {
		return (a.Price < b.Price) == cheapest
	}
	return a.Subtotal < b.Subtotal
}
