package order

import (
	"strconv"
	"strings"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

// Catalog is the catalog data a calculation joins items to: products and
// SKUs indexed by id and by source id. Build it with NewCatalog from the
// records the items name (Keys lists them; the service reads them in one
// batch per kind). A SKU's product must be in it too. A nil *Catalog holds
// nothing, so only free-form lines can be calculated against it.
type Catalog struct {
	products       map[string]*catalog.Product
	productSources map[string]*catalog.Product
	skus           map[string]*catalog.SKU
	skuSources     map[string]*catalog.SKU
}

// NewCatalog indexes products and skus. The calculated orders made with it
// share the records' metadata maps and string pointers: treat both as
// read-only (Order.Clone copies them).
func NewCatalog(products []*catalog.Product, skus []*catalog.SKU) *Catalog {
	c := &Catalog{
		products:       make(map[string]*catalog.Product, len(products)),
		productSources: make(map[string]*catalog.Product, len(products)),
		skus:           make(map[string]*catalog.SKU, len(skus)),
		skuSources:     make(map[string]*catalog.SKU, len(skus)),
	}
	for _, p := range products {
		c.products[p.ID] = p
		if p.SourceID != nil {
			c.productSources[*p.SourceID] = p
		}
	}
	for _, s := range skus {
		c.skus[s.ID] = s
		if s.SourceID != nil {
			c.skuSources[*s.SourceID] = s
		}
	}
	return c
}

// Keys are the catalog records a request's items name, each listed once.
type Keys struct {
	ProductIDs       []string
	ProductSourceIDs []string
	SKUIDs           []string
	SKUSourceIDs     []string
}

// ItemKeys lists what items name in the catalog. A SKU's product is not
// listed: it is known only once the SKU is read.
func ItemKeys(items []ItemParams) Keys {
	var k Keys
	seen := make(map[[2]string]struct{}, len(items))
	add := func(list *[]string, kind, key string) {
		if _, ok := seen[[2]string{kind, key}]; ok {
			return
		}
		seen[[2]string{kind, key}] = struct{}{}
		*list = append(*list, key)
	}
	for i := range items {
		it := &items[i]
		bySKUSource := it.SourceID != nil && it.RelatedObject != nil && *it.RelatedObject == RelatedSKU
		switch {
		case it.SKUID != nil:
			add(&k.SKUIDs, "sku", *it.SKUID)
		case bySKUSource:
			add(&k.SKUSourceIDs, "sku-source", *it.SourceID)
		}
		switch {
		case it.ProductID != nil:
			add(&k.ProductIDs, "product", *it.ProductID)
		case it.SKUID == nil && it.SourceID != nil && !bySKUSource:
			add(&k.ProductSourceIDs, "product-source", *it.SourceID)
		}
	}
	return k
}

// Calculate turns a requested order into the calculated order. It is a pure
// function: no I/O, the catalog data comes in cat. It validates in (as
// Params.Validate does for the parts it reads), joins every item to the
// catalog, prices the lines and computes every amount of Order and Item for
// an order without discounts:
//
//   - line price: the item's price, else the SKU's (item.sku override, then
//     catalog), else the product's (item.product override, then catalog),
//     else none (the line's price is absent and its amount 0 unless sent);
//   - line amount: the item's amount, else price × quantity; quantity
//     defaults to 1; initial_quantity and initial_amount are the same values;
//   - line discount_amount: the item's, if sent (at most the line amount);
//     subtotal_amount = amount − discount_amount;
//   - order amount: the amount sent, else Σ line amounts; initial_amount: the
//     one sent, else amount; discount_amount: the one sent, else 0;
//   - items_discount_amount, total_discount_amount, total_amount and the
//     applied_* fields by the formulas documented on Order.
//
// A line or an order amount above MaxAmount, or discounts above the amount
// they apply to, are 400 invalid_payload; an item naming a product or SKU
// missing from cat is kept as sent, priced from the request. The result has status and metadata
// from in, no identity (id, created_at) and no customer: the service adds
// those. The discount step of promotion evaluation then works on it through
// the methods of discount.go.
func Calculate(in *Params, cat *Catalog) (*Order, error) {
	if err := in.validateCalc(); err != nil {
		return nil, err
	}
	o := &Order{}
	if in.Status != nil {
		o.Status = *in.Status
	}
	if in.Metadata != nil {
		o.Metadata = in.Metadata.Clone()
	}
	lines, err := buildLines(in.Items, cat)
	if err != nil {
		return nil, err
	}
	o.Items = lines
	if err := o.setAmounts(in, true); err != nil {
		return nil, err
	}
	return o.normalize(), nil
}

// setAmounts sets the order amounts from in and recomputes the totals.
// itemsChanged says whether in's items replaced the lines (always on a
// create), in which case an absent amount becomes the lines' sum; otherwise
// an absent amount keeps the stored one.
func (o *Order) setAmounts(in *Params, itemsChanged bool) error {
	switch {
	case in.Amount != nil:
		o.Amount = *in.Amount
	case itemsChanged:
		var sum int64 // ≤ MaxItems × MaxAmount: no overflow
		for i := range o.Items {
			sum += o.Items[i].Amount
		}
		if sum > MaxAmount {
			return promotype.InvalidPayload("Property .items: the item amounts sum to %d, more than the largest amount %d", sum, MaxAmount)
		}
		o.Amount = sum
	}
	switch {
	case in.InitialAmount != nil:
		o.InitialAmount = *in.InitialAmount
	case in.Amount != nil || itemsChanged:
		o.InitialAmount = o.Amount
	}
	if in.DiscountAmount != nil {
		o.DiscountAmount = *in.DiscountAmount
	}
	o.Recompute()
	if o.TotalAmount < 0 {
		return promotype.InvalidPayload("Property .discount_amount: the order's discounts (%d) must not exceed its amount (%d)", o.TotalDiscountAmount, o.Amount)
	}
	return nil
}

// buildLines joins and prices the requested items. The prices and the
// product and SKU snapshots live in backing arrays, so a request of any size
// costs a handful of allocations (plus the metadata it carries).
func buildLines(items []ItemParams, cat *Catalog) ([]Item, error) {
	lines := make([]Item, len(items))
	if len(items) == 0 {
		return lines, nil
	}
	prices := make([]int64, len(items))
	var prods []ItemProduct
	var skus []ItemSKU
	for i := range items {
		it, ln := &items[i], &lines[i]
		ln.Object = "order_item"
		prod, sku, err := cat.join(i, it)
		if err != nil {
			return nil, err
		}
		if it.SourceID != nil {
			ln.SourceID = *it.SourceID
		}
		if it.RelatedObject != nil {
			ln.RelatedObject = *it.RelatedObject
		} else if it.SourceID != nil && it.SKUID == nil && it.ProductID == nil {
			ln.RelatedObject = RelatedProduct // the default a source_id is joined by
		}
		var price *int64
		if sku != nil {
			if skus == nil {
				skus = make([]ItemSKU, len(items))
			}
			s := &skus[i]
			*s = ItemSKU{ID: sku.ID, SourceID: sku.SourceID, SKU: sku.SKU, Metadata: sku.Metadata, Price: sku.Price}
			if ov := it.SKU; ov != nil {
				s.Override = ov.Override != nil && *ov.Override
				if ov.SKU != nil {
					s.SKU = promotype.ClonePtr(ov.SKU)
				}
				if ov.Price != nil {
					s.Price = promotype.ClonePtr(ov.Price)
				}
				if ov.Metadata != nil {
					s.Metadata = ov.Metadata.Clone()
				}
			}
			ln.SKUID, ln.SKU, price = sku.ID, s, s.Price
		}
		if prod != nil {
			if prods == nil {
				prods = make([]ItemProduct, len(items))
			}
			p := &prods[i]
			*p = ItemProduct{ID: prod.ID, SourceID: prod.SourceID, Name: prod.Name, Metadata: prod.Metadata, Price: prod.Price}
			if ov := it.Product; ov != nil {
				p.Override = ov.Override != nil && *ov.Override
				if ov.Name != nil {
					p.Name = promotype.ClonePtr(ov.Name)
				}
				if ov.Price != nil {
					p.Price = promotype.ClonePtr(ov.Price)
				}
				if ov.Metadata != nil {
					p.Metadata = ov.Metadata.Clone()
				}
			}
			ln.ProductID, ln.Product = prod.ID, p
			if price == nil {
				price = p.Price
			}
		}
		if sku == nil && it.SKUID != nil {
			ln.SKUID = *it.SKUID // not in the catalog: kept as sent
		}
		if prod == nil && it.ProductID != nil {
			ln.ProductID = *it.ProductID // not in the catalog: kept as sent
		}
		if it.Price != nil {
			price = it.Price
		}
		q := int64(1)
		if it.Quantity != nil {
			q = it.Quantity.n
		}
		ln.Quantity, ln.InitialQuantity = q, q
		if price != nil {
			prices[i] = *price
			ln.Price = &prices[i]
		}
		switch {
		case it.Amount != nil:
			ln.Amount = *it.Amount
		case price != nil:
			a, ok := lineAmount(*price, q)
			if !ok {
				return nil, promotype.InvalidPayload("Property .items[%d]: price %d × quantity %d is more than the largest amount %d", i, *price, q, MaxAmount)
			}
			ln.Amount = a
		}
		ln.InitialAmount = ln.Amount
		if it.DiscountAmount != nil {
			if *it.DiscountAmount > ln.Amount {
				return nil, promotype.InvalidPayload("Property .items[%d].discount_amount must be <= the item amount %d", i, ln.Amount)
			}
			ln.DiscountAmount = *it.DiscountAmount
		}
		ln.SubtotalAmount = ln.Amount - ln.DiscountAmount
		if it.Metadata != nil {
			ln.Metadata = it.Metadata.Clone()
		}
	}
	return lines, nil
}

// join finds the product and SKU item i names (both nil for a free-form
// line): the SKU by sku_id, else by source_id when related_object is "sku";
// then the product by product_id (which must be the SKU's product when
// both are named), else the SKU's product, else by source_id. A product or
// SKU the catalog lacks is not an error: as the hosted service, the line is
// kept as sent (buildLines keeps the ids given) and priced from the request.
func (c *Catalog) join(i int, it *ItemParams) (*catalog.Product, *catalog.SKU, error) {
	var prod *catalog.Product
	var sku *catalog.SKU
	bySKUSource := it.SourceID != nil && it.RelatedObject != nil && *it.RelatedObject == RelatedSKU
	switch {
	case it.SKUID != nil:
		sku = c.sku(*it.SKUID, false)
	case bySKUSource:
		sku = c.sku(*it.SourceID, true)
	}
	switch {
	case sku != nil:
		if it.ProductID != nil && *it.ProductID != sku.ProductID {
			return nil, nil, promotype.InvalidPayload("Property .items[%d].product_id: SKU %s belongs to product %s, not %s", i, sku.ID, sku.ProductID, *it.ProductID)
		}
		if prod = c.product(sku.ProductID, false); prod == nil {
			return nil, nil, promotype.NotFound("product", sku.ProductID)
		}
	case it.ProductID != nil:
		prod = c.product(*it.ProductID, false)
	case it.SourceID != nil && !bySKUSource && it.SKUID == nil:
		prod = c.product(*it.SourceID, true)
	}
	return prod, sku, nil
}

func (c *Catalog) product(key string, bySource bool) *catalog.Product {
	if c == nil {
		return nil
	}
	if bySource {
		return c.productSources[key]
	}
	return c.products[key]
}

func (c *Catalog) sku(key string, bySource bool) *catalog.SKU {
	if c == nil {
		return nil
	}
	if bySource {
		return c.skuSources[key]
	}
	return c.skus[key]
}

// PrefixItem is the prefix of order item ids.
const PrefixItem = "ordli_"

// itemID is the id of line n (from 1) of the order with id orderID:
// "ordli_" + the order id's random part + "_" + n.
func itemID(orderID string, n int) string {
	return PrefixItem + strings.TrimPrefix(orderID, promotype.PrefixOrder) + "_" + strconv.Itoa(n)
}
