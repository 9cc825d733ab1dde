package order

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/promoengine/promo/customer"
)

// View is an order priced for one redeemable, kept as what the redeemable
// changed in the order it was priced from (see Workspace): its amounts,
// the counts and amounts of the lines it touched, and the lines it added.
// Many Views of one order share that order and, when encoded, the JSON of
// its untouched lines, so a validation answering N priced orders of a
// 50-line cart encodes the cart's lines once, not N times.
//
// A View encodes as the full order JSON; Order builds the full *Order. The
// zero View is empty and encodes as null.
type View struct {
	base    *viewBase
	amounts Amounts
	lines   []LineChange // ascending Index
	added   []Item
}

// viewBase is the order Views are priced from, with its JSON pieces
// encoded once on first use.
type viewBase struct {
	order *Order

	once  sync.Once
	head  []byte   // `{…` the fields before "amount"
	tail  []byte   // `,"metadata":…}` the fields after "items"
	lines [][]byte // each line's JSON
	size  int      // len(head) + len(tail) + Σ len(lines) + separators
	err   error
}

// Amounts returns the order's calculated amounts.
func (v *View) Amounts() Amounts { return v.amounts }

// Changes returns the lines whose counts or amounts the redeemable changed
// (ascending index into the base order's lines) and the lines it added
// after them. Callers must not modify them.
func (v *View) Changes() ([]LineChange, []Item) { return v.lines, v.added }

// Order returns the priced order in full; it shares nothing with the View.
func (v *View) Order() *Order {
	if v.base == nil {
		return nil
	}
	o := v.base.order.Clone()
	o.Customer, o.Referrer = customer.NewRef(o.CustomerID), customer.NewRef(o.ReferrerID)
	o.putAmounts(v.amounts)
	for _, c := range v.lines {
		o.Items[c.Index].setLineAmounts(c.LineAmounts)
	}
	if len(v.added) > 0 {
		o.Items = append(o.Items, cloneItems(v.added)...)
	}
	return o
}

// MarshalJSON encodes the priced order exactly as json.Marshal encodes
// v.Order() (but without HTML escaping, as the HTTP adapter writes JSON).
func (v View) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil) }

// SizeHint is about how many bytes AppendJSON writes (never much less), so
// that callers can size their buffer once.
func (v *View) SizeHint() int {
	if v.base == nil {
		return 4
	}
	b := v.base
	if b.once.Do(b.encode); b.err != nil {
		return 0
	}
	return b.size + 9*24 + len(v.lines)*64 + len(v.added)*1024
}

// AppendJSON appends the priced order's JSON to dst: the base order's
// pieces and untouched lines are copied from their cached encoding.
func (v *View) AppendJSON(dst []byte) ([]byte, error) {
	if v.base == nil {
		return append(dst, "null"...), nil
	}
	b := v.base
	if b.once.Do(b.encode); b.err != nil {
		return dst, b.err
	}
	dst = append(dst, b.head...)
	a := &v.amounts
	for _, f := range [...]struct {
		key string
		n   int64
	}{
		{`,"amount":`, a.Amount}, {`,"initial_amount":`, a.InitialAmount}, {`,"discount_amount":`, a.DiscountAmount},
		{`,"items_discount_amount":`, a.ItemsDiscountAmount}, {`,"total_discount_amount":`, a.TotalDiscountAmount},
		{`,"total_amount":`, a.TotalAmount}, {`,"applied_discount_amount":`, a.AppliedDiscountAmount},
		{`,"items_applied_discount_amount":`, a.ItemsAppliedDiscountAmount},
		{`,"total_applied_discount_amount":`, a.TotalAppliedDiscountAmount},
	} {
		dst = strconv.AppendInt(append(dst, f.key...), f.n, 10)
	}
	dst = append(dst, `,"items":[`...)
	next := 0 // the next changed line
	for i, line := range b.lines {
		if i > 0 {
			dst = append(dst, ',')
		}
		if next < len(v.lines) && v.lines[next].Index == i {
			it := b.order.Items[i]
			it.setLineAmounts(v.lines[next].LineAmounts)
			next++
			var err error
			if dst, err = appendJSON(dst, &it); err != nil {
				return dst, err
			}
			continue
		}
		dst = append(dst, line...)
	}
	for i := range v.added {
		if len(b.lines) > 0 || i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendJSON(dst, &v.added[i]); err != nil {
			return dst, err
		}
	}
	dst = append(dst, ']')
	return append(dst, b.tail...), nil
}

// encode splits the base order's JSON (with no lines) around its amounts
// and items, and encodes each line.
func (b *viewBase) encode() {
	shell := *b.order
	shell.Items = []Item{}
	whole, err := appendJSON(nil, &shell)
	if err != nil {
		b.err = err
		return
	}
	// Strings escape their quotes, so the first `,"amount":` and
	// `"items":[]` are the keys themselves: the fields before amount
	// (ids, dates, status) hold no such unescaped text.
	amount := bytes.Index(whole, []byte(`,"amount":`))
	items := bytes.Index(whole, []byte(`"items":[]`))
	if amount < 0 || items < amount {
		b.err = errors.New("order: unexpected order JSON layout")
		return
	}
	b.head, b.tail = whole[:amount], whole[items+len(`"items":[]`):]
	b.lines = make([][]byte, len(b.order.Items))
	var buf []byte
	for i := range b.order.Items {
		start := len(buf)
		if buf, err = appendJSON(buf, &b.order.Items[i]); err != nil {
			b.err = err
			return
		}
		b.lines[i] = buf[start:len(buf):len(buf)]
	}
	b.size = len(b.head) + len(b.tail) + len(buf) + len(b.lines) + len(`,"items":[]`)
}

// appendJSON appends v's JSON without HTML escaping and without the
// encoder's newline.
func appendJSON(dst []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	out := buf.Bytes()
	return out[:len(out)-1], nil
}
