package discount

import (
	cat "github.com/promoengine/promo/catalog" // "catalog" names the unit catalog in tests
	"github.com/promoengine/promo/order"
)

// Application modes of an applicable_to entry.
const (
	ApplyToEvery           = "APPLY_TO_EVERY"
	ApplyToCheapest        = "APPLY_TO_CHEAPEST"
	ApplyFromCheapest      = "APPLY_FROM_CHEAPEST"
	ApplyToMostExpensive   = "APPLY_TO_MOST_EXPENSIVE"
	ApplyFromMostExpensive = "APPLY_FROM_MOST_EXPENSIVE"

	TargetItem = "ITEM"
	TargetUnit = "UNIT"
)

// Target is an entry of applicable_to / inapplicable_to: which product or
// SKU a product discount touches, and how.
type Target struct {
	Object                  string  `json:"object"` // product | sku | products_collection
	ID                      string  `json:"id"`
	SourceID                *string `json:"source_id,omitempty"`
	ProductID               *string `json:"product_id,omitempty"`
	ProductSourceID         *string `json:"product_source_id,omitempty"`
	Price                   *int64  `json:"price,omitempty"` // new unit price (FIXED)
	PriceFormula            *string `json:"price_formula,omitempty"`
	Effect                  string  `json:"effect"`
	QuantityLimit           *int64  `json:"quantity_limit,omitempty"`
	AggregatedQuantityLimit *int64  `json:"aggregated_quantity_limit,omitempty"`
	AmountLimit             *int64  `json:"amount_limit,omitempty"`
	AggregatedAmountLimit   *int64  `json:"aggregated_amount_limit,omitempty"`
	Repeat                  *int64  `json:"repeat,omitempty"`
	SkipInitially           *int64  `json:"skip_initially,omitempty"`
	Target                  string  `json:"target,omitempty"` // ITEM | UNIT
	// Strict is stored and answered as the hosted service answers every
	// entry (false unless given); it does not change the calculation.
	Strict bool `json:"strict"`
}

// Applicability is a validation rule's applicable_to: the lines product
// discounts touch. Excluded beats included; IncludedAll means every line.
type Applicability struct {
	Included    []Target `json:"included"`
	Excluded    []Target `json:"excluded"`
	IncludedAll bool     `json:"included_all"`

	// Collections resolves the products_collection entries: the project's
	// collections, set by whoever compiles the applicability for
	// evaluation (the promotion snapshot). Without it such an entry names
	// no line.
	Collections *cat.Collections `json:"-"`
}

// WithCollections returns a with cols resolving its collection entries
// (nil stays nil).
func (a *Applicability) WithCollections(cols *cat.Collections) *Applicability {
	if a == nil {
		return nil
	}
	out := *a
	out.Collections = cols
	return &out
}

// hasCollection reports whether ts has a products_collection entry.
func hasCollection(ts []Target) bool {
	for i := range ts {
		if ts[i].Object == ObjectCollection {
			return true
		}
	}
	return false
}

// ObjectCollection is the object of an applicable_to entry naming a
// product collection.
const ObjectCollection = "products_collection"

// LineFacts returns what a collection filter reads of line it: its
// product and, for a SKU line (hasSKU), its SKU, as the order saw them.
func LineFacts(it *order.Item) (product, sku cat.Facts, hasSKU bool) {
	product.ID = it.ProductID
	if p := it.Product; p != nil {
		if product.ID == "" {
			product.ID = p.ID
		}
		product.SourceID, product.Name, product.Price, product.Metadata = p.SourceID, p.Name, p.Price, p.Metadata
	}
	if it.SKUID == "" && it.SKU == nil {
		return product, sku, false
	}
	sku.ID = it.SKUID
	if k := it.SKU; k != nil {
		if sku.ID == "" {
			sku.ID = k.ID
		}
		sku.SourceID, sku.Name, sku.Price, sku.Metadata = k.SourceID, k.SKU, k.Price, k.Metadata
	}
	return product, sku, true
}

// InCollection reports whether collection id of cols holds line it.
func InCollection(cols *cat.Collections, id string, it *order.Item) bool {
	if cols == nil {
		return false
	}
	p, k, hasSKU := LineFacts(it)
	if !hasSKU {
		return cols.Holds(id, &p, nil)
	}
	return cols.Holds(id, &p, &k)
}

// Restricts reports whether a names any product (so item effects are the
// default).
func (a *Applicability) Restricts() bool {
	return a != nil && (len(a.Included) > 0 || len(a.Excluded) > 0 || a.IncludedAll)
}

// matches reports whether target t names line l: a product matches its own
// lines and its SKUs' lines; a SKU only its lines.
func (t *Target) matches(k keys, it *order.Item, cols *cat.Collections) bool {
	if t.Object == ObjectCollection {
		return InCollection(cols, t.ID, it)
	}
	if t.Object == "sku" {
		return (t.ID != "" && k.sku == t.ID) || (t.SourceID != nil && k.skuSource != "" && k.skuSource == *t.SourceID)
	}
	return (t.ID != "" && k.product == t.ID) || (t.SourceID != nil && k.productSource != "" && k.productSource == *t.SourceID)
}

// entryFor returns the included entry that governs line l (the first that
// names it; a synthetic every-entry under included_all or without any
// restriction), or nil when l is excluded or not included.
func (a *Applicability) entryFor(it *order.Item) *Target {
	if a == nil {
		return &everyEntry
	}
	l := keysOf(it)
	for i := range a.Excluded {
		if a.Excluded[i].matches(l, it, a.Collections) {
			return nil
		}
	}
	for i := range a.Included {
		if a.Included[i].matches(l, it, a.Collections) {
			return &a.Included[i]
		}
	}
	if a.IncludedAll || len(a.Included) == 0 {
		return &everyEntry
	}
	return nil
}

var everyEntry = Target{Effect: ApplyToEvery}
