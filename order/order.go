package order

import (
	"slices"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// Status is an order's state. Any of the four may be set by an update.
type Status string

// Order statuses.
const (
	StatusCreated   Status = "CREATED"
	StatusPaid      Status = "PAID"
	StatusCanceled  Status = "CANCELED"
	StatusFulfilled Status = "FULFILLED"
)

// Valid reports whether s is one of the four statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusCreated, StatusPaid, StatusCanceled, StatusFulfilled:
		return true
	}
	return false
}

// Limits of an order.
const (
	// MaxItems is the most items an order (request or response) holds.
	MaxItems = 500
	// MaxAmount bounds every money amount and quantity of a request and of
	// a calculated order: 2^53 − 1, the largest integer a JSON number keeps
	// exactly in every client (JavaScript's Number.MAX_SAFE_INTEGER). The
	// sum of MaxItems such amounts still fits an int64, so the calculation
	// cannot overflow.
	MaxAmount int64 = 1<<53 - 1
)

// Order is an order with its calculated amounts (object "order").
//
// Money fields are int64 in the smallest currency unit. The nine amount
// fields are always present:
//
//	amount                        Σ item amount, or the amount the client sent
//	initial_amount                amount before any effect (= amount on a plain order)
//	discount_amount               Σ order-level discounts
//	items_discount_amount         Σ item discount_amount
//	total_discount_amount         discount_amount + items_discount_amount
//	total_amount                  amount − total_discount_amount
//	applied_discount_amount       order-level discount of the redeemable being reported
//	items_applied_discount_amount Σ item applied_discount_amount
//	total_applied_discount_amount applied_discount_amount + items_applied_discount_amount
//
// An order computed for a request but not stored (Calculate, Resolve) has no
// id, status, created_at or redemptions: those keys are omitted.
type Order struct {
	ID                         string                `json:"id,omitzero"`
	SourceID                   *string               `json:"source_id"`
	CreatedAt                  promotype.Time        `json:"created_at,omitzero"`
	UpdatedAt                  *promotype.Time       `json:"updated_at"`
	Status                     Status                `json:"status,omitzero"`
	Amount                     int64                 `json:"amount"`
	InitialAmount              int64                 `json:"initial_amount"`
	DiscountAmount             int64                 `json:"discount_amount"`
	ItemsDiscountAmount        int64                 `json:"items_discount_amount"`
	TotalDiscountAmount        int64                 `json:"total_discount_amount"`
	TotalAmount                int64                 `json:"total_amount"`
	AppliedDiscountAmount      int64                 `json:"applied_discount_amount"`
	ItemsAppliedDiscountAmount int64                 `json:"items_applied_discount_amount"`
	TotalAppliedDiscountAmount int64                 `json:"total_applied_discount_amount"`
	Items                      []Item                `json:"items"`
	Metadata                   promotype.Metadata    `json:"metadata"`
	CustomerID                 *string               `json:"customer_id"`
	ReferrerID                 *string               `json:"referrer_id"`
	Customer                   *customer.Ref         `json:"customer,omitempty"` // derived from CustomerID
	Referrer                   *customer.Ref         `json:"referrer,omitempty"` // derived from ReferrerID
	Redemptions                map[string]Redemption `json:"redemptions,omitzero"`
	Object                     string                `json:"object"`

	ProjectID string `json:"-"`
}

// Item is one calculated line of an order (object "order_item"). Counts and
// amounts are integers; price is absent when neither the request nor the
// catalog gives one. The fields:
//
//	quantity, amount                   after effects; amount = price × quantity unless the client sent it
//	initial_quantity, initial_amount   before effects (0 for a line a unit effect added)
//	discount_quantity                  units made free by unit effects
//	discount_amount                    total discount on the line (≤ amount)
//	applied_discount_amount            the part put on by the redeemable being reported
//	applied_quantity, applied_quantity_amount, applied_discount_quantity
//	                                   changes made by that redeemable
//	subtotal_amount                    amount − discount_amount
type Item struct {
	Object                  string             `json:"object"`
	ID                      string             `json:"id,omitempty"`
	SourceID                string             `json:"source_id,omitempty"`
	RelatedObject           string             `json:"related_object,omitempty"`
	ProductID               string             `json:"product_id,omitempty"`
	SKUID                   string             `json:"sku_id,omitempty"`
	Quantity                int64              `json:"quantity"`
	DiscountQuantity        int64              `json:"discount_quantity"`
	InitialQuantity         int64              `json:"initial_quantity"`
	Amount                  int64              `json:"amount"`
	DiscountAmount          int64              `json:"discount_amount"`
	AppliedDiscountAmount   int64              `json:"applied_discount_amount"`
	AppliedDiscountQuantity int64              `json:"applied_discount_quantity"`
	AppliedQuantity         int64              `json:"applied_quantity"`
	AppliedQuantityAmount   int64              `json:"applied_quantity_amount"`
	InitialAmount           int64              `json:"initial_amount"`
	Price                   *int64             `json:"price,omitempty"`
	SubtotalAmount          int64              `json:"subtotal_amount"`
	Product                 *ItemProduct       `json:"product,omitempty"`
	SKU                     *ItemSKU           `json:"sku,omitempty"`
	Metadata                promotype.Metadata `json:"metadata,omitempty"`
}

// ItemProduct is the product of a line as the order saw it: the catalog's
// data, with what the request's item.product overrode.
type ItemProduct struct {
	ID       string             `json:"id"`
	SourceID *string            `json:"source_id"`
	Override bool               `json:"override,omitempty"`
	Name     *string            `json:"name"`
	Metadata promotype.Metadata `json:"metadata"`
	Price    *int64             `json:"price"`
}

// ItemSKU is the SKU of a line as the order saw it.
type ItemSKU struct {
	ID       string             `json:"id"`
	SourceID *string            `json:"source_id"`
	Override bool               `json:"override,omitempty"`
	SKU      *string            `json:"sku"`
	Metadata promotype.Metadata `json:"metadata"`
	Price    *int64             `json:"price"`
}

// Redemption is one entry of an order's redemptions, keyed by redemption id.
// Redemptions are not built yet: stored orders carry an empty object.
type Redemption struct {
	Date                  *promotype.Time `json:"date"`
	RollbackID            *string         `json:"rollback_id,omitempty"`
	RollbackDate          *promotype.Time `json:"rollback_date,omitempty"`
	RelatedObjectType     string          `json:"related_object_type"`
	RelatedObjectID       string          `json:"related_object_id"`
	RelatedObjectParentID *string         `json:"related_object_parent_id,omitempty"`
	Stacked               []string        `json:"stacked,omitempty"`
	RollbackStacked       []string        `json:"rollback_stacked,omitempty"`
}

// Clone returns a deep copy: nothing of it is shared with o.
func (o *Order) Clone() *Order {
	c := *o
	c.SourceID = promotype.ClonePtr(o.SourceID)
	c.UpdatedAt = promotype.ClonePtr(o.UpdatedAt)
	c.CustomerID = promotype.ClonePtr(o.CustomerID)
	c.ReferrerID = promotype.ClonePtr(o.ReferrerID)
	c.Customer = nil
	c.Referrer = nil
	if o.Metadata != nil {
		c.Metadata = o.Metadata.Clone()
	}
	c.Items = cloneItems(o.Items)
	c.Redemptions = o.CloneRedemptions()
	return &c
}

// CloneRedemptions returns a deep copy of o's redemptions (nil when o has
// none): what Clone copies of them, without copying the rest of o.
func (o *Order) CloneRedemptions() map[string]Redemption {
	if o.Redemptions == nil {
		return nil
	}
	out := make(map[string]Redemption, len(o.Redemptions))
	for k, r := range o.Redemptions {
		r.Date = promotype.ClonePtr(r.Date)
		r.RollbackID = promotype.ClonePtr(r.RollbackID)
		r.RollbackDate = promotype.ClonePtr(r.RollbackDate)
		r.RelatedObjectParentID = promotype.ClonePtr(r.RelatedObjectParentID)
		r.Stacked = slices.Clone(r.Stacked)
		r.RollbackStacked = slices.Clone(r.RollbackStacked)
		out[k] = r
	}
	return out
}

// cloneItems copies items with a few allocations whatever their number: the
// prices and the product and SKU snapshots of the copy live in shared
// backing arrays.
func cloneItems(items []Item) []Item {
	if items == nil {
		return nil
	}
	out := make([]Item, len(items))
	copy(out, items)
	var prices []int64
	var prods []ItemProduct
	var skus []ItemSKU
	for i := range out {
		it := &out[i]
		if it.Price != nil {
			if prices == nil {
				prices = make([]int64, 0, len(items))
			}
			prices = append(prices, *it.Price)
			it.Price = &prices[len(prices)-1]
		}
		if it.Product != nil {
			if prods == nil {
				prods = make([]ItemProduct, 0, len(items))
			}
			prods = append(prods, it.Product.clone())
			it.Product = &prods[len(prods)-1]
		}
		if it.SKU != nil {
			if skus == nil {
				skus = make([]ItemSKU, 0, len(items))
			}
			skus = append(skus, it.SKU.clone())
			it.SKU = &skus[len(skus)-1]
		}
		if it.Metadata != nil {
			it.Metadata = it.Metadata.Clone()
		}
	}
	return out
}

func (p *ItemProduct) clone() ItemProduct {
	c := *p
	c.SourceID = promotype.ClonePtr(p.SourceID)
	c.Name = promotype.ClonePtr(p.Name)
	c.Price = promotype.ClonePtr(p.Price)
	if p.Metadata != nil {
		c.Metadata = p.Metadata.Clone()
	}
	return c
}

func (s *ItemSKU) clone() ItemSKU {
	c := *s
	c.SourceID = promotype.ClonePtr(s.SourceID)
	c.SKU = promotype.ClonePtr(s.SKU)
	c.Price = promotype.ClonePtr(s.Price)
	if s.Metadata != nil {
		c.Metadata = s.Metadata.Clone()
	}
	return c
}

// normalize fills what every response carries: the object names, empty
// metadata and redemptions of a stored order, and the customer references.
func (o *Order) normalize() *Order {
	o.Object = "order"
	if o.Metadata == nil {
		o.Metadata = promotype.Metadata{}
	}
	if o.ID != "" && o.Redemptions == nil {
		o.Redemptions = map[string]Redemption{}
	}
	if o.Items == nil {
		o.Items = []Item{}
	}
	for i := range o.Items {
		it := &o.Items[i]
		it.Object = "order_item"
		if it.Product != nil && it.Product.Metadata == nil {
			it.Product.Metadata = promotype.Metadata{}
		}
		if it.SKU != nil && it.SKU.Metadata == nil {
			it.SKU.Metadata = promotype.Metadata{}
		}
	}
	o.Customer = customer.NewRef(o.CustomerID)
	o.Referrer = customer.NewRef(o.ReferrerID)
	return o
}
