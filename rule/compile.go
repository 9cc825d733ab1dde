package rule

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promo/promotype"
)

// Program is a compiled rule set: typed, with its logic parsed. It is
// immutable and safe for concurrent evaluation.
type Program struct {
	root    *expr // nil: no rule conditions (always passes)
	rules   []compiled
	message string // the rule set's error.message
	// NeedsTotal reports whether a rule reads order.total_amount, the value
	// after the incentive, or the discount the campaign gave with this
	// redemption's: the caller prices the incentive first.
	NeedsTotal bool
	// Segments reports whether a rule reads the customer's segments
	// (customer.segment): the caller reads them once per request into
	// Input.Segments.
	Segments bool
	// Counters are the redemption-history counters the rules read (the
	// caller reads them in one batch into Input.History).
	Counters []Counter
	// Limits are the bounds on history counters the program cannot pass
	// without: a redemption enforces them atomically (Limit).
	Limits []Limit
	// RuleID is the validation rule the program was compiled from ("" for
	// a rule set compiled on its own); explanations name it.
	RuleID string
}

type compiled struct {
	key     string
	name    string // the rule's name, for explanations
	spec    nameSpec
	prop    string
	conds   []cond
	items   []ItemRef
	sub     *Program
	message string
}

// objectCollection is the object of an item reference naming a product
// collection: it matches the lines the collection holds (Item.Collections).
const objectCollection = "products_collection"

// ItemRef is an entry of an item rule's `$is`: a product or SKU by id or
// source id, or a product collection by id.
type ItemRef struct {
	ID       string `json:"id"`
	SourceID string `json:"source_id,omitempty"`
	Object   string `json:"object"`
}

type opCode uint8

const (
	opIs opCode = iota + 1
	opIsNot
	opNotIn
	opLess
	opLessEq
	opMore
	opMoreEq
	opStartsWith
	opEndsWith
	opContains
	opAfter
	opBefore
	opCount
	opCountMore
	opCountLess
)

// condOps maps condition names to operators; $in is $is with several
// values, and $greater_than_or_equal appears in official examples.
var condOps = map[string]opCode{
	"$is": opIs, "$in": opIs, "$is_not": opIsNot, "$not_in": opNotIn,
	"$less_than": opLess, "$less_than_or_equal": opLessEq,
	"$more_than": opMore, "$more_than_or_equal": opMoreEq,
	"$greater_than": opMore, "$greater_than_or_equal": opMoreEq,
	"$starts_with": opStartsWith, "$ends_with": opEndsWith, "$contains": opContains,
	"$after": opAfter, "$before": opBefore,
	"$count": opCount, "$count_more": opCountMore, "$count_less": opCountLess,
}

type cond struct {
	op    opCode
	name  string // as written ($in, $more_than…), for explanations
	vals  []any  // as written, for explanations
	nums  []float64
	strs  []string // canonical values for equality; raw strings for string ops
	times []time.Time
}

// MaxRules bounds the rules of one set (and of one item rule's sub-rules).
const MaxRules = 100

// Compile checks a rule set and compiles it. message is the set's
// error.message. Every failure is a 400 invalid_validation_rules naming the
// rule and what is wrong.
func Compile(set RuleSet, message string) (*Program, error) {
	return compileSet(set, message, "", false)
}

func invalid(format string, args ...any) error {
	return promotype.BadRequest("invalid_validation_rules", "Invalid validation rules", format, args...)
}

func compileSet(set RuleSet, message, parent string, sub bool) (*Program, error) {
	if len(set.Rules) > MaxRules {
		return nil, invalid("Rules%s must not have more than %d entries", parent, MaxRules)
	}
	keys := set.Keys()
	p := &Program{message: message, rules: make([]compiled, 0, len(keys))}
	index := make(map[string]int, len(keys))
	for i, k := range keys {
		if n, err := strconv.Atoi(k); err != nil || n != i+1 {
			return nil, invalid("Rule keys%s must be consecutive integers from 1, got %q", parent, k)
		}
		c, err := compileRule(parent+k, set.Rules[k], sub)
		if err != nil {
			return nil, err
		}
		if c.spec.target == tOrderTotalAmount || (c.sub != nil && c.sub.NeedsTotal) {
			p.NeedsTotal = true
		}
		if c.spec.target == tCustomerSegment {
			p.Segments = true
		}
		index[k] = i
		p.rules = append(p.rules, c)
	}
	logic := set.Logic
	if strings.TrimSpace(logic) == "" && sub && len(keys) > 0 {
		logic = strings.Join(keys, " and ") // sub-rules without logic: all of them
	}
	root, err := parseLogic(logic, index)
	if err != nil {
		return nil, invalid("Rules%s: %v", parent, err)
	}
	if root == nil && len(keys) > 0 && !sub {
		return nil, invalid("Rules%s define rules but no logic to combine them", parent)
	}
	p.root = root
	if !sub {
		p.historyInfo()
	}
	return p, nil
}

func compileRule(key string, r Rule, sub bool) (compiled, error) {
	table := names
	if sub {
		table = subNames
	}
	spec, ok := table[r.Name]
	if !ok {
		if why, known := notYet[r.Name]; known {
			return compiled{}, invalid("Rule '%s' (rule %s) is not supported by this engine yet: it needs %s", r.Name, key, why)
		}
		if _, top := names[r.Name]; top && sub {
			return compiled{}, invalid("Rule '%s' (rule %s) cannot be a sub-rule", r.Name, key)
		}
		if _, inner := subNames[r.Name]; inner && !sub {
			return compiled{}, invalid("Rule '%s' (rule %s) must be a sub-rule of an order item rule", r.Name, key)
		}
		return compiled{}, invalid("Rule %s has an unknown name '%s'", key, r.Name)
	}
	c := compiled{key: key, name: r.Name, spec: spec}
	if r.Error != nil {
		c.message = r.Error.Message
	}
	if spec.property {
		if r.Property == nil || *r.Property == "" {
			return compiled{}, invalid("Rule '%s' must have a 'property'", r.Name)
		}
		c.prop = *r.Property
	}
	if len(r.Rules.Rules) > 0 {
		if !spec.isItems() {
			return compiled{}, invalid("Rule '%s' (rule %s) cannot have sub-rules", r.Name, key)
		}
		s, err := compileSet(r.Rules, "", key+".", true)
		if err != nil {
			return compiled{}, err
		}
		c.sub = s
	}
	if len(r.Conditions) == 0 {
		return compiled{}, invalid("Rule '%s' (rule %s) must have conditions", r.Name, key)
	}
	// Conditions in a fixed order, so evaluation and errors are deterministic.
	ops := make([]string, 0, len(r.Conditions))
	for op := range r.Conditions {
		ops = append(ops, op)
	}
	sortStrings(ops)
	for _, name := range ops {
		vals := r.Conditions[name]
		if spec.isItems() {
			refs, err := compileItems(key, r.Name, name, vals, spec.object)
			if err != nil {
				return compiled{}, err
			}
			c.items = append(c.items, refs...)
			continue
		}
		cd, err := compileCond(key, r.Name, name, vals, spec.kind)
		if err != nil {
			return compiled{}, err
		}
		c.conds = append(c.conds, cd)
	}
	return c, nil
}

func compileItems(key, name, op string, vals []any, object string) ([]ItemRef, error) {
	if op != "$is" && op != "$in" {
		return nil, invalid("Rule '%s' (rule %s) supports only $is and $in, not %s", name, key, op)
	}
	if len(vals) == 0 {
		return nil, invalid("Rule '%s' (rule %s) must list at least one item in %s", name, key, op)
	}
	refs := make([]ItemRef, 0, len(vals))
	for i, v := range vals {
		var ref ItemRef
		raw, _ := json.Marshal(v)
		if _, isObject := v.(map[string]any); !isObject || json.Unmarshal(raw, &ref) != nil {
			return nil, invalid("Rule '%s' (rule %s): %s[%d] must be an object with id, object and source_id", name, key, op, i)
		}
		if object != "" && ref.Object == "" {
			ref.Object = object
		}
		switch {
		case ref.Object == objectCollection && ref.ID == "":
			return nil, invalid("Rule '%s' (rule %s): %s[%d] must have the id of the product collection", name, key, op, i)
		case ref.Object != "product" && ref.Object != "sku" && ref.Object != objectCollection:
			return nil, invalid("Rule '%s' (rule %s): %s[%d].object must be product, sku or products_collection", name, key, op, i)
		case ref.ID == "" && ref.SourceID == "":
			return nil, invalid("Rule '%s' (rule %s): %s[%d] must have an id or a source_id", name, key, op, i)
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

func compileCond(key, name, opName string, vals []any, kind valueKind) (cond, error) {
	op, ok := condOps[opName]
	if !ok {
		return cond{}, invalid("Rule '%s' (rule %s) has an unsupported condition %s", name, key, opName)
	}
	if len(vals) == 0 {
		return cond{}, invalid("Rule '%s' (rule %s): condition %s needs at least one value", name, key, opName)
	}
	values := make([]Value, len(vals))
	for i, x := range vals {
		values[i] = ValueOf(x)
	}
	bad := func(want string) error {
		return invalid("Rule '%s' (rule %s): condition %s takes %s", name, key, opName, want)
	}
	c := cond{op: op, name: opName, vals: slices.Clone(vals)}
	if kind == kindSegment {
		if op != opIs && op != opIsNot && op != opNotIn {
			return cond{}, bad("segment ids: it supports only $is, $in, $is_not and $not_in")
		}
		for _, v := range values {
			if v.Kind != String || v.Str == "" {
				return cond{}, bad("segment ids (strings)")
			}
			c.strs = append(c.strs, v.Str)
		}
		return c, nil
	}
	switch op {
	case opIs, opIsNot, opNotIn:
		for _, v := range values {
			s, ok := v.canon()
			if !ok {
				return cond{}, bad("strings, numbers or booleans")
			}
			f, isNum := v.number()
			if kind == kindNumber && !isNum {
				return cond{}, bad("numbers")
			}
			c.strs = append(c.strs, s)
			if isNum {
				c.nums = append(c.nums, f)
			}
		}
	case opLess, opLessEq, opMore, opMoreEq, opCount, opCountMore, opCountLess:
		if kind == kindNumber && op >= opCount {
			return cond{}, bad("an array value: it applies to metadata only")
		}
		if len(values) != 1 {
			return cond{}, bad("exactly one number")
		}
		f, ok := values[0].number()
		if !ok {
			return cond{}, bad("a number")
		}
		c.nums = []float64{f}
	case opStartsWith, opEndsWith, opContains:
		if kind != kindMeta {
			return cond{}, bad("strings: it applies to metadata only")
		}
		for _, v := range values {
			if v.Kind != String {
				return cond{}, bad("strings")
			}
			c.strs = append(c.strs, v.Str)
		}
	case opAfter, opBefore:
		if kind != kindMeta || len(values) != 1 {
			return cond{}, bad("one ISO-8601 date on metadata")
		}
		t, ok := values[0].time()
		if !ok {
			return cond{}, bad("an ISO-8601 date")
		}
		c.times = []time.Time{t}
	}
	return c, nil
}

// sortStrings sorts a short slice in place (insertion sort: no allocation).
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// String describes the program for debugging.
func (p *Program) String() string {
	return fmt.Sprintf("rule.Program{%d rules}", len(p.rules))
}
