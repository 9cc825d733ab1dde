package discount

import (
	"errors"
	"math"
	"slices"
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

// Apply applies d to c as the redeemable being priced (call c.Begin
// first): item effects touch only the lines app allows, unit effects look
// their product up in cat. It returns what d took (the redeemable's
// discount_amount). No line is discounted beyond its amount and the order
// never beyond its total.
func Apply(c *Cart, d *Discount, app *Applicability, cat Catalog) (int64, error) {
	before := c.TotalAppliedDiscountAmount()
	switch eff := d.EffectFor(app); eff {
	case ApplyToOrder:
		c.applyToOrder(d)
	case AddMissingItems, AddNewItems:
		if err := c.addUnits(d.UnitType, unitOff(d.UnitOff), eff, cat); err != nil {
			return 0, err
		}
	case AddManyItems:
		for _, u := range d.Units {
			if err := c.addUnits(u.UnitType, unitOff(u.UnitOff), u.Effect, cat); err != nil {
				return 0, err
			}
		}
	default:
		c.applyToItems(d, eff, c.pick(app))
	}
	return c.TotalAppliedDiscountAmount() - before, nil
}

func unitOff(p *int64) int64 {
	if p == nil {
		return 1
	}
	return *p
}

func (c *Cart) applyToOrder(d *Discount) {
	total := c.TotalAmount()
	var off int64
	switch d.Type {
	case Amount:
		off = roundUnits(d.AmountOff.Decimal)
	case Percent:
		off = percentOf(d.PercentOff.Decimal, total)
		if d.AmountLimit != nil {
			off = min(off, roundUnits(d.AmountLimit.Decimal))
		}
	case Fixed:
		off = total - roundUnits(d.FixedAmount.Decimal)
	}
	off = min(max(off, 0), total)
	c.DiscountAmount += off
	c.AppliedDiscountAmount += off
}

// pick is a line (and how many of its units) an item discount applies to,
// under the applicable_to entry that governs it.
type pick struct {
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
func (c *Cart) pick(app *Applicability) []pick {
	type mode struct {
		effect, target string
		skip, repeat   int64
		every          *Target // APPLY_TO_EVERY groups by entry
	}
	var order []mode
	groups := map[mode][]int{}
	entries := make([]*Target, len(c.Lines))
	for i := range c.Lines {
		l := &c.Lines[i]
		if l.Quantity <= 0 {
			continue
		}
		e := app.entryFor(l)
		if e == nil {
			continue
		}
		entries[i] = e
		m := mode{effect: e.Effect, target: e.Target}
		switch e.Effect {
		case ApplyToCheapest, ApplyToMostExpensive, ApplyFromCheapest, ApplyFromMostExpensive:
			if e.SkipInitially != nil {
				m.skip = *e.SkipInitially
			}
			if e.Repeat != nil {
				m.repeat = *e.Repeat
			}
		default:
			m = mode{every: e}
		}
		if _, seen := groups[m]; !seen {
			order = append(order, m)
		}
		groups[m] = append(groups[m], i)
	}
	var picks []pick
	for _, m := range order {
		picks = append(picks, c.pickGroup(groups[m], entries)...)
	}
	return picks
}

func (c *Cart) pickGroup(lines []int, entries []*Target) []pick {
	lead := entries[lines[0]] // the group's mode and aggregated limit
	byPrice := func(asc bool) []int {
		s := slices.Clone(lines)
		slices.SortStableFunc(s, func(a, b int) int {
			pa, pb := c.Lines[a].Price, c.Lines[b].Price
			if !asc {
				pa, pb = pb, pa
			}
			switch {
			case pa < pb:
				return -1
			case pa > pb:
				return 1
			}
			return 0
		})
		return s
	}
	var picks []pick
	switch lead.Effect {
	case ApplyToCheapest, ApplyToMostExpensive:
		i := byPrice(lead.Effect == ApplyToCheapest)[0]
		picks = []pick{{line: i, units: c.Lines[i].Quantity, entry: entries[i]}}
	case ApplyFromCheapest, ApplyFromMostExpensive:
		picks = c.pickFrom(lead, byPrice(lead.Effect == ApplyFromCheapest), entries)
	default: // APPLY_TO_EVERY
		for _, i := range lines {
			picks = append(picks, pick{line: i, units: c.Lines[i].Quantity, entry: entries[i]})
		}
	}
	var taken int64
	out := picks[:0]
	for _, p := range picks {
		if p.entry.QuantityLimit != nil {
			p.units = min(p.units, *p.entry.QuantityLimit)
		}
		if lead.AggregatedQuantityLimit != nil {
			p.units = min(p.units, *lead.AggregatedQuantityLimit-taken)
		}
		if p.units > 0 {
			taken += p.units
			out = append(out, p)
		}
	}
	return out
}

// pickFrom walks the sorted lines (target ITEM) or their units (target
// UNIT), skips skip_initially of them and then takes every repeat-th.
func (c *Cart) pickFrom(e *Target, sorted []int, entries []*Target) []pick {
	skip, every := int64(0), int64(1)
	if e.SkipInitially != nil {
		skip = max(0, *e.SkipInitially)
	}
	if e.Repeat != nil && *e.Repeat > 0 {
		every = *e.Repeat
	}
	take := func(pos int64) bool { return pos >= skip && (pos-skip)%every == 0 }
	var picks []pick
	var pos int64
	for _, i := range sorted {
		if e.Target != TargetUnit {
			if take(pos) {
				picks = append(picks, pick{line: i, units: c.Lines[i].Quantity, entry: entries[i]})
			}
			pos++
			continue
		}
		var units int64
		q := c.Lines[i].Quantity
		// Count the positions in [pos, pos+q) that are taken, in O(1).
		if end := pos + q; end > skip {
			first := max(pos, skip)
			firstTaken := skip + ((first-skip)+every-1)/every*every
			if firstTaken < end {
				units = (end-1-firstTaken)/every + 1
			}
		}
		if units > 0 {
			picks = append(picks, pick{line: i, units: units, entry: entries[i]})
		}
		pos += q
	}
	return picks
}

// base is the part of a pick's line the discount may touch: its units at
// the unit price, never more than what is left of the line.
func (c *Cart) base(p pick) int64 {
	l := &c.Lines[p.line]
	if p.units >= l.Quantity {
		return l.remaining()
	}
	return min(satMul(l.Price, p.units), l.remaining())
}

func (c *Cart) applyToItems(d *Discount, eff Effect, picks []pick) {
	if len(picks) == 0 {
		return
	}
	raw := make([]int64, len(picks))
	switch eff {
	case ApplyToItemsProportionally, ApplyToItemsProportionallyByQuantity:
		weights := make([]int64, len(picks))
		var room int64
		for i, p := range picks {
			b := c.base(p)
			room += b
			if eff == ApplyToItemsProportionally {
				weights[i] = b
			} else {
				weights[i] = p.units
			}
		}
		total := min(roundUnits(d.AmountOff.Decimal), room)
		if d.AggregatedAmountLimit != nil {
			total = min(total, *d.AggregatedAmountLimit)
		}
		raw = split(total, weights)
	default:
		for i, p := range picks {
			raw[i] = c.itemDiscount(d, eff, p)
		}
	}
	// Caps: the line, the entry's amount_limit per line, then the
	// aggregated limits of each entry and of the discount, in pick order,
	// and never below a zero order total (a client amount may be lower than
	// the lines).
	entryUsed := map[*Target]int64{}
	var used int64
	room := c.TotalAmount()
	for i, p := range picks {
		off := min(raw[i], c.base(p), room)
		if p.entry.AmountLimit != nil {
			off = min(off, *p.entry.AmountLimit)
		}
		if d.Type == Percent && d.AmountLimit != nil {
			off = min(off, roundUnits(d.AmountLimit.Decimal))
		}
		if p.entry.AggregatedAmountLimit != nil {
			off = min(off, *p.entry.AggregatedAmountLimit-entryUsed[p.entry])
		}
		if d.AggregatedAmountLimit != nil {
			off = min(off, *d.AggregatedAmountLimit-used)
		}
		off = max(off, 0)
		entryUsed[p.entry] += off
		used += off
		room -= off
		l := &c.Lines[p.line]
		l.DiscountAmount += off
		l.AppliedDiscountAmount += off
	}
}

// itemDiscount is the discount one pick asks for before caps.
func (c *Cart) itemDiscount(d *Discount, eff Effect, p pick) int64 {
	l := &c.Lines[p.line]
	switch d.Type {
	case Amount:
		off := roundUnits(d.AmountOff.Decimal)
		if eff == ApplyToItemsByQuantity || p.entry.Target == TargetUnit {
			return satMul(off, p.units)
		}
		return off
	case Percent:
		return percentOf(d.PercentOff.Decimal, c.base(p))
	case Fixed:
		price := roundUnits(d.FixedAmount.Decimal)
		if p.entry.Price != nil {
			price = *p.entry.Price
		}
		if !l.HasPrice || l.Price <= price {
			return 0
		}
		return satMul(l.Price-price, p.units)
	}
	return 0
}

// addUnits applies ADD_MISSING_ITEMS (raise the line to n units, n free)
// or ADD_NEW_ITEMS (add n units, free) for the product or SKU unitType.
// Added units are priced at the catalog price; without one the line shows
// quantities only.
func (c *Cart) addUnits(unitType string, n int64, eff Effect, cat Catalog) error {
	info, ok := cat(unitType)
	if !ok {
		return ErrUnknownUnit
	}
	idx := -1
	for i := range c.Lines {
		l := &c.Lines[i]
		if (info.SKUID != "" && l.SKUID == info.SKUID) || (info.SKUID == "" && l.SKUID == "" && l.ProductID == info.ProductID) {
			idx = i
			break
		}
	}
	if idx < 0 {
		c.Lines = append(c.Lines, Line{
			ProductID: info.ProductID, ProductSourceID: info.ProductSourceID,
			SKUID: info.SKUID, SKUSourceID: info.SKUSourceID,
			Price: info.Price, HasPrice: info.HasPrice, Added: true, Origin: -1,
		})
		idx = len(c.Lines) - 1
	}
	l := &c.Lines[idx]
	if !l.HasPrice && info.HasPrice {
		l.Price, l.HasPrice = info.Price, true
	}
	var add int64
	if eff == AddNewItems {
		add = n
	} else {
		add = max(0, n-l.Quantity)
	}
	if add > math.MaxInt64-l.Quantity {
		add = 0 // saturate: no cart holds that many units
	}
	l.Quantity += add
	l.AppliedQuantity += add
	l.DiscountQuantity += n
	l.AppliedDiscountQuantity += n
	if !l.HasPrice {
		return nil
	}
	added := satMul(l.Price, add)
	l.Amount += added
	l.AppliedQuantityAmount += added
	c.Amount += added
	off := min(satMul(l.Price, n), l.remaining(), c.TotalAmount())
	l.DiscountAmount += off
	l.AppliedDiscountAmount += off
	return nil
}
