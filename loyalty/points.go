package loyalty

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// Facts are what an earning is measured on: the paid order (order.paid),
// the custom event's metadata (a custom event), and the metadata of the
// customer.
type Facts struct {
	Order            *order.Order
	EventMetadata    promotype.Metadata
	CustomerMetadata promotype.Metadata
}

// Points is what rule r gives for facts: its fixed points, or points ×
// floor(value / every) of its ratio. A value that is missing, not a
// number or negative gives 0.
func (r *EarningRule) Points(f Facts) int64 {
	e := &r.Loyalty
	if e.Type == Fixed {
		if e.Points == nil {
			return 0
		}
		return int64(*e.Points)
	}
	ratio := e.ratio()
	if ratio == nil {
		return 0
	}
	var value float64
	switch e.CalculationType {
	case OrderAmount, OrderTotalAmount, OrderMetadata, OrderItemsQuantity, OrderItemsAmount, OrderItemsSubtotalAmount:
		if f.Order == nil {
			return 0
		}
	}
	switch e.CalculationType {
	case OrderAmount:
		value = float64(f.Order.Amount)
	case OrderTotalAmount:
		value = float64(f.Order.TotalAmount)
	case OrderMetadata:
		value = metaNumber(f.Order.Metadata, ratio.Property)
	case CustomerMetadata:
		value = metaNumber(f.CustomerMetadata, ratio.Property)
	case CustomEventMetadata:
		value = metaNumber(f.EventMetadata, ratio.Property)
	case OrderItemsQuantity, OrderItemsAmount, OrderItemsSubtotalAmount:
		value = float64(itemsValue(f.Order.Items, ratio.items(), e.CalculationType))
	}
	return proportional(value, ratio)
}

// proportional is points × floor(value / every), 0 for a value below
// every (or not a number), capped at MaxPoints.
func proportional(value float64, r *Ratio) int64 {
	if math.IsNaN(value) || value < float64(r.Every) {
		return 0
	}
	steps := math.Floor(value / float64(r.Every))
	if steps > float64(MaxPoints)/float64(r.Points) {
		return MaxPoints
	}
	return int64(steps) * int64(r.Points)
}

// itemsValue sums, over the lines that refs select, their units (free
// units a discount added excluded), their amount, or their amount after
// discounts.
func itemsValue(items []order.Item, refs []ItemRef, ct string) int64 {
	var sum int64
	for i := range items {
		it := &items[i]
		if !selects(refs, it) {
			continue
		}
		switch ct {
		case OrderItemsQuantity:
			sum += max(it.Quantity-it.DiscountQuantity, 0)
		case OrderItemsAmount:
			sum += it.Amount
		case OrderItemsSubtotalAmount:
			sum += it.SubtotalAmount
		}
	}
	return sum
}

// selects reports whether a line is one of the products or SKUs refs name
// (by id or source id); a line counts once however many refs name it.
func selects(refs []ItemRef, it *order.Item) bool {
	for _, ref := range refs {
		switch ref.Object {
		case ItemProduct:
			if it.ProductID == ref.ID || (it.Product != nil && (it.Product.ID == ref.ID || deref(it.Product.SourceID) == ref.ID)) {
				return true
			}
		case ItemSKU:
			if it.SKUID == ref.ID || (it.SKU != nil && (it.SKU.ID == ref.ID || deref(it.SKU.SourceID) == ref.ID)) {
				return true
			}
		}
	}
	return false
}

// metaNumber is the numeric value of property in m: a JSON number, or a
// string holding one; NaN otherwise.
func metaNumber(m promotype.Metadata, property string) float64 {
	switch v := m[property].(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	case int:
		return float64(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	return math.NaN()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
