package discount

import (
	"cmp"
	"slices"

	"github.com/promoengine/promo/order"
)

// Lines indexes the lines of an order by the product and SKU ids and
// source ids that applicable_to entries name, so that an item discount
// naming a few products finds their lines without visiting the others.
// Build it once per order (IndexLines) and use it with ApplyIndexed on that
// order or on copies of it with the same first lines (lines added after
// indexing are always visited).
type Lines struct {
	n    int
	keys []lineKey // sorted by kind, key, line
	sc   scratch
}

// scratch is the memory choosing lines needs, reused from one discount to
// the next over the same Lines (one validation, one goroutine).
type scratch struct {
	cands  []int
	groups []group
	sel    []selection
	raw    []int64
	eval   evalScratch // formulas' Env
}

// lineKey is one identity of a line.
type lineKey struct {
	kind uint8 // keyProduct …
	key  string
	line int
}

// Kinds of line identities.
const (
	keyProduct uint8 = iota
	keyProductSource
	keySKU
	keySKUSource
)

// IndexLines indexes the lines of o (one allocation).
func IndexLines(o *order.Order) *Lines {
	ls := &Lines{n: len(o.Items), keys: make([]lineKey, 0, 2*len(o.Items))}
	for i := range o.Items {
		k := keysOf(&o.Items[i])
		for kind, key := range [...]string{keyProduct: k.product, keyProductSource: k.productSource, keySKU: k.sku, keySKUSource: k.skuSource} {
			if key != "" {
				ls.keys = append(ls.keys, lineKey{uint8(kind), key, i})
			}
		}
	}
	slices.SortFunc(ls.keys, compareKeys)
	return ls
}

func compareKeys(a, b lineKey) int {
	return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.key, b.key), cmp.Compare(a.line, b.line))
}

// appendLines appends the lines with identity (kind, key).
func (ls *Lines) appendLines(dst []int, kind uint8, key string) []int {
	i, _ := slices.BinarySearchFunc(ls.keys, lineKey{kind: kind, key: key}, compareKeys)
	for ; i < len(ls.keys) && ls.keys[i].kind == kind && ls.keys[i].key == key; i++ {
		dst = append(dst, ls.keys[i].line)
	}
	return dst
}

// candidates returns, in line order, the lines of o that app's included
// entries may name: every line when app includes all (or nothing in
// particular), when there is no index, when o has fewer lines than
// were indexed, or when an entry names a collection (membership is not
// indexed). Exclusions are left to entryFor.
func (ls *Lines) candidates(o *order.Order, app *Applicability, out []int) []int {
	if ls == nil || app == nil || app.IncludedAll || len(app.Included) == 0 || len(o.Items) < ls.n || hasCollection(app.Included) {
		for i := range o.Items {
			out = append(out, i)
		}
		return out
	}
	for i := range app.Included {
		t := &app.Included[i]
		id, source := keyProduct, keyProductSource
		if t.Object == "sku" {
			id, source = keySKU, keySKUSource
		}
		if t.ID != "" {
			out = ls.appendLines(out, id, t.ID)
		}
		if t.SourceID != nil {
			out = ls.appendLines(out, source, *t.SourceID)
		}
	}
	if len(app.Included) > 1 || len(out) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	for i := ls.n; i < len(o.Items); i++ { // lines added since indexing
		out = append(out, i)
	}
	return out
}
