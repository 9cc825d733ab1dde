package httpadapter

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// maxFilterIndex bounds the array index of a condition value
// (filters[f][conditions][$in][i]).
const maxFilterIndex = 999

// parseFilters reads the deepObject filter parameters of a list query:
//
//	filters[<field>][conditions][<$op>]=v          one value; repeating the key adds values
//	filters[<field>][conditions][<$op>][<i>]=v     array form, ordered by i
//	filters[junction]=and|or                       how conditions combine (default and)
//
// A leading "[filters]" is accepted for "filters" (the form some reference
// examples use). <field> may be a dotted path (metadata.key). Other query
// parameters are ignored; a malformed filters key is a 400
// invalid_query_params. Conditions come out ordered by field, then operator;
// which fields and operators a list accepts is the engine's check.
func parseFilters(q url.Values) (promotype.Filter, error) {
	var f promotype.Filter
	type part struct {
		field, op, key string
		index          int // -1 for the plain form
		values         []string
	}
	var parts []part
	for key, values := range q {
		rest, ok := strings.CutPrefix(key, "[filters]")
		if !ok {
			if key != "filters" && !strings.HasPrefix(key, "filters[") {
				continue
			}
			rest = key[len("filters"):]
		}
		segs, ok := brackets(rest)
		if !ok {
			return f, errBadFilter(key)
		}
		switch {
		case len(segs) == 1 && segs[0] == "junction":
			j, err := junction(values)
			if err != nil {
				return f, err
			}
			f.Junction = j
		case (len(segs) == 3 || len(segs) == 4) && validField(segs[0]) && segs[1] == "conditions" && validOp(segs[2]):
			p := part{field: segs[0], op: segs[2], key: key, index: -1, values: values}
			if len(segs) == 4 {
				i, ok := filterIndex(segs[3])
				if !ok {
					return f, errBadFilter(key)
				}
				p.index = i
			}
			parts = append(parts, p)
		default:
			return f, errBadFilter(key)
		}
	}
	slices.SortFunc(parts, func(a, b part) int {
		return cmp.Or(cmp.Compare(a.field, b.field), cmp.Compare(a.op, b.op), cmp.Compare(a.index, b.index), cmp.Compare(a.key, b.key))
	})
	for _, p := range parts {
		n := len(f.Conditions)
		if n == 0 || f.Conditions[n-1].Field != p.field || string(f.Conditions[n-1].Op) != p.op {
			f.Conditions = append(f.Conditions, promotype.Condition{Field: p.field, Op: promotype.Op(p.op)})
			n++
		}
		f.Conditions[n-1].Values = append(f.Conditions[n-1].Values, p.values...)
	}
	return f, nil
}

// brackets splits "[a][b][c]" into a, b, c. Every segment must be closed,
// non-empty and free of brackets, with nothing between segments.
func brackets(s string) ([]string, bool) {
	if s == "" {
		return nil, false
	}
	var segs []string
	for s != "" {
		if s[0] != '[' {
			return nil, false
		}
		end := strings.IndexByte(s, ']')
		if end < 2 || strings.IndexByte(s[1:end], '[') >= 0 {
			return nil, false
		}
		segs = append(segs, s[1:end])
		s = s[end+1:]
	}
	return segs, true
}

// validField accepts a field name or dotted path: no empty part, no spaces.
func validField(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || strings.ContainsAny(part, " \t\r\n") {
			return false
		}
	}
	return true
}

// validOp accepts "$" followed by lowercase letters, digits and underscores.
func validOp(s string) bool {
	if len(s) < 2 || s[0] != '$' {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// filterIndex parses the array index of the array form.
func filterIndex(s string) (int, bool) {
	if s == "" || len(s) > 3 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil && i <= maxFilterIndex
}

// junction reads filters[junction]: and or or, in any case; repeated, the
// values must agree.
func junction(values []string) (promotype.Junction, error) {
	var j promotype.Junction
	for _, v := range values {
		switch cur := promotype.Junction(strings.ToLower(v)); {
		case cur != promotype.JunctionAnd && cur != promotype.JunctionOr:
			return "", promotype.InvalidQueryParams("Property .filters.junction must be one of and, or")
		case j != "" && cur != j:
			return "", promotype.InvalidQueryParams("Property .filters.junction is given twice with different values")
		default:
			j = cur
		}
	}
	return j, nil
}

// errBadFilter is the 400 of a filters key that does not follow the grammar.
func errBadFilter(key string) error {
	return promotype.InvalidQueryParams("Query parameter %s is not a valid filter: use filters[<field>][conditions][<$condition>] (optionally followed by [<index>]) or filters[junction]", key)
}
