package discount

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
	Object                  string  `json:"object"` // product | sku
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
}

// Applicability is a validation rule's applicable_to: the lines product
// discounts touch. Excluded beats included; IncludedAll means every line.
type Applicability struct {
	Included    []Target `json:"included"`
	Excluded    []Target `json:"excluded"`
	IncludedAll bool     `json:"included_all"`
}

// Restricts reports whether a names any product (so item effects are the
// default).
func (a *Applicability) Restricts() bool {
	return a != nil && (len(a.Included) > 0 || len(a.Excluded) > 0 || a.IncludedAll)
}

// matches reports whether target t names line l: a product matches its own
// lines and its SKUs' lines; a SKU only its lines.
func (t *Target) matches(k keys) bool {
	if t.Object == "sku" {
		return (t.ID != "" && k.sku == t.ID) || (t.SourceID != nil && k.skuSource != "" && k.skuSource == *t.SourceID)
	}
	return (t.ID != "" && k.product == t.ID) || (t.SourceID != nil && k.productSource != "" && k.productSource == *t.SourceID)
}

// entryFor returns the included entry that governs line l (the first that
// names it; a synthetic every-entry under included_all or without any
// restriction), or nil when l is excluded or not included.
func (a *Applicability) entryFor(l keys) *Target {
	if a == nil {
		return &everyEntry
	}
	for i := range a.Excluded {
		if a.Excluded[i].matches(l) {
			return nil
		}
	}
	for i := range a.Included {
		if a.Included[i].matches(l) {
			return &a.Included[i]
		}
	}
	if a.IncludedAll || len(a.Included) == 0 {
		return &everyEntry
	}
	return nil
}

var everyEntry = Target{Effect: ApplyToEvery}
