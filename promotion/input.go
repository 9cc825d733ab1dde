package promotion

import (
	"slices"
	"sync"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// inputs recycles rule inputs (their lines are most of a validation's
// garbage otherwise); see releaseInput.
var inputs sync.Pool

// ruleInput builds what rules read of a request, once per request; cols
// (nil: none) gives each line the collections that hold it. Give
// it back with releaseInput when nothing reads it any more.
func ruleInput(o *order.Order, customer, redemption promotype.Metadata, segments []string, cols *catalog.Collections) *rule.Input {
	in, _ := inputs.Get().(*rule.Input)
	if in == nil {
		in = &rule.Input{}
	}
	*in = rule.Input{
		Customer:      rule.AttrsOf(customer),
		Order:         rule.AttrsOf(o.Metadata),
		Redemption:    rule.AttrsOf(redemption),
		Amount:        o.Amount,
		InitialAmount: o.InitialAmount,
		TotalAmount:   o.TotalAmount,
		Segments:      segments,
		Items:         slices.Grow(in.Items[:0], len(o.Items))[:len(o.Items)],
	}
	for i := range o.Items {
		it := &o.Items[i]
		ri := rule.Item{ProductID: it.ProductID, SKUID: it.SKUID, Quantity: it.Quantity, Amount: it.Amount}
		if it.Price != nil {
			ri.Price = *it.Price
		}
		var meta promotype.Metadata
		if it.Product != nil {
			if it.Product.SourceID != nil {
				ri.ProductSourceID = *it.Product.SourceID
			}
			meta = it.Product.Metadata
		}
		if it.SKU != nil {
			if it.SKU.SourceID != nil {
				ri.SKUSourceID = *it.SKU.SourceID
			}
			meta = overlay(meta, it.SKU.Metadata)
		}
		ri.Meta = rule.AttrsOf(overlay(meta, it.Metadata))
		if cols.Len() > 0 {
			p, k, hasSKU := discount.LineFacts(it)
			if hasSKU {
				ri.Collections = cols.AppendMembership(nil, &p, &k)
			} else {
				ri.Collections = cols.AppendMembership(nil, &p, nil)
			}
		}
		in.Items[i] = ri
	}
	return in
}

// releaseInput recycles in; it must not be used again.
func releaseInput(in *rule.Input) {
	items := in.Items[:cap(in.Items)]
	clear(items) // keep no references alive in the pool
	*in = rule.Input{Items: items[:0]}
	inputs.Put(in)
}

// overlay returns base with the keys of top over it (item metadata: the
// line's keys win over the SKU's, which win over the product's). It
// allocates only when both have keys.
func overlay(base, top promotype.Metadata) promotype.Metadata {
	switch {
	case len(top) == 0:
		return base
	case len(base) == 0:
		return top
	}
	out := make(promotype.Metadata, len(base)+len(top))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range top {
		out[k] = v
	}
	return out
}
