package order

import "sync"

// Workspace prices redeemables one at a time against one order without
// copying the order for each: apply one redeemable to Order() (with the
// Order methods; ResetApplied, which starts the next redeemable of a stack,
// has no place inside one), then View
// records what it changed (a few numbers per touched line) and puts the
// working order back as it was. Pricing N tiers of a 50-line cart thus
// costs one copy of the cart, not N.
//
// A Workspace is not safe for concurrent use; the Views it returns are
// immutable and are. Close it when done to recycle its working copy.
type Workspace struct {
	base  *viewBase
	work  *Order
	n     int          // lines of the base order
	arena []LineChange // backs the Views' changed lines
}

// NewWorkspace returns a workspace over base, which it never changes (base
// must not change while the workspace or its Views are in use). A base
// carrying a redeemable's applied_* amounts is reset first, as
// ResetApplied does. views is how many Views the caller expects to take
// (a hint).
func NewWorkspace(base *Order, views int) *Workspace {
	if base.hasApplied() {
		base = base.Fork()
		base.ResetApplied()
	}
	work, _ := workOrders.Get().(*Order)
	if work == nil {
		work = &Order{}
	}
	items := work.Items[:0]
	if cap(items) <= len(base.Items) || (items == nil && base.Items != nil) {
		items = make([]Item, 0, len(base.Items)+1) // room for a line a unit effect adds
	}
	*work = *base
	work.Items = append(items, base.Items...)
	return &Workspace{base: &viewBase{order: base}, work: work, n: len(base.Items),
		arena: make([]LineChange, 0, max(views, 0))}
}

// workOrders recycles working copies: a validation's copy of a 50-line
// cart is 12 KB the next one need not allocate.
var workOrders sync.Pool

// Close recycles the working order; the Views stay valid, Order must not
// be used again.
func (w *Workspace) Close() {
	if w.work == nil {
		return
	}
	items := w.work.Items
	clear(items[:cap(items)]) // keep no references alive in the pool
	*w.work = Order{Items: items[:0]}
	workOrders.Put(w.work)
	w.work = nil
}

// Order is the working order: the base order until a redeemable is applied
// to it, and again after View or Reset.
func (w *Workspace) Order() *Order { return w.work }

// View returns the working order as a View of the base order and resets
// the working order.
func (w *Workspace) View() View {
	v := View{base: w.base, amounts: w.work.Amounts()}
	start := len(w.arena)
	items, base := w.work.Items, w.base.order.Items
	for i := range w.n {
		if touched(&items[i]) {
			w.arena = append(w.arena, LineChange{Index: i, LineAmounts: items[i].LineAmounts()})
			items[i] = base[i]
		}
	}
	v.lines = w.arena[start:len(w.arena):len(w.arena)]
	if len(items) > w.n {
		v.added = append([]Item(nil), items[w.n:]...)
	}
	w.restoreHeader()
	return v
}

// Reset puts the working order back to the base order.
func (w *Workspace) Reset() {
	items, base := w.work.Items, w.base.order.Items
	for i := range w.n {
		if touched(&items[i]) {
			items[i] = base[i]
		}
	}
	w.restoreHeader()
}

// touched reports whether a redeemable changed line it of the working
// order. Every change the Order methods make to a line records itself in an
// applied_* field that only grows (a discount in applied_discount_amount,
// free units in applied_discount_quantity, added units in
// applied_quantity), and the base order has none (NewWorkspace resets it),
// so a line whose three are zero is the base line.
func touched(it *Item) bool {
	return it.AppliedDiscountAmount|it.AppliedDiscountQuantity|it.AppliedQuantity != 0
}

func (w *Workspace) restoreHeader() {
	items := w.work.Items[:w.n]
	clear(w.work.Items[w.n:]) // drop added lines' references
	*w.work = *w.base.order
	w.work.Items = items
}

// LineChange is a line of a View whose counts or amounts differ from the
// base order's.
type LineChange struct {
	Index int
	LineAmounts
}
