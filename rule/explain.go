package rule

// Failure is one rule condition that decided a failed evaluation: the rule
// (its key in the set, "2", or "2.1" for a sub-rule of item rule 2), what
// it reads, the condition with its values as written and the value the
// input held (nil when it held none: a missing metadata key, an item not
// in the cart, a cart without lines).
type Failure struct {
	Rule      string `json:"rule"`
	Name      string `json:"name"`
	Property  string `json:"property,omitempty"`
	Condition string `json:"condition"`
	Expected  any    `json:"expected"`
	Actual    any    `json:"actual"`
}

// Explain returns why the program fails on in: the failed rules that
// decide the logic (the first failing operand of an `and`, every operand
// of a failed `or`), each with the condition that failed and the value
// read. It returns nil when the program passes. It is a second, slower
// walk than Eval, meant to run only after Eval failed and only when an
// explanation was asked for: Eval itself records nothing.
func (p *Program) Explain(in *Input) []Failure {
	return p.explain(in, false)
}

// ExplainAudience is Explain for EvalAudience: only the customer rules
// count, so the failures are customer rules.
func (p *Program) ExplainAudience(in *Input) []Failure {
	return p.explain(in, true)
}

func (p *Program) explain(in *Input, audience bool) []Failure {
	if p.root == nil {
		return nil
	}
	x := explainer{evaluator: evaluator{in: in, prog: p, failed: -1, audience: audience}}
	if x.expr(p.root, nil) {
		return nil
	}
	return x.out
}

// explainer walks a program like evaluator, collecting the failures of
// the operands that decide each node.
type explainer struct {
	evaluator
	out []Failure
}

func (x *explainer) expr(e *expr, g group) bool {
	mark := len(x.out)
	switch e.op {
	case opAnd:
		for _, k := range e.kids {
			if !x.expr(k, g) {
				return false
			}
		}
		return true
	case opOr:
		for _, k := range e.kids {
			if x.expr(k, g) {
				x.out = x.out[:mark] // a passing operand decides: no failure
				return true
			}
		}
		return false
	}
	r := &x.prog.rules[e.rule]
	if x.rule(r, g) {
		return true
	}
	x.explainRule(r, g)
	return false
}

// explainRule appends why r (which failed) failed.
func (x *explainer) explainRule(r *compiled, g group) {
	in := x.in
	switch r.spec.target {
	case tCustomerMeta:
		x.meta(r, in.Customer)
	case tCustomerSegment:
		// The condition names the segments; actual, the customer's.
		actual := make([]string, len(in.Segments))
		copy(actual, in.Segments)
		for i := range r.conds {
			if !segmentHolds(r.conds[i:i+1], in.Segments) {
				x.add(r, &r.conds[i], actual)
				return
			}
		}
		x.add(r, firstCond(r), actual)
		x.meta(r, in.Order)
	case tRedemptionMeta:
		x.meta(r, in.Redemption)
	case tOrderAmount:
		x.num(r, in.Amount)
	case tOrderInitialAmount:
		x.num(r, in.InitialAmount)
	case tOrderTotalAmount:
		x.num(r, in.TotalAmount)
	case tItemsCount:
		var units int64
		for i := range in.Items {
			units += in.Items[i].Quantity
		}
		x.num(r, units)
	case tItemsPriceAny, tItemsPriceEach, tItemsMetaAny, tItemsMetaEach:
		x.eachItem(r)
	case tItemsAny, tItemsEvery, tItemsNone, tItemsCheapest, tItemsMostExpensive:
		x.items(r)
	case tSubQuantity, tSubPrice, tSubMeta:
		if len(g) == 0 {
			x.add(r, firstCond(r), nil)
			return
		}
		x.line(r, &in.Items[g[0]]) // no line holds: the first one tells why
	case tSubAggregatedQuantity, tSubAggregatedAmount:
		var sum int64
		for _, i := range g {
			if r.spec.target == tSubAggregatedQuantity {
				sum += in.Items[i].Quantity
			} else {
				sum += in.Items[i].Amount
			}
		}
		x.num(r, sum)
	default:
		x.add(r, firstCond(r), nil)
	}
}

func (x *explainer) add(r *compiled, c *cond, actual any) {
	f := Failure{Rule: r.key, Name: r.name, Property: r.prop, Actual: actual}
	if c != nil {
		f.Condition, f.Expected = c.name, c.vals
	}
	x.out = append(x.out, f)
}

func firstCond(r *compiled) *cond {
	if len(r.conds) == 0 {
		return nil
	}
	return &r.conds[0]
}

// num explains a failed number rule: its first condition v fails.
func (x *explainer) num(r *compiled, v int64) {
	for i := range r.conds {
		if !numCond(&r.conds[i], float64(v)) {
			x.add(r, &r.conds[i], v)
			return
		}
	}
	x.add(r, firstCond(r), v)
}

// meta explains a failed metadata rule on a.
func (x *explainer) meta(r *compiled, a Attrs) {
	v, ok := a[r.prop]
	if !ok || v.Kind == Null {
		for i := range r.conds {
			if c := &r.conds[i]; c.op != opIsNot && c.op != opNotIn {
				x.add(r, c, nil)
				return
			}
		}
		x.add(r, firstCond(r), nil)
		return
	}
	for i := range r.conds {
		if !valueHolds(&r.conds[i], v) {
			x.add(r, &r.conds[i], v.JSON())
			return
		}
	}
	x.add(r, firstCond(r), v.JSON())
}

// line explains a line-level rule that failed on it.
func (x *explainer) line(r *compiled, it *Item) {
	switch r.spec.target {
	case tSubQuantity:
		x.num(r, it.Quantity)
	case tSubPrice, tItemsPriceAny, tItemsPriceEach:
		x.num(r, it.Price)
	default:
		x.meta(r, it.Meta)
	}
}

// eachItem explains price_any / price_each / metadata_any / metadata_each:
// the first line that fails (for _any no line holds, so the first one).
func (x *explainer) eachItem(r *compiled) {
	items := x.in.Items
	for i := range items {
		if !lineHolds(r, &items[i]) {
			x.line(r, &items[i])
			return
		}
	}
	x.add(r, firstCond(r), nil) // a cart without lines
}

// items explains an item rule: a referenced item missing from the cart
// (any, every), present although excluded (none), or present but failing
// its sub-rules, whose failures are then given instead.
func (x *explainer) items(r *compiled) {
	switch r.spec.target {
	case tItemsCheapest, tItemsMostExpensive:
		line := x.extremeLine(r.spec.target == tItemsCheapest)
		if line < 0 {
			x.add(r, refCond("$is", r.items...), nil)
			return
		}
		for _, ref := range r.items {
			if x.matches(&x.in.Items[line], ref) {
				x.sub(r, group{line})
				return
			}
		}
		x.add(r, refCond("$is", r.items...), lineRef(&x.in.Items[line]))
		return
	}
	for _, ref := range r.items {
		g := x.lines(ref)
		hit := len(g) > 0 && x.evaluator.sub(r, g)
		switch r.spec.target {
		case tItemsAny, tItemsEvery:
			if hit {
				if r.spec.target == tItemsAny {
					return // cannot happen: the rule failed
				}
				continue
			}
			if len(g) == 0 {
				x.add(r, refCond("$is", ref), nil)
			} else {
				x.sub(r, append(group(nil), g...))
			}
			if r.spec.target == tItemsEvery {
				return
			}
		case tItemsNone:
			if hit {
				x.add(r, refCond("$is_not", ref), lineRef(&x.in.Items[g[0]]))
				return
			}
		}
	}
}

// refCond is an item rule's condition: the items it names.
func refCond(name string, refs ...ItemRef) *cond {
	vals := make([]any, len(refs))
	for i, r := range refs {
		vals[i] = r
	}
	return &cond{name: name, vals: vals}
}

// sub appends the failures of r's sub-rules on the lines g.
func (x *explainer) sub(r *compiled, g group) {
	if r.sub == nil || r.sub.root == nil {
		return
	}
	inner := explainer{evaluator: evaluator{in: x.in, prog: r.sub, failed: -1}, out: x.out}
	inner.expr(r.sub.root, g)
	x.out = inner.out
}

// lineRef is the item of a line as an item rule names it.
func lineRef(it *Item) ItemRef {
	if it.SKUID != "" {
		return ItemRef{ID: it.SKUID, SourceID: it.SKUSourceID, Object: "sku"}
	}
	return ItemRef{ID: it.ProductID, SourceID: it.ProductSourceID, Object: "product"}
}

// JSON returns v as encoding/json would decode it (an object as an empty
// one: values keep no object contents).
func (v Value) JSON() any {
	switch v.Kind {
	case String:
		return v.Str
	case Number:
		return v.Num
	case Bool:
		return v.Bool
	case Array:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = e.JSON()
		}
		return out
	case Object:
		return map[string]any{}
	}
	return nil
}
