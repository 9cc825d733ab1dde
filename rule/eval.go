package rule

import (
	"slices"
	"strings"
)

// Eval runs the program on in. When it fails, message is the error.message
// of the first failing rule in evaluation order, else the set's own (empty
// when neither has one).
func (p *Program) Eval(in *Input) (ok bool, message string) {
	return p.eval(in, false)
}

// EvalAudience runs only the program's customer rules (the query option
// audienceRulesOnly): every other rule counts as passing.
func (p *Program) EvalAudience(in *Input) (ok bool, message string) {
	return p.eval(in, true)
}

// EvalHistory is Eval that also reports whether the first failing rule
// reads the redemption history (its failure is redemption_rules_violated).
func (p *Program) EvalHistory(in *Input) (ok bool, message string, history bool) {
	ok, message, failed := p.run(in, false)
	return ok, message, !ok && p.historyRule(failed)
}

func (p *Program) eval(in *Input, audience bool) (ok bool, message string) {
	ok, message, _ = p.run(in, audience)
	return ok, message
}

func (p *Program) run(in *Input, audience bool) (ok bool, message string, failed int) {
	if p.root == nil {
		return true, "", -1
	}
	e := evaluator{in: in, prog: p, failed: -1, audience: audience}
	if e.expr(p.root, nil) {
		return true, "", -1
	}
	if e.failed >= 0 && p.rules[e.failed].message != "" {
		return false, p.rules[e.failed].message, e.failed
	}
	return false, p.message, e.failed
}

// evaluator carries one evaluation: the input and the first rule that failed.
type evaluator struct {
	in       *Input
	prog     *Program
	failed   int
	scratch  group // lines of the item being checked (sub-rules never nest item rules)
	audience bool  // only customer rules count
}

// group is the set of lines an item sub-rule reads (nil at the top level).
type group []int

func (e *evaluator) expr(x *expr, g group) bool {
	switch x.op {
	case opAnd:
		for _, k := range x.kids {
			if !e.expr(k, g) {
				return false
			}
		}
		return true
	case opOr:
		for _, k := range x.kids {
			if e.expr(k, g) {
				return true
			}
		}
		return false
	}
	ok := e.rule(&e.prog.rules[x.rule], g)
	if !ok && e.failed < 0 {
		e.failed = x.rule
	}
	return ok
}

func (e *evaluator) rule(r *compiled, g group) bool {
	if e.audience && !r.spec.isCustomer() {
		return true
	}
	in := e.in
	switch r.spec.target {
	case tCustomerMeta:
		return metaHolds(r.conds, in.Customer, r.prop)
	case tCustomerSegment:
		return segmentHolds(r.conds, in.Segments)
	case tOrderMeta:
		return metaHolds(r.conds, in.Order, r.prop)
	case tRedemptionMeta:
		return metaHolds(r.conds, in.Redemption, r.prop)
	case tOrderAmount:
		return numHolds(r.conds, float64(in.Amount))
	case tOrderInitialAmount:
		return numHolds(r.conds, float64(in.InitialAmount))
	case tOrderTotalAmount:
		return numHolds(r.conds, float64(in.TotalAmount))
	case tHistory:
		return numHolds(r.conds, float64(in.History[r.spec.counter]))
	case tItemsCount:
		var units int64
		for i := range in.Items {
			units += in.Items[i].Quantity
		}
		return numHolds(r.conds, float64(units))
	case tItemsPriceAny, tItemsPriceEach, tItemsMetaAny, tItemsMetaEach:
		return e.eachItem(r)
	case tItemsAny, tItemsEvery, tItemsNone, tItemsCheapest, tItemsMostExpensive:
		return e.items(r)
	case tSubQuantity, tSubPrice, tSubMeta:
		for _, i := range g { // a line-level sub-rule holds on any matched line
			it := &in.Items[i]
			if lineHolds(r, it) {
				return true
			}
		}
		return false
	case tSubAggregatedQuantity, tSubAggregatedAmount:
		var sum int64
		for _, i := range g {
			if r.spec.target == tSubAggregatedQuantity {
				sum += in.Items[i].Quantity
			} else {
				sum += in.Items[i].Amount
			}
		}
		return numHolds(r.conds, float64(sum))
	}
	return false
}

func lineHolds(r *compiled, it *Item) bool {
	switch r.spec.target {
	case tSubQuantity:
		return numHolds(r.conds, float64(it.Quantity))
	case tSubPrice, tItemsPriceAny, tItemsPriceEach:
		return numHolds(r.conds, float64(it.Price))
	default: // metadata
		return metaHolds(r.conds, it.Meta, r.prop)
	}
}

// eachItem evaluates price_any / price_each / metadata_any / metadata_each.
// A cart without lines passes none of them.
func (e *evaluator) eachItem(r *compiled) bool {
	items := e.in.Items
	if len(items) == 0 {
		return false
	}
	all := r.spec.target == tItemsPriceEach || r.spec.target == tItemsMetaEach
	for i := range items {
		if lineHolds(r, &items[i]) != all {
			return !all
		}
	}
	return all
}

// items evaluates an item rule: for each referenced item, the lines it
// matches (a product matches its own lines and its SKUs' lines), checked by
// the sub-rules.
func (e *evaluator) items(r *compiled) bool {
	switch r.spec.target {
	case tItemsCheapest, tItemsMostExpensive:
		line := e.extremeLine(r.spec.target == tItemsCheapest)
		if line < 0 {
			return false
		}
		for _, ref := range r.items {
			if e.matches(&e.in.Items[line], ref) && e.sub(r, group{line}) {
				return true
			}
		}
		return false
	}
	for _, ref := range r.items {
		g := e.lines(ref)
		hit := len(g) > 0 && e.sub(r, g)
		switch r.spec.target {
		case tItemsAny:
			if hit {
				return true
			}
		case tItemsEvery:
			if !hit {
				return false
			}
		case tItemsNone:
			if hit {
				return false
			}
		}
	}
	return r.spec.target != tItemsAny
}

func (e *evaluator) sub(r *compiled, g group) bool {
	if r.sub == nil || r.sub.root == nil {
		return true
	}
	inner := evaluator{in: e.in, prog: r.sub, failed: -1}
	return inner.expr(r.sub.root, g)
}

func (e *evaluator) matches(it *Item, ref ItemRef) bool {
	if ref.Object == objectCollection {
		return slices.Contains(it.Collections, ref.ID)
	}
	if ref.Object == "sku" {
		return (ref.ID != "" && it.SKUID == ref.ID) || (ref.ID == "" && ref.SourceID != "" && it.SKUSourceID == ref.SourceID)
	}
	return (ref.ID != "" && it.ProductID == ref.ID) || (ref.ID == "" && ref.SourceID != "" && it.ProductSourceID == ref.SourceID)
}

func (e *evaluator) lines(ref ItemRef) group {
	g := e.scratch[:0]
	for i := range e.in.Items {
		if e.matches(&e.in.Items[i], ref) {
			g = append(g, i)
		}
	}
	e.scratch = g
	return g
}

// extremeLine returns the cheapest (or most expensive) line by unit price;
// ties go to the first line. -1 for an empty cart.
func (e *evaluator) extremeLine(cheapest bool) int {
	best := -1
	for i := range e.in.Items {
		p := e.in.Items[i].Price
		if best < 0 || (cheapest && p < e.in.Items[best].Price) || (!cheapest && p > e.in.Items[best].Price) {
			best = i
		}
	}
	return best
}

// numHolds checks every condition on a number.
func numHolds(conds []cond, v float64) bool {
	for i := range conds {
		if !numCond(&conds[i], v) {
			return false
		}
	}
	return true
}

func numCond(c *cond, v float64) bool {
	switch c.op {
	case opIs:
		return hasNum(c.nums, v)
	case opIsNot, opNotIn:
		return !hasNum(c.nums, v)
	case opLess:
		return v < c.nums[0]
	case opLessEq:
		return v <= c.nums[0]
	case opMore:
		return v > c.nums[0]
	case opMoreEq:
		return v >= c.nums[0]
	}
	return false
}

func hasNum(vals []float64, v float64) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

// metaHolds checks every condition on metadata key prop. A missing key (or
// null) satisfies only the negative conditions ($is_not, $not_in).
func metaHolds(conds []cond, a Attrs, prop string) bool {
	v, ok := a[prop]
	if !ok || v.Kind == Null {
		for i := range conds {
			if conds[i].op != opIsNot && conds[i].op != opNotIn {
				return false
			}
		}
		return true
	}
	for i := range conds {
		if !valueHolds(&conds[i], v) {
			return false
		}
	}
	return true
}

func valueHolds(c *cond, v Value) bool {
	switch c.op {
	case opIs:
		return anyEqual(c.strs, v)
	case opIsNot, opNotIn:
		return !anyEqual(c.strs, v)
	case opLess, opLessEq, opMore, opMoreEq:
		f, ok := v.number()
		return ok && numCond(c, f)
	case opStartsWith, opEndsWith, opContains:
		if v.Kind != String {
			return false
		}
		for _, s := range c.strs {
			if (c.op == opStartsWith && strings.HasPrefix(v.Str, s)) ||
				(c.op == opEndsWith && strings.HasSuffix(v.Str, s)) ||
				(c.op == opContains && strings.Contains(v.Str, s)) {
				return true
			}
		}
		return false
	case opAfter, opBefore:
		t, ok := v.time()
		if !ok {
			return false
		}
		if c.op == opAfter {
			return t.After(c.times[0])
		}
		return t.Before(c.times[0])
	case opCount, opCountMore, opCountLess:
		if v.Kind != Array {
			return false
		}
		n := float64(len(v.Arr))
		switch c.op {
		case opCount:
			return n == c.nums[0]
		case opCountMore:
			return n > c.nums[0]
		}
		return n < c.nums[0]
	}
	return false
}

// anyEqual reports whether v (or, for an array, one of its elements) equals
// one of the canonical values.
func anyEqual(vals []string, v Value) bool {
	if v.Kind == Array {
		for _, e := range v.Arr {
			if s, ok := e.canon(); ok && hasString(vals, s) {
				return true
			}
		}
		return false
	}
	s, ok := v.canon()
	return ok && hasString(vals, s)
}

func hasString(vals []string, s string) bool {
	for _, v := range vals {
		if v == s {
			return true
		}
	}
	return false
}

// AudienceOmitted returns the keys of the program's rules that
// EvalAudience passes without checking (every rule but the customer
// rules), in the rule set's order.
func (p *Program) AudienceOmitted() []string {
	var out []string
	for i := range p.rules {
		if !p.rules[i].spec.isCustomer() {
			out = append(out, p.rules[i].key)
		}
	}
	return out
}

// segmentHolds checks every condition on the customer's segments (sorted):
// $is / $in hold when the customer is in one of the segments named,
// $is_not / $not_in when it is in none of them.
func segmentHolds(conds []cond, segs []string) bool {
	for i := range conds {
		in := false
		for _, id := range conds[i].strs {
			if _, ok := slices.BinarySearch(segs, id); ok {
				in = true
				break
			}
		}
		if in != (conds[i].op == opIs) {
			return false
		}
	}
	return true
}
