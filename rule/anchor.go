package rule

// Anchor returns facts of which at least one must hold in a request for p
// to pass, or nil when p has none (it must always be evaluated). The facts
// are those of [Input.Facts].
func (p *Program) Anchor() []string {
	if p == nil || p.root == nil {
		return nil
	}
	return p.anchor(p.root)
}

// Anchors returns every alternative anchor of programs that must all pass
// (a tier's rules and its campaign's): each is a set of facts of which one
// must hold. An index picks the alternative whose facts are rarest.
func Anchors(progs ...*Program) [][]string {
	var out [][]string
	for _, p := range progs {
		if p != nil && p.root != nil {
			out = p.alternatives(p.root, out)
		}
	}
	return out
}

// alternatives appends the anchors of x: each conjunct of an and offers its
// own; anything else offers its single anchor, if it has one.
func (p *Program) alternatives(x *expr, out [][]string) [][]string {
	if x.op == opAnd {
		for _, k := range x.kids {
			out = p.alternatives(k, out)
		}
		return out
	}
	if a := p.anchor(x); a != nil {
		out = append(out, a)
	}
	return out
}

func (p *Program) anchor(x *expr) []string {
	switch x.op {
	case opAnd: // any one conjunct's anchor is necessary: take the narrowest
		var best []string
		for _, k := range x.kids {
			if a := p.anchor(k); a != nil && (best == nil || len(a) < len(best)) {
				best = a
			}
		}
		return best
	case opOr: // every branch must be anchored; one of their facts is necessary
		var all []string
		for _, k := range x.kids {
			a := p.anchor(k)
			if a == nil {
				return nil
			}
			all = append(all, a...)
		}
		return all
	}
	return ruleAnchor(&p.rules[x.rule])
}

func ruleAnchor(r *compiled) []string {
	switch r.spec.target {
	case tCustomerMeta:
		return metaAnchor(scopeCustomer, r)
	case tCustomerSegment:
		return segmentAnchor(r)
	case tOrderMeta:
		return metaAnchor(scopeOrder, r)
	case tRedemptionMeta:
		return metaAnchor(scopeRedemption, r)
	case tItemsAny, tItemsCheapest, tItemsMostExpensive:
		facts := make([]string, 0, len(r.items))
		for _, ref := range r.items {
			facts = append(facts, refFact(ref))
		}
		return facts
	case tItemsEvery:
		if len(r.items) > 0 {
			return []string{refFact(r.items[0])}
		}
	}
	return nil
}

// metaAnchor: an $is needs one of its values; any other positive condition
// needs the key; negative conditions hold on a missing key, so need nothing.
func metaAnchor(scope byte, r *compiled) []string {
	var best []string
	keyed := false
	for i := range r.conds {
		c := &r.conds[i]
		switch c.op {
		case opIsNot, opNotIn:
			continue
		case opIs:
			facts := make([]string, len(c.strs))
			for j, v := range c.strs {
				facts[j] = valueFact(scope, r.prop, v)
			}
			if best == nil || len(facts) < len(best) {
				best = facts
			}
		default:
			keyed = true
		}
	}
	if best == nil && keyed {
		return []string{keyFact(scope, r.prop)}
	}
	return best
}

func refFact(ref ItemRef) string {
	switch {
	case ref.Object == objectCollection:
		return factCollection + ref.ID
	case ref.Object == "sku" && ref.ID != "":
		return factSKU + ref.ID
	case ref.Object == "sku":
		return factSKUSource + ref.SourceID
	case ref.ID != "":
		return factProduct + ref.ID
	default:
		return factProductSource + ref.SourceID
	}
}

// ItemRefs returns the products and SKUs the item rules of progs name
// (repeats possible): what a rule requires in the order.
func ItemRefs(progs ...*Program) []ItemRef {
	var out []ItemRef
	for _, p := range progs {
		if p == nil {
			continue
		}
		for i := range p.rules {
			out = append(out, p.rules[i].items...)
			if p.rules[i].sub != nil {
				out = append(out, ItemRefs(p.rules[i].sub)...)
			}
		}
	}
	return out
}

// segmentAnchor: an $is needs the customer in one of its segments; the
// negative conditions hold without any, so need nothing.
func segmentAnchor(r *compiled) []string {
	var best []string
	for i := range r.conds {
		c := &r.conds[i]
		if c.op != opIs {
			continue
		}
		facts := make([]string, len(c.strs))
		for j, id := range c.strs {
			facts[j] = factSegment + id
		}
		if best == nil || len(facts) < len(best) {
			best = facts
		}
	}
	return best
}
