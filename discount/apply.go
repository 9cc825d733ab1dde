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
	return ApplyIndexed(o, d, app, cat, nil)
}

// ApplyIndexed is Apply with the lines of o indexed (IndexLines), so that
// an item discount naming a few products visits their lines only instead
// of every line of the order. ls may be nil.
func ApplyIndexed(o *order.Order, d *Discount, app *Applicability, cat Catalog, ls *Lines) (int64, error) {
	return ApplyWith(o, d, app, cat, ls, nil)
}

// ApplyWith is ApplyIndexed with the facts d's formulas read besides the
// order (nil: none). A formula (amount_off_formula, percent_off_formula,
// fixed_amount_formula, unit_off_formula, an applicable_to entry's
// price_formula) gives the value where it can be computed; the static
// value is the fallback (docs/formulas.md). Formulas reading an order item
// are evaluated for each line the discount prices.
func ApplyWith(o *order.Order, d *Discount, app *Applicability, cat Catalog, ls *Lines, facts *Facts) (int64, error) {
	before := o.TotalAppliedDiscountAmount
	f := &evalEnv{}
	if facts != nil {
		f.facts = *facts // a copy: the caller's Facts stays on its stack
	}
	switch eff := d.EffectFor(app); eff {
	case ApplyToOrder:
		applyToOrder(o, d, f)
	case AddMissingItems, AddNewItems:
		if err := addUnits(o, d.UnitType, unitCount(d.UnitOff, d.UnitOffFormula, o, f), eff, cat); err != nil {
			return 0, err
		}
	case AddManyItems:
		for _, u := range d.Units {
			if err := addUnits(o, u.UnitType, unitCount(u.UnitOff, u.UnitOffFormula, o, f), u.Effect, cat); err != nil {
				return 0, err
			}
		}
	default:
		sc := &scratch{}
		if ls != nil {
			sc = &ls.sc
			f.es = &ls.sc.eval // formulas evaluate in the validation's scratch, else in a pooled one
		}
		applyToItems(o, d, eff, pick(o, app, ls, sc), sc, f)
	}
	return o.TotalAppliedDiscountAmount - before, nil
}

func unitOff(p *int64) int64 {
	if p == nil {
		return 1
	}
	return *p
}

func applyToOrder(o *order.Order, d *Discount, f *evalEnv) {
	var off int64
	switch d.Type {
	case Amount:
		off = d.amountOff(o, f, -1)
	case Percent:
		off = d.percentOf(o.TotalAmount, o, f, -1)
		if d.AmountLimit != nil {
			off = min(off, order.RoundUnits(d.AmountLimit.Decimal))
		}
	case Fixed:
		off = o.TotalAmount - d.fixedAmount(o, f, -1)
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

// mode is how a group of lines is discounted: every line under its own
// entry (APPLY_TO_EVERY), or the lines of every entry sharing a walk.
type mode struct {
	effect, target string
	skip, repeat   int64
	every          *Target // APPLY_TO_EVERY groups by entry
}

// group is the lines of one mode, each with its governing entry, in line
// order.
type group struct {
	mode    mode
	members []selection // units not yet chosen
}

// pick chooses the lines and units item discounts apply to. Lines are
// grouped by how their governing entry applies: every line on its own
// (APPLY_TO_EVERY), or pooled across all entries that share a mode (the
// cheapest / most expensive line, or lines or units from the cheapest /
// most expensive with skip_initially and repeat), so a walk "from the most
// expensive" runs over every product the entries name. Then quantity_limit
// caps each line and aggregated_quantity_limit each group.
func pick(o *order.Order, app *Applicability, ls *Lines, sc *scratch) []selection {
	sc.cands = ls.candidates(o, app, sc.cands[:0])
	groups := sc.groups[:0]
	for _, i := range sc.cands {
		it := &o.Items[i]
		if it.Quantity <= 0 {
			continue
		}
		e := app.entryFor(it)
		if e == nil {
			continue
		}
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
		g := slices.IndexFunc(groups, func(g group) bool { return g.mode == m })
		if g < 0 {
			if len(groups) < cap(groups) { // reuse a group and its members' memory
				groups = groups[:len(groups)+1]
				groups[len(groups)-1].members = groups[len(groups)-1].members[:0]
			} else {
				groups = append(groups, group{})
			}
			g = len(groups) - 1
			groups[g].mode = m
		}
		groups[g].members = append(groups[g].members, selection{line: i, units: it.Quantity, entry: e})
	}
	sc.groups = groups
	out := sc.sel[:0]
	for _, g := range groups {
		out = append(out, pickGroup(o, g.members)...)
	}
	sc.sel = out
	return out
}

// pickGroup chooses among the lines of one group (members, in line order,
// each with all its units).
func pickGroup(o *order.Order, members []selection) []selection {
	lead := members[0].entry // the group's mode and aggregated limit
	byPrice := func(asc bool) []selection {
		s := slices.Clone(members)
		slices.SortStableFunc(s, func(a, b selection) int {
			if asc {
				return cmp.Compare(price(&o.Items[a.line]), price(&o.Items[b.line]))
			}
			return cmp.Compare(price(&o.Items[b.line]), price(&o.Items[a.line]))
		})
		return s
	}
	var sel []selection
	switch lead.Effect {
	case ApplyToCheapest, ApplyToMostExpensive:
		sel = byPrice(lead.Effect == ApplyToCheapest)[:1]
	case ApplyFromCheapest, ApplyFromMostExpensive:
		sel = pickFrom(lead, byPrice(lead.Effect == ApplyFromCheapest))
	default: // APPLY_TO_EVERY
		sel = members
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
func pickFrom(e *Target, sorted []selection) []selection {
	skip, every := int64(0), int64(1)
	if e.SkipInitially != nil {
		skip = max(0, *e.SkipInitially)
	}
	if e.Repeat != nil && *e.Repeat > 0 {
		every = *e.Repeat
	}
	var sel []selection
	var pos int64
	for _, s := range sorted {
		q := s.units
		if e.Target != TargetUnit {
			if pos >= skip && (pos-skip)%every == 0 {
				sel = append(sel, s)
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
			s.units = units
			sel = append(sel, s)
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

func applyToItems(o *order.Order, d *Discount, eff Effect, sel []selection, sc *scratch, f *evalEnv) {
	if len(sel) == 0 {
		return
	}
	raw := slices.Grow(sc.raw[:0], len(sel))[:len(sel)]
	sc.raw = raw
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
		total := min(d.amountOff(o, f, -1), room)
		if d.AggregatedAmountLimit != nil {
			total = min(total, *d.AggregatedAmountLimit)
		}
		raw = order.Split(total, weights)
	default:
		for i, s := range sel {
			raw[i] = itemDiscount(o, d, eff, s, f)
		}
	}
	// Caps: the entry's amount_limit per line, a percentage's amount_limit
	// per line, then the aggregated limits of each entry and of the
	// discount, in selection order. ApplyItemDiscount caps by the line and
	// the order total.
	var entryUsed usage // per entry with an aggregated_amount_limit
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
			off = min(off, *s.entry.AggregatedAmountLimit-entryUsed.of(s.entry))
		}
		if d.AggregatedAmountLimit != nil {
			off = min(off, *d.AggregatedAmountLimit-used)
		}
		if off <= 0 {
			continue
		}
		got := o.ApplyItemDiscount(s.line, off)
		if s.entry.AggregatedAmountLimit != nil {
			entryUsed.add(s.entry, got)
		}
		used += got
	}
}

// usage is the discount taken so far under each entry (few per discount:
// a slice beats a map).
type usage []struct {
	entry *Target
	n     int64
}

func (u usage) of(e *Target) int64 {
	for _, x := range u {
		if x.entry == e {
			return x.n
		}
	}
	return 0
}

func (u *usage) add(e *Target, n int64) {
	for i := range *u {
		if (*u)[i].entry == e {
			(*u)[i].n += n
			return
		}
	}
	*u = append(*u, struct {
		entry *Target
		n     int64
	}{e, n})
}

// itemDiscount is the discount one selection asks for before caps.
func itemDiscount(o *order.Order, d *Discount, eff Effect, s selection, f *evalEnv) int64 {
	it := &o.Items[s.line]
	switch d.Type {
	case Amount:
		off := d.amountOff(o, f, s.line)
		if eff == ApplyToItemsByQuantity || s.entry.Target == TargetUnit {
			return satMul(off, s.units)
		}
		return off
	case Percent:
		return d.percentOf(base(o, s), o, f, s.line)
	case Fixed:
		newPrice := d.newPrice(o, f, s.entry, s.line)
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
