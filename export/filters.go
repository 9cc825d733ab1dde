package export

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// maxConditions bounds the conditions of one export's filters.
const maxConditions = 100

// parseFilters reads the filters object of an export request:
//
//	{"junction": "and"|"or", "<field>": {"conditions": {"<$op>": value or [values]}}}
//
// Values may be strings, numbers or booleans; they are compared as the
// lists compare them (booleans as "true" and "false"). Conditions come out
// ordered by field, then operator; which fields and operators an object
// accepts is checked with its spec.
func parseFilters(m map[string]any) (promotype.Filter, error) {
	var f promotype.Filter
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, field := range keys {
		v := m[field]
		if field == "junction" {
			s, ok := v.(string)
			if !ok {
				return f, invalid("Property .filters.junction must be one of and, or")
			}
			f.Junction = promotype.Junction(strings.ToLower(s))
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok || len(obj) != 1 {
			return f, invalid("Property .filters.%s must be an object with conditions", field)
		}
		conds, ok := obj["conditions"].(map[string]any)
		if !ok {
			return f, invalid("Property .filters.%s must be an object with conditions", field)
		}
		ops := make([]string, 0, len(conds))
		for op := range conds {
			ops = append(ops, op)
		}
		slices.Sort(ops)
		for _, op := range ops {
			values, err := conditionValues(conds[op])
			if err != nil {
				return f, invalid("Property .filters.%s.conditions.%s %s", field, op, err.Error())
			}
			f.Conditions = append(f.Conditions, promotype.Condition{Field: field, Op: promotype.Op(op), Values: values})
			if len(f.Conditions) > maxConditions {
				return f, invalid("Property .filters has more than %d conditions", maxConditions)
			}
		}
	}
	return f, nil
}

type valueError string

func (e valueError) Error() string { return string(e) }

// conditionValues reads a condition's value: one scalar, an array of them,
// or null / an empty object for the operators that take none.
func conditionValues(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		if len(x) == 0 {
			return nil, nil
		}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := scalar(e)
			if !ok {
				return nil, valueError("must hold strings, numbers or booleans")
			}
			out = append(out, s)
		}
		return out, nil
	default:
		if s, ok := scalar(x); ok {
			return []string{s}, nil
		}
	}
	return nil, valueError("must be a string, a number, a boolean or an array of them")
}

func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return x.String(), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	return "", false
}

// invalid is the 400 invalid_export_params of a request the engine cannot
// export.
func invalid(format string, args ...any) error {
	return promotype.BadRequest("invalid_export_params", "Invalid export params", format, args...)
}
