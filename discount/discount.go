package discount

import "github.com/promoengine/promo/promotype"

// Type is the kind of a discount.
type Type string

// Discount types. There is no SHIPPING type: free shipping is a UNIT
// discount on the built-in shipping product.
const (
	Amount  Type = "AMOUNT"
	Percent Type = "PERCENT"
	Fixed   Type = "FIXED"
	Unit    Type = "UNIT"
)

// Effect says what a discount applies to.
type Effect string

// Effects: how a discount applies to the order and its items.
const (
	ApplyToOrder                         Effect = "APPLY_TO_ORDER"
	ApplyToItems                         Effect = "APPLY_TO_ITEMS"
	ApplyToItemsProportionally           Effect = "APPLY_TO_ITEMS_PROPORTIONALLY"
	ApplyToItemsProportionallyByQuantity Effect = "APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY"
	ApplyToItemsByQuantity               Effect = "APPLY_TO_ITEMS_BY_QUANTITY"
	AddMissingItems                      Effect = "ADD_MISSING_ITEMS"
	AddNewItems                          Effect = "ADD_NEW_ITEMS"
	AddManyItems                         Effect = "ADD_MANY_ITEMS"
	AddSameItems                         Effect = "ADD_SAME_ITEMS"
)

// Discount is the discount object (request and response shape). Formulas
// are stored and echoed; the static value is what the engine applies.
type Discount struct {
	Type                  Type               `json:"type"`
	AmountOff             *promotype.Decimal `json:"amount_off,omitempty"`
	AmountOffFormula      *string            `json:"amount_off_formula,omitempty"`
	PercentOff            *promotype.Decimal `json:"percent_off,omitempty"`
	PercentOffFormula     *string            `json:"percent_off_formula,omitempty"`
	AmountLimit           *promotype.Decimal `json:"amount_limit,omitempty"`
	AggregatedAmountLimit *int64             `json:"aggregated_amount_limit,omitempty"`
	FixedAmount           *promotype.Decimal `json:"fixed_amount,omitempty"`
	FixedAmountFormula    *string            `json:"fixed_amount_formula,omitempty"`
	UnitOff               *int64             `json:"unit_off,omitempty"`
	UnitOffFormula        *string            `json:"unit_off_formula,omitempty"`
	UnitType              string             `json:"unit_type,omitempty"`
	Product               *ProductRef        `json:"product,omitempty"`
	SKU                   *SKURef            `json:"sku,omitempty"`
	Units                 []UnitItem         `json:"units,omitempty"`
	Effect                Effect             `json:"effect,omitempty"`
	// IsDynamic is true when a formula computes the discount; a static
	// discount leaves it out, as the hosted service does (null in its
	// SDKs' snapshots; docs/behaviour.md).
	IsDynamic bool `json:"is_dynamic,omitempty"`
}

// UnitItem is one entry of an ADD_MANY_ITEMS discount.
type UnitItem struct {
	UnitOff        *int64      `json:"unit_off,omitempty"`
	UnitOffFormula *string     `json:"unit_off_formula,omitempty"`
	UnitType       string      `json:"unit_type"`
	Effect         Effect      `json:"effect"`
	Product        *ProductRef `json:"product,omitempty"`
	SKU            *SKURef     `json:"sku,omitempty"`
}

// ProductRef names the product a unit discount gives.
type ProductRef struct {
	ID       string  `json:"id"`
	SourceID *string `json:"source_id"`
	Name     *string `json:"name"`
}

// SKURef names the SKU a unit discount gives.
type SKURef struct {
	ID       string  `json:"id"`
	SourceID *string `json:"source_id"`
	SKU      *string `json:"sku"`
}

// Clone returns a deep copy.
func (d *Discount) Clone() *Discount {
	if d == nil {
		return nil
	}
	c := *d
	c.AmountOff = promotype.ClonePtr(d.AmountOff)
	c.AmountOffFormula = promotype.ClonePtr(d.AmountOffFormula)
	c.PercentOff = promotype.ClonePtr(d.PercentOff)
	c.PercentOffFormula = promotype.ClonePtr(d.PercentOffFormula)
	c.AmountLimit = promotype.ClonePtr(d.AmountLimit)
	c.AggregatedAmountLimit = promotype.ClonePtr(d.AggregatedAmountLimit)
	c.FixedAmount = promotype.ClonePtr(d.FixedAmount)
	c.FixedAmountFormula = promotype.ClonePtr(d.FixedAmountFormula)
	c.UnitOff = promotype.ClonePtr(d.UnitOff)
	c.UnitOffFormula = promotype.ClonePtr(d.UnitOffFormula)
	c.Product = d.Product.clone()
	c.SKU = d.SKU.clone()
	if d.Units != nil {
		c.Units = make([]UnitItem, len(d.Units))
		for i, u := range d.Units {
			u.UnitOff = promotype.ClonePtr(u.UnitOff)
			u.UnitOffFormula = promotype.ClonePtr(u.UnitOffFormula)
			u.Product = u.Product.clone()
			u.SKU = u.SKU.clone()
			c.Units[i] = u
		}
	}
	return &c
}

func (p *ProductRef) clone() *ProductRef {
	if p == nil {
		return nil
	}
	return &ProductRef{ID: p.ID, SourceID: promotype.ClonePtr(p.SourceID), Name: promotype.ClonePtr(p.Name)}
}

func (s *SKURef) clone() *SKURef {
	if s == nil {
		return nil
	}
	return &SKURef{ID: s.ID, SourceID: promotype.ClonePtr(s.SourceID), SKU: promotype.ClonePtr(s.SKU)}
}
