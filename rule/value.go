package rule

import (
	"strconv"
	"time"

	"github.com/promoengine/promo/promotype"
)

// Kind is the JSON type of a metadata value.
type Kind uint8

// Kinds of values.
const (
	Null Kind = iota
	String
	Number
	Bool
	Array
	Object
)

// Value is a typed metadata value: the evaluator reads these, never `any`.
type Value struct {
	Kind Kind
	Str  string  // String
	Num  float64 // Number
	Bool bool    // Bool
	Arr  []Value // Array
}

// Attrs is a typed view of one metadata object.
type Attrs map[string]Value

// AttrsOf converts metadata once per request into its typed view.
func AttrsOf(m promotype.Metadata) Attrs {
	if len(m) == 0 {
		return nil
	}
	out := make(Attrs, len(m))
	for k, v := range m {
		out[k] = ValueOf(v)
	}
	return out
}

// ValueOf types one JSON value (as encoding/json decodes it into any).
func ValueOf(v any) Value {
	switch t := v.(type) {
	case string:
		return Value{Kind: String, Str: t}
	case float64:
		return Value{Kind: Number, Num: t}
	case int:
		return Value{Kind: Number, Num: float64(t)}
	case int64:
		return Value{Kind: Number, Num: float64(t)}
	case bool:
		return Value{Kind: Bool, Bool: t}
	case []any:
		arr := make([]Value, len(t))
		for i, x := range t {
			arr[i] = ValueOf(x)
		}
		return Value{Kind: Array, Arr: arr}
	case map[string]any, promotype.Metadata:
		return Value{Kind: Object}
	default:
		return Value{Kind: Null}
	}
}

// canon is the form two values are compared in for equality: a string as
// it is, a number in its shortest decimal form, a boolean as true/false. So
// the string "5" equals the number 5.
func (v Value) canon() (string, bool) {
	switch v.Kind {
	case String:
		return v.Str, true
	case Number:
		return formatNum(v.Num), true
	case Bool:
		return strconv.FormatBool(v.Bool), true
	}
	return "", false
}

func formatNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// number reads v as a number: a JSON number, or a string holding one.
func (v Value) number() (float64, bool) {
	switch v.Kind {
	case Number:
		return v.Num, true
	case String:
		f, err := strconv.ParseFloat(v.Str, 64)
		return f, err == nil
	}
	return 0, false
}

// time reads v as an ISO 8601 date or date-time string.
func (v Value) time() (time.Time, bool) {
	if v.Kind != String {
		return time.Time{}, false
	}
	t, err := promotype.ParseTime(v.Str)
	return t.Time, err == nil
}
