package promotype

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/shopspring/decimal"
)

// Decimal is an exact decimal number written on the wire as a JSON number.
// It also accepts a numeric string on input, as some official request
// schemas type ratios as strings.
type Decimal struct{ decimal.Decimal }

// NewDecimal parses s; it panics on a malformed constant (use in tests and literals).
func NewDecimal(s string) Decimal { return Decimal{decimal.RequireFromString(s)} }

// Equal reports whether d and o are the same number.
func (d Decimal) Equal(o Decimal) bool { return d.Decimal.Equal(o.Decimal) }

// MarshalJSON writes the number without quotes.
func (d Decimal) MarshalJSON() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalJSON reads a JSON number or a numeric string.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	b = bytes.Trim(b, `"`)
	v, err := decimal.NewFromString(string(b))
	if err != nil {
		// A type error lets encoding/json name the property that failed.
		return &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeFor[float64]()}
	}
	d.Decimal = v
	return nil
}
