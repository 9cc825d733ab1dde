package discount

import (
	"cmp"
	"errors"
	"slices"

	"github.com/promoengine/promo/order"
)

// ErrUnknownUnit is returned when a unit discount names a product or SKU
// the catalog does not know (the tier cannot be priced).
var ErrUnknownUnit = errors.New("discount: unit_type names no product or SKU")

// EffectFor is the effect d has under app: the one given, else the default
// (item effects when app names products, else the order; ADD_MISSING_ITEMS
// for a unit discount).
func (d *Discount) EffectFor(app *Applicability) Effect {
	switch {
	case d.Effect != "":
		return d.Effect
	case d.Type == Unit && len(d.Units) > 0:
		return AddManyItems
	case d.Type == Unit:
		return AddMissingItems
	case app.Restricts():
		return ApplyToItems
	default:
		return ApplyToOrder
	}
}

// Apply applies d to o as the redeemable being priced (call o.ResetApplied
// first when o already carries another redeemable's discount): item
// effects touch only the lines app allows, unit effects look their product
// up in cat. It returns what d took (the redeemable's discount_amount).
// The order's own methods cap every step, so no line is discounted beyond
// its amount and the order never beyond its total.
func Apply(o *order.Order, d *Discount, app *Applicability, cat Catalog) (int64, error) {
	before := o.TotalAppliedDiscountAmount
	switch eff := d.EffectFor(app); eff {
	case ApplyToOrder:
		applyToOrder(o, d)
	case AddMissingItems, AddNewItems:
		if err := addUnits(o, d.UnitType, unitOff(d.UnitOff), eff, cat); err != nil {
			return 0, err
		}
	case AddManyItems:
		for _, u := range d.Units {
			if err := addUnits(o, u.UnitType, unitOff(u.UnitOff), u.Effect, cat); err != nil {
				return 0, err
			}
		}
	default:
		applyToItems(o, d, eff, pick(o, app))
	}
	return o.TotalAppliedDiscountAmount - before, nil
}

func unitOff(p *int64) int64 {
	if p == nil {
		return 1
	}
	return *p
}

func applyToOrder(o *order.Order, d *Discount) {
	var off int64
	switch d.Type {
	case Amount:
		off = order.RoundUnits(d.AmountOff.Decimal)
	case Percent:
		off = order.PercentOf(o.TotalAmount, d.PercentOff.Decimal)
		if d.AmountLimit != nil {
			off = min(off, order.RoundUnits(d.AmountLimit.Decimal))
		}
	case Fixed:
		off = o.TotalAmount - order.RoundUnits(d.FixedAmount.Decimal)
	}
	o.ApplyOrderDiscount(off)
}

// selection is a line (and how many of its units) an item discount
// applies to, under the applicable_to entry that governs it.
type selection struct {
	line  int
	units int64
	entry *Target
}

// pick chooses the lines and units item discounts apply to. Lines are
// grouped by how their governing entry applies: every line on its own
// (APPLY_TO_EVERY), or pooled across all entries that share a mode (the
// cheapest / most expensive line, or lines or units from the cheapest /
// most expensive with skip_initially and repeat), so a walk "from the most
// expensive" runs over every product the entries name. Then quantity_limit
// caps each line and aggregated_quantity_limit each group.
func pick(o *order.Order, app *Applicability) []selection {
	type mode struct {
		effect, target string
		skip, repeat   int64
		every          *Target // APPLY_TO_EVERY groups by entry
	}
	var modes []mode
	groups := map[mode][]int{}
	entries := make([]*Target, len(o.Items))
	for i := range o.Items {
		it := &o.Items[i]
		if it.Quantity <= 0 {
			continue
		}
		e := app.entryFor(keysOf(it))
		if e == nil {
			continue
		}
		entries[i] = e
		m := mode{every: e}
		switch e.Effect {
		case ApplyToCheapest, ApplyToMostExpensive, ApplyFromCheapest, ApplyFromMostExpensive:
			m = mode{effect: e.Effect, target: e.Target}
			if e.SkipInitially != nil {
				m.skip = *e.SkipInitially
			}
			if e.Repeat != nil {
				m.repeat = *e.Repeat
			}
		}
		if _, seen := groups[m]; !seen {
			modes = append(modes, m)
		}
		groups[m] = append(groups[m], i)
	}
	var out []selection
	for _, m := range modes {
		out = append(out, pickGroup(o, groups[m], entries)...)
	}
	return out
}

func pickGroup(o *order.Order, lines []int, entries []*Target) []selection {
	lead := entries[lines[0]] // the group's mode and aggregated limit
	byPrice := func(asc bool) []int {
		s := slices.Clone(lines)
		slices.SortStableFunc(s, func(a, b int) int {
			if asc {
				return cmp.Compare(price(&o.Items[a]), price(&o.Items[b]))
			}
			return cmp.Compare(price(&o.Items[b]), price(&o.Items[a]))
		})
		return s
	}
	var sel []selection
	switch lead.Effect {
	case ApplyToCheapest, ApplyToMostExpensive:
		i := byPrice(lead.Effect == ApplyToCheapest)[0]
		sel = []selection{{line: i, units: o.Items[i].Quantity, entry: entries[i]}}
	case ApplyFromCheapest, ApplyFromMostExpensive:
		sel = pickFrom(o, lead, byPrice(lead.Effect == ApplyFromCheapest), entries)
	default: // APPLY_TO_EVERY
		for _, i := range lines {
			sel = append(sel, selection{line: i, units: o.Items[i].Quantity, entry: entries[i]})
		}
	}
	var taken int64
	out := sel[:0]
	for _, s := range sel {
		if s.entry.QuantityLimit != nil {
			s.units = min(s.units, *s.entry.QuantityLimit)
		}
		if lead.AggregatedQuantityLimit != nil {
			s.units = min(s.units, *lead.AggregatedQuantityLimit-taken)
		}
		if s.units > 0 {
			taken += s.units
			out = append(out, s)
		}
	}
	return out
}

// pickFrom walks the sorted lines (target ITEM) or their units (target
// UNIT), skips skip_initially of them and then takes every repeat-th.
func pickFrom(o *order.Order, e *Target, sorted []int, entries []*Target) []selection {
	skip, every := int64(0), int64(1)
	if e.SkipInitially != nil {
		skip = max(0, *e.SkipInitially)
	}
	if e.Repeat != nil && *e.Repeat > 0 {
		every = *e.Repeat
	}
	var sel []selection
	var pos int64
	for _, i := range sorted {
		q := o.Items[i].Quantity
		if e.Target != TargetUnit {
			if pos >= skip && (pos-skip)%every == 0 {
				sel = append(sel, selection{line: i, units: q, entry: entries[i]})
			}
			pos++
			continue
		}
		// Count the taken positions in [pos, pos+q) in O(1).
		var units int64
		if end := pos + q; end > skip {
			first := skip + (max(pos, skip)-skip+every-1)/every*every
			if first < end {
				units = (end-1-first)/every + 1
			}
		}
		if units > 0 {
			sel = append(sel, selection{line: i, units: units, entry: entries[i]})
		}
		pos += q
	}
	return sel
}

// base is the part of a selected line the discount may touch: its units at
// the unit price, never more than what is left of the line.
func base(o *order.Order, s selection) int64 {
	it := &o.Items[s.line]
	if s.units >= it.Quantity {
		return max(it.SubtotalAmount, 0)
	}
	return min(satMul(price(it), s.units), max(it.SubtotalAmount, 0))
}

func applyToItems(o *order.Order, d *Discount, eff Effect, sel []selection) {
	if len(sel) == 0 {
		return
	}
	raw := make([]int64, len(sel))
	switch eff {
	case ApplyToItemsProportionally, ApplyToItemsProportionallyByQuantity:
		weights := make([]int64, len(sel))
		var room int64
		for i, s := range sel {
			b := base(o, s)
			room += b
			if eff == ApplyToItemsProportionally {
				weights[i] = b
			} else {
				weights[i] = s.units
			}
		}
		total := min(order.RoundUnits(d.AmountOff.Decimal), room)
		if d.AggregatedAmountLimit != nil {
			total = min(total, *d.AggregatedAmountLimit)
		}
		raw = order.Split(total, weights)
	default:
		for i, s := range sel {
			raw[i] = itemDiscount(o, d, eff, s)
		}
	}
	// Caps: the entry's amount_limit per line, a percentage's amount_limit
	// per line, then the aggregated limits of each entry and of the
	// discount, in selection order. ApplyItemDiscount caps by the line and
	// the order total.
	entryUsed := map[*Target]int64{}
	var used int64
	for i, s := range sel {
		off := min(raw[i], base(o, s))
		if s.entry.AmountLimit != nil {
			off = min(off, *s.entry.AmountLimit)
		}
		if d.Type == Percent && d.AmountLimit != nil {
			off = min(off, order.RoundUnits(d.AmountLimit.Decimal))
		}
		if s.entry.AggregatedAmountLimit != nil {
			off = min(off, *s.entry.AggregatedAmountLimit-entryUsed[s.entry])
		}
		if d.AggregatedAmountLimit != nil {
			off = min(off, *d.AggregatedAmountLimit-used)
		}
		if off <= 0 {
			continue
		}
		got := o.ApplyItemDiscount(s.line, off)
		entryUsed[s.entry] += got
		used += got
	}
}

// itemDiscount is the discount one selection asks for before caps.
func itemDiscount(o *order.Order, d *Discount, eff Effect, s selection) int64 {
	it := &o.Items[s.line]
	switch d.Type {
	case Amount:
		off := order.RoundUnits(d.AmountOff.Decimal)
		if eff == ApplyToItemsByQuantity || s.entry.Target == TargetUnit {
			return satMul(off, s.units)
		}
		return off
	case Percent:
		return order.PercentOf(base(o, s), d.PercentOff.Decimal)
	case Fixed:
		newPrice := order.RoundUnits(d.FixedAmount.Decimal)
		if s.entry.Price != nil {
			newPrice = *s.entry.Price
		}
		if it.Price == nil || *it.Price <= newPrice {
			return 0
		}
		return satMul(*it.Price-newPrice, s.units)
	}
	return 0
}

// addUnits applies ADD_MISSING_ITEMS (raise the line to n units, n free)
// or ADD_NEW_ITEMS (add n units, free) for the product or SKU unitType.
// Added units are priced at the catalog price; without one the line shows
// quantities only.
func addUnits(o *order.Order, unitType string, n int64, eff Effect, cat Catalog) error {
	tmpl, ok := cat(unitType)
	if !ok {
		return ErrUnknownUnit
	}
	idx := -1
	for i := range o.Items {
		it := &o.Items[i]
		if (tmpl.SKUID != "" && it.SKUID == tmpl.SKUID) || (tmpl.SKUID == "" && it.SKUID == "" && it.ProductID == tmpl.ProductID) {
			idx = i
			break
		}
	}
	var add int64
	switch {
	case idx >= 0 && eff == AddNewItems:
		add = n
	case idx >= 0:
		add = max(0, n-o.Items[idx].Quantity)
	}
	if idx < 0 {
		tmpl.Quantity = n
		if tmpl.Price != nil {
			tmpl.Amount = satMul(*tmpl.Price, n)
		}
		var err error
		if idx, err = o.AddItem(tmpl); err != nil {
			return err
		}
	} else if add > 0 {
		if err := o.AddUnits(idx, add); err != nil {
			return err
		}
	}
	o.DiscountUnits(idx, n)
	return nil
}

// satMul multiplies two non-negative amounts, saturating at MaxAmount.
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > order.MaxAmount/b {
		return order.MaxAmount
	}
	return a * b
}
