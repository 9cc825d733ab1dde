package redemption

import (
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// filterSet is a qualification's options.filters, checked.
type filterSet struct {
	or     bool // junction or (default and)
	fields []fieldFilter
}

// fieldFilter is one filter's conditions; all must hold.
type fieldFilter struct {
	name  string
	conds []condition
}

type condition struct {
	op     string // $is, $is_not, $in, $not_in, $has_value, $is_unknown
	values []string
}

// compileFilters checks f: a property that is no documented filter, a
// junction other than and/or or a filter without conditions is a 400.
func compileFilters(f *QualificationFilters) (*filterSet, error) {
	if len(f.unknown) > 0 {
		return nil, promotype.InvalidPayload("Property .options.filters.%s is not allowed (filters: junction, %s)",
			f.unknown[0], strings.Join(qualificationFilterNames, ", "))
	}
	out := &filterSet{}
	if f.Junction != nil {
		switch strings.ToLower(*f.Junction) {
		case "and":
		case "or":
			out.or = true
		default:
			return nil, promotype.InvalidPayload("Property .options.filters.junction must be equal to one of the allowed values: and, or")
		}
	}
	names := make([]string, 0, len(f.Fields))
	for k := range f.Fields {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, name := range names {
		fc := f.Fields[name]
		if fc == nil || fc.Conditions == nil {
			return nil, promotype.InvalidPayload("Property .options.filters.%s should have required property 'conditions'", name)
		}
		c := fc.Conditions
		ff := fieldFilter{name: name}
		add := func(op string, vs []string) {
			if vs != nil {
				ff.conds = append(ff.conds, condition{op: op, values: vs})
			}
		}
		add("$is", c.Is)
		add("$is_not", c.IsNot)
		add("$in", c.In)
		add("$not_in", c.NotIn)
		if c.HasValue != nil {
			ff.conds = append(ff.conds, condition{op: "$has_value"})
		}
		if c.IsUnknown != nil {
			ff.conds = append(ff.conds, condition{op: "$is_unknown"})
		}
		if len(ff.conds) == 0 {
			return nil, promotype.InvalidPayload("Property .options.filters.%s.conditions must have one of $is, $is_not, $in, $not_in, $has_value, $is_unknown", name)
		}
		out.fields = append(out.fields, ff)
	}
	return out, nil
}

// holds reports whether value v (empty: none) meets c. $is and $is_not
// read the first value only, as the hosted service documents.
func (c *condition) holds(v string) bool {
	switch c.op {
	case "$is":
		return len(c.values) > 0 && v != "" && v == c.values[0]
	case "$is_not":
		return len(c.values) == 0 || v != c.values[0]
	case "$in":
		return v != "" && slices.Contains(c.values, v)
	case "$not_in":
		return !slices.Contains(c.values, v)
	case "$has_value":
		return v != ""
	}
	return v == "" // $is_unknown
}

func (f *fieldFilter) holds(a map[string]string) bool {
	v := a[f.name]
	for i := range f.conds {
		if !f.conds[i].holds(v) {
			return false
		}
	}
	return true
}

// match reports whether the attributes a pass the filters.
func (s *filterSet) match(a map[string]string) bool {
	if len(s.fields) == 0 {
		return true
	}
	for i := range s.fields {
		ok := s.fields[i].holds(a)
		if s.or && ok {
			return true
		}
		if !s.or && !ok {
			return false
		}
	}
	return !s.or
}

// early reports whether attributes known before resolution (a) may still
// pass: under and, each filter on a known attribute must hold; under or
// nothing is decided yet.
func (s *filterSet) early(a map[string]string) bool {
	if s.or {
		return true
	}
	for i := range s.fields {
		if _, known := a[s.fields[i].name]; known && !s.fields[i].holds(a) {
			return false
		}
	}
	return true
}
