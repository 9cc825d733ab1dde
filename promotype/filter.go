package promotype

import (
	"strconv"
	"strings"
	"time"
)

// FieldKind is the value type of a filterable field.
type FieldKind uint8

// Field kinds.
const (
	FieldString FieldKind = iota + 1
	FieldTime
)

// Op is a filter condition operator, spelled as on the wire ("$is", ...).
type Op string

// Operators of the listing conditions (filters[<field>][conditions][<op>]).
const (
	OpIs         Op = "$is"
	OpIsNot      Op = "$is_not"
	OpIn         Op = "$in"
	OpNotIn      Op = "$not_in"
	OpHasValue   Op = "$has_value"
	OpIsUnknown  Op = "$is_unknown"
	OpStartsWith Op = "$starts_with"
	OpEndsWith   Op = "$ends_with"
	OpContains   Op = "$contains"
	OpNotContain Op = "$not_contain"
	OpAfter      Op = "$after"
	OpBefore     Op = "$before"
	OpMoreThan   Op = "$more_than" // days ago; resolved to $before
	OpLessThan   Op = "$less_than" // days ago; resolved to $after
)

var opsByKind = map[FieldKind][]Op{
	FieldString: {OpIs, OpIsNot, OpIn, OpNotIn, OpHasValue, OpIsUnknown, OpStartsWith, OpEndsWith, OpContains, OpNotContain},
	FieldTime:   {OpAfter, OpBefore, OpHasValue, OpIsUnknown, OpMoreThan, OpLessThan},
}

// Junction joins the conditions of a filter.
type Junction string

// Junctions.
const (
	JunctionAnd Junction = "and"
	JunctionOr  Junction = "or"
)

// Filter is a set of conditions over a resource's fields joined by Junction
// (and by default).
type Filter struct {
	Junction   Junction
	Conditions []Condition
}

// Condition is one test of a field. String operators read Values (one value
// for $is, $starts_with, ...; several for $in and $not_in); time operators
// read At once resolved.
type Condition struct {
	Field  string
	Op     Op
	Values []string
	At     Time
}

// Resolve checks every condition against fields and turns the relative
// date operators into absolute ones, for a list read outside ListParams
// (one with its own paging).
func (f Filter) Resolve(fields map[string]FieldKind, now Time) (Filter, error) {
	return f.resolve(fields, now)
}

// resolve checks every condition against fields and turns the relative date
// operators into absolute ones.
func (f Filter) resolve(fields map[string]FieldKind, now Time) (Filter, error) {
	switch f.Junction {
	case "", JunctionAnd, JunctionOr:
	default:
		return Filter{}, InvalidQueryParams("Property .filters.junction must be one of and, or")
	}
	out := Filter{Junction: f.Junction, Conditions: make([]Condition, 0, len(f.Conditions))}
	if out.Junction == "" {
		out.Junction = JunctionAnd
	}
	for _, c := range f.Conditions {
		kind, ok := fields[c.Field]
		if !ok {
			return Filter{}, InvalidQueryParams("Property .filters.%s is not a filterable field", c.Field)
		}
		if !opAllowed(kind, c.Op) {
			return Filter{}, InvalidQueryParams("Property .filters.%s.conditions has an unsupported condition %s", c.Field, c.Op)
		}
		r, err := c.resolve(kind, now)
		if err != nil {
			return Filter{}, err
		}
		out.Conditions = append(out.Conditions, r)
	}
	return out, nil
}

func opAllowed(kind FieldKind, op Op) bool {
	for _, o := range opsByKind[kind] {
		if o == op {
			return true
		}
	}
	return false
}

func (c Condition) resolve(kind FieldKind, now Time) (Condition, error) {
	bad := func(want string) error {
		return InvalidQueryParams("Property .filters.%s.conditions.%s %s", c.Field, c.Op, want)
	}
	switch c.Op {
	case OpHasValue, OpIsUnknown:
		return Condition{Field: c.Field, Op: c.Op}, nil
	case OpIn, OpNotIn:
		if len(c.Values) == 0 {
			return c, bad("needs at least one value")
		}
		return c, nil
	}
	if len(c.Values) != 1 && (kind == FieldString || c.At.IsZero()) {
		return c, bad("needs exactly one value")
	}
	if kind == FieldString {
		return c, nil
	}
	switch c.Op {
	case OpAfter, OpBefore:
		if !c.At.IsZero() {
			return c, nil
		}
		t, err := ParseTime(c.Values[0])
		if err != nil {
			return c, bad("cannot be recognized as a ISO-8601 compliant date")
		}
		return Condition{Field: c.Field, Op: c.Op, At: t}, nil
	default: // $more_than / $less_than: whole days ago
		days, err := strconv.Atoi(strings.TrimSpace(c.Values[0]))
		if err != nil || days < 0 {
			return c, bad("must be a non-negative integer (days)")
		}
		at := NewTime(now.Add(-time.Duration(days) * 24 * time.Hour))
		if c.Op == OpMoreThan {
			return Condition{Field: c.Field, Op: OpBefore, At: at}, nil
		}
		return Condition{Field: c.Field, Op: OpAfter, At: at}, nil
	}
}

// Value is one field of a record as a filter sees it.
type Value struct {
	Str  string
	Time Time
	Null bool
}

// Match reports whether the record whose fields get returns satisfies q's
// filter and every Must condition. Stores that filter in memory use it; SQL
// stores translate the same operators and must agree (the conformance suite
// checks).
func (q Query) Match(get func(field string) Value) bool {
	for _, c := range q.Must {
		if !c.Match(get(c.Field)) {
			return false
		}
	}
	if len(q.Filter.Conditions) == 0 {
		return true
	}
	or := q.Filter.Junction == JunctionOr
	for _, c := range q.Filter.Conditions {
		if c.Match(get(c.Field)) == or {
			return or
		}
	}
	return !or
}

// Match tests one value. Null values match only $is_unknown and the negative
// string operators ($is_not, $not_in, $not_contain).
func (c Condition) Match(v Value) bool {
	switch c.Op {
	case OpHasValue:
		return !v.Null
	case OpIsUnknown:
		return v.Null
	case OpIsNot:
		return v.Null || v.Str != c.Values[0]
	case OpNotIn:
		return v.Null || !contains(c.Values, v.Str)
	case OpNotContain:
		return v.Null || !strings.Contains(v.Str, c.Values[0])
	}
	if v.Null {
		return false
	}
	switch c.Op {
	case OpIs:
		return v.Str == c.Values[0]
	case OpIn:
		return contains(c.Values, v.Str)
	case OpStartsWith:
		return strings.HasPrefix(v.Str, c.Values[0])
	case OpEndsWith:
		return strings.HasSuffix(v.Str, c.Values[0])
	case OpContains:
		return strings.Contains(v.Str, c.Values[0])
	case OpAfter:
		return v.Time.After(c.At.Time)
	case OpBefore:
		return v.Time.Before(c.At.Time)
	}
	return false
}

func contains(vals []string, s string) bool {
	for _, v := range vals {
		if v == s {
			return true
		}
	}
	return false
}

// StringValue is the field value *s, Null when s is nil (the Field methods
// of list records use it for optional fields).
func StringValue(s *string) Value {
	if s == nil {
		return Value{Null: true}
	}
	return Value{Str: *s}
}

// TimeValue is the field value *t, Null when t is nil.
func TimeValue(t *Time) Value {
	if t == nil {
		return Value{Null: true}
	}
	return Value{Time: *t}
}

// Within is the conditions bounding a time field: before and after
// (exclusive), each when set (the created_at[before|after] parameters of
// the lists that take them).
func Within(field string, before, after *Time) []Condition {
	var out []Condition
	if before != nil {
		out = append(out, Condition{Field: field, Op: OpBefore, At: *before})
	}
	if after != nil {
		out = append(out, Condition{Field: field, Op: OpAfter, At: *after})
	}
	return out
}
