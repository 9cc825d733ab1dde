package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// CollectionFilter is an AUTO_UPDATE collection's filter as sent and
// answered: a junction and, per field, its conditions:
//
//	{"junction":"and", "price":{"conditions":{"$more_than":[5000]}},
//	 "metadata.brand":{"conditions":{"$is":["Voucherify"]}}}
//
// Fields are id, source_id, name (a SKU's sku), price and metadata.<key>;
// the operators are those of the listing filters ($is, $is_not, $in,
// $not_in, $has_value, $is_unknown, $starts_with, $ends_with, $contains,
// $not_contain) and the numeric ones of validation rules ($less_than,
// $less_than_or_equal, $more_than, $more_than_or_equal).
type CollectionFilter map[string]any

func (f CollectionFilter) clone() CollectionFilter {
	if f == nil {
		return nil
	}
	return CollectionFilter(promotype.Metadata(f).Clone())
}

// Limits of a filter.
const (
	maxFilterConditions = 50
	maxFilterValues     = 100
)

// Facts is a product or a SKU as a collection filter reads it.
type Facts struct {
	ID       string
	SourceID *string
	Name     *string // a product's name, a SKU's sku
	Price    *int64
	Metadata promotype.Metadata
}

// ProductFacts returns what a filter reads of p.
func ProductFacts(p *Product) Facts {
	return Facts{ID: p.ID, SourceID: p.SourceID, Name: p.Name, Price: p.Price, Metadata: p.Metadata}
}

// SKUFacts returns what a filter reads of s.
func SKUFacts(s *SKU) Facts {
	return Facts{ID: s.ID, SourceID: s.SourceID, Name: s.SKU, Price: s.Price, Metadata: s.Metadata}
}

// filterProgram is a compiled CollectionFilter.
type filterProgram struct {
	or    bool
	conds []filterCond
}

type filterCond struct {
	field string // id, source_id, name, price or metadata
	key   string // the metadata key
	op    string
	strs  []string  // canonical values
	nums  []float64 // the values that are numbers
	num   float64   // the bound of a numeric comparison
}

var filterOps = []string{"$is", "$is_not", "$in", "$not_in", "$has_value", "$is_unknown", "$starts_with", "$ends_with",
	"$contains", "$not_contain", "$less_than", "$less_than_or_equal", "$more_than", "$more_than_or_equal"}

// compile checks f and compiles it; errors are 400 invalid_payload naming
// the property.
func (f CollectionFilter) compile() (*filterProgram, error) {
	bad := func(format string, args ...any) error {
		return promotype.InvalidPayload("Property .filter"+format, args...)
	}
	j, ok := f["junction"].(string)
	if !ok {
		return nil, bad(" must have required property 'junction'")
	}
	p := &filterProgram{}
	switch strings.ToLower(j) {
	case "and":
	case "or":
		p.or = true
	default:
		return nil, bad(".junction must be equal to one of the allowed values: and, or")
	}
	fields := make([]string, 0, len(f))
	for k := range f {
		if k != "junction" {
			fields = append(fields, k)
		}
	}
	slices.Sort(fields)
	for _, name := range fields {
		field, key := name, ""
		switch {
		case name == "id" || name == "source_id" || name == "name" || name == "price":
		case strings.HasPrefix(name, "metadata.") && len(name) > len("metadata."):
			field, key = "metadata", strings.TrimPrefix(name, "metadata.")
		default:
			return nil, bad(".%s is not a filterable field (id, source_id, name, price, metadata.<key>)", name)
		}
		spec, ok := f[name].(map[string]any)
		if !ok {
			return nil, bad(".%s must be an object with conditions", name)
		}
		conds, ok := spec["conditions"].(map[string]any)
		if !ok || len(conds) == 0 {
			return nil, bad(".%s must have required property 'conditions'", name)
		}
		ops := make([]string, 0, len(conds))
		for op := range conds {
			ops = append(ops, op)
		}
		slices.Sort(ops)
		for _, op := range ops {
			c, err := compileFilterCond(field, key, op, conds[op])
			if err != nil {
				return nil, bad(".%s.conditions.%s %s", name, op, err.Error())
			}
			p.conds = append(p.conds, c)
			if len(p.conds) > maxFilterConditions {
				return nil, bad(" must NOT have more than %d conditions", maxFilterConditions)
			}
		}
	}
	return p, nil
}

func compileFilterCond(field, key, op string, raw any) (filterCond, error) {
	c := filterCond{field: field, key: key, op: op}
	if !slices.Contains(filterOps, op) {
		return c, fmt.Errorf("is not a supported condition (%s)", strings.Join(filterOps, ", "))
	}
	vals, ok := raw.([]any)
	if !ok {
		vals = []any{raw} // a single value stands for itself
	}
	if op == "$has_value" || op == "$is_unknown" {
		return c, nil
	}
	if len(vals) == 0 || len(vals) > maxFilterValues {
		return c, fmt.Errorf("must list between 1 and %d values", maxFilterValues)
	}
	for _, v := range vals {
		s, ok := canon(v)
		if !ok {
			return c, fmt.Errorf("takes strings, numbers or booleans")
		}
		c.strs = append(c.strs, s)
		if n, ok := number(v); ok {
			c.nums = append(c.nums, n)
		}
	}
	switch op {
	case "$less_than", "$less_than_or_equal", "$more_than", "$more_than_or_equal":
		if len(vals) != 1 || len(c.nums) != 1 {
			return c, fmt.Errorf("takes exactly one number")
		}
		c.num = c.nums[0]
	}
	return c, nil
}

// canon is the string form values compare in: strings as they are,
// numbers in their shortest form, booleans as true and false.
func canon(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case int:
		return strconv.Itoa(x), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// number reads a number or a numeric string.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// holds reports whether f satisfies the filter.
func (p *filterProgram) holds(f *Facts) bool {
	if len(p.conds) == 0 {
		return true
	}
	for i := range p.conds {
		if p.conds[i].holds(f) == p.or {
			return p.or
		}
	}
	return !p.or
}

// value returns the field's value (nil when absent).
func (c *filterCond) value(f *Facts) any {
	switch c.field {
	case "id":
		if f.ID == "" {
			return nil
		}
		return f.ID
	case "source_id":
		if f.SourceID == nil {
			return nil
		}
		return *f.SourceID
	case "name":
		if f.Name == nil {
			return nil
		}
		return *f.Name
	case "price":
		if f.Price == nil {
			return nil
		}
		return float64(*f.Price)
	}
	return f.Metadata[c.key]
}

func (c *filterCond) holds(f *Facts) bool {
	v := c.value(f)
	switch c.op {
	case "$has_value":
		return v != nil
	case "$is_unknown":
		return v == nil
	}
	negative := c.op == "$is_not" || c.op == "$not_in" || c.op == "$not_contain"
	if v == nil {
		return negative
	}
	elems, isArray := v.([]any)
	if !isArray {
		return c.scalar(v)
	}
	for _, e := range elems { // an array holds a positive test if any element does, a negative one if all do
		if c.scalar(e) != negative {
			return !negative
		}
	}
	return negative
}

func (c *filterCond) scalar(v any) bool {
	switch c.op {
	case "$is", "$in":
		return c.equal(v)
	case "$is_not", "$not_in":
		return !c.equal(v)
	case "$less_than", "$less_than_or_equal", "$more_than", "$more_than_or_equal":
		n, ok := number(v)
		if !ok {
			return false
		}
		switch c.op {
		case "$less_than":
			return n < c.num
		case "$less_than_or_equal":
			return n <= c.num
		case "$more_than":
			return n > c.num
		}
		return n >= c.num
	}
	s, ok := canon(v)
	if !ok {
		return c.op == "$not_contain"
	}
	hit := false
	for _, want := range c.strs {
		switch c.op {
		case "$starts_with":
			hit = strings.HasPrefix(s, want)
		case "$ends_with":
			hit = strings.HasSuffix(s, want)
		default: // $contains, $not_contain
			hit = strings.Contains(s, want)
		}
		if hit {
			break
		}
	}
	return hit != (c.op == "$not_contain")
}

// equal reports whether v equals one of the values: as numbers when both
// are numbers, else as canonical strings.
func (c *filterCond) equal(v any) bool {
	if n, ok := v.(float64); ok {
		for _, x := range c.nums {
			if x == n {
				return true
			}
		}
	}
	s, ok := canon(v)
	return ok && slices.Contains(c.strs, s)
}
