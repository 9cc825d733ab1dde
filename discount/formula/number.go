package formula

import (
	"encoding/json"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Number is a formula value: a decimal with six places, held as an int64
// count of millionths, so sums, products and comparisons of money are
// exact and nothing allocates.
type Number int64

// scale is one in millionths.
const scale = 1_000_000

// minNumber is the lowest Number, which has no opposite.
const minNumber = Number(math.MinInt64)

// Evaluation errors. An evaluation that fails returns one of these, and
// the discount falls back to its static value.
var (
	// ErrMissing is an operand without a value: a metadata key the
	// object lacks, an order item operand outside an order item.
	ErrMissing = errors.New("formula: operand has no value")
	// ErrType is a value of the wrong kind: text where a number is needed,
	// a number where a condition is.
	ErrType = errors.New("formula: value of the wrong type")
	// ErrDivision is a division or modulo by zero.
	ErrDivision = errors.New("formula: division by zero")
	// ErrOverflow is a number beyond ±9,223,372,036,854.775807.
	ErrOverflow = errors.New("formula: number out of range")
	// ErrNoCase is a SWITCH without a matching case or default.
	ErrNoCase = errors.New("formula: no SWITCH case matches")
)

// FromInt returns the Number n.
func FromInt(n int64) (Number, error) {
	if n > math.MaxInt64/scale || n < math.MinInt64/scale {
		return 0, ErrOverflow
	}
	return Number(n * scale), nil
}

// fromMinor returns minor currency units as currency units (n / 100).
func fromMinor(n int64) (Number, error) {
	if n > math.MaxInt64/(scale/100) || n < math.MinInt64/(scale/100) {
		return 0, ErrOverflow
	}
	return Number(n * (scale / 100)), nil
}

// Millionths returns n in millionths (n × 10⁶).
func (n Number) Millionths() int64 { return int64(n) }

// Integer returns n rounded half away from zero to an integer.
func (n Number) Integer() int64 { return roundDiv(int64(n), scale) }

// MinorUnits returns n, an amount in currency units, in minor units
// (× 100), rounded half away from zero.
func (n Number) MinorUnits() int64 { return roundDiv(int64(n), scale/100) }

// roundDiv is a / d rounded half away from zero (d > 0).
func roundDiv(a, d int64) int64 {
	q, r := a/d, a%d
	switch {
	case r >= 0 && 2*r >= d:
		q++
	case r < 0 && -2*r >= d:
		q--
	}
	return q
}

func abs(a int64) (uint64, bool) {
	if a < 0 {
		return uint64(-a), true
	}
	return uint64(a), false
}

func signed(u uint64, neg bool) (Number, error) {
	if u > math.MaxInt64 {
		return 0, ErrOverflow
	}
	if neg {
		return Number(-int64(u)), nil
	}
	return Number(int64(u)), nil
}

func add(a, b Number) (Number, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, ErrOverflow
	}
	return s, nil
}

func sub(a, b Number) (Number, error) {
	s := a - b
	if (s < a) != (b > 0) {
		return 0, ErrOverflow
	}
	return s, nil
}

// magnitudes returns |a|, |b| and whether a × b (or a / b) is negative.
func magnitudes(a, b Number) (ua, ub uint64, neg bool, err error) {
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, 0, false, ErrOverflow
	}
	ua, na := abs(int64(a))
	ub, nb := abs(int64(b))
	return ua, ub, na != nb, nil
}

// mul is a × b, rounded half away from zero to six places.
func mul(a, b Number) (Number, error) {
	ua, ub, neg, err := magnitudes(a, b)
	if err != nil {
		return 0, err
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi >= scale {
		return 0, ErrOverflow
	}
	q, r := bits.Div64(hi, lo, scale)
	if 2*r >= scale {
		q++
	}
	return signed(q, neg)
}

// div is a / b, rounded half away from zero to six places.
func div(a, b Number) (Number, error) {
	if b == 0 {
		return 0, ErrDivision
	}
	ua, ub, neg, err := magnitudes(a, b)
	if err != nil {
		return 0, err
	}
	hi, lo := bits.Mul64(ua, scale)
	if hi >= ub {
		return 0, ErrOverflow
	}
	q, r := bits.Div64(hi, lo, ub)
	if r >= ub-r { // 2r ≥ ub without overflow
		q++
	}
	return signed(q, neg)
}

// mod is the remainder of a / b truncated towards zero (the sign of a).
func mod(a, b Number) (Number, error) {
	if b == 0 {
		return 0, ErrDivision
	}
	if b == -1 {
		return 0, nil
	}
	return a % b, nil
}

// pow is a to the power b: exact for an integer b (repeated products),
// through float64 and rounded to six places otherwise.
func pow(a, b Number) (Number, error) {
	if b%scale == 0 {
		e := int64(b / scale)
		neg := e < 0
		if neg {
			e = -e
		}
		if e > 64 && a != scale && a != -scale && a != 0 {
			return 0, ErrOverflow
		}
		r, base := Number(scale), a
		var err error
		for ; e > 0; e >>= 1 {
			if e&1 == 1 {
				if r, err = mul(r, base); err != nil {
					return 0, err
				}
			}
			if e > 1 {
				if base, err = mul(base, base); err != nil {
					return 0, err
				}
			}
		}
		if neg {
			return div(scale, r)
		}
		return r, nil
	}
	f := math.Pow(float64(a)/scale, float64(b)/scale)
	return fromFloat(f)
}

func fromFloat(f float64) (Number, error) {
	m := math.Round(f * scale)
	if math.IsNaN(m) || m >= math.MaxInt64 || m <= math.MinInt64 {
		return 0, ErrOverflow
	}
	return Number(int64(m)), nil
}

// pow10 are the powers of ten a precision rounds to (index = 6 − places).
var pow10 = [...]int64{1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
	1_000_000_000, 10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
	100_000_000_000_000, 1_000_000_000_000_000, 1_000_000_000_000_000_000}

// rounding modes of ROUND, FLOOR and CEIL.
const (
	roundHalf = iota
	roundFloor
	roundCeil
)

// roundTo rounds a to places decimal places (negative: tens, hundreds...).
func roundTo(a Number, places Number, mode int) (Number, error) {
	if places%scale != 0 {
		return 0, ErrType
	}
	p := int64(places / scale)
	if p >= 6 {
		return a, nil
	}
	if p < 6-int64(len(pow10)-1) {
		return 0, ErrOverflow
	}
	unit := pow10[6-p]
	q, r := int64(a)/unit, int64(a)%unit
	switch mode {
	case roundHalf:
		q = roundDiv(int64(a), unit)
	case roundFloor:
		if r < 0 {
			q--
		}
	case roundCeil:
		if r > 0 {
			q++
		}
	}
	if q > math.MaxInt64/unit || q < math.MinInt64/unit {
		return 0, ErrOverflow
	}
	return Number(q * unit), nil
}

// parseNumber reads a decimal ("12", "-0.5", "3.14159"); digits beyond six
// places round half away from zero.
func parseNumber(s string) (Number, bool) {
	s = strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" && (!hasDot || frac == "") {
		return 0, false
	}
	var u uint64
	for i := 0; i < len(intPart); i++ {
		c := intPart[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > math.MaxInt64/scale {
			return 0, false
		}
	}
	u *= scale
	place := uint64(scale / 10)
	for i := 0; i < len(frac); i++ {
		c := frac[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		switch {
		case place > 0:
			u += uint64(c-'0') * place
			place /= 10
		case i == 6 && c >= '5':
			u++ // the seventh place rounds
		}
	}
	n, err := signed(u, neg)
	return n, err == nil
}

// String formats n without trailing zeros ("12", "0.5", "-3.25").
func (n Number) String() string {
	u, neg := abs(int64(n))
	if n == math.MinInt64 {
		u = uint64(math.MaxInt64) + 1
	}
	s := strconv.FormatUint(u/scale, 10)
	if f := u % scale; f != 0 {
		fs := strconv.FormatUint(f+scale, 10)[1:]
		s += "." + strings.TrimRight(fs, "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// fromAny converts a metadata value: numbers, numeric JSON, text,
// booleans and arrays; anything else (objects, null) has no value.
func fromAny(v any) (value, error) {
	switch x := v.(type) {
	case string:
		return value{k: kindText, s: x}, nil
	case json.Number:
		if n, ok := parseNumber(string(x)); ok {
			return value{k: kindNumber, n: n}, nil
		}
		f, err := x.Float64()
		if err != nil {
			return value{}, ErrType
		}
		n, err := fromFloat(f)
		return value{k: kindNumber, n: n}, err
	case float64:
		n, err := fromFloat(x)
		return value{k: kindNumber, n: n}, err
	case float32:
		n, err := fromFloat(float64(x))
		return value{k: kindNumber, n: n}, err
	case int:
		n, err := FromInt(int64(x))
		return value{k: kindNumber, n: n}, err
	case int64:
		n, err := FromInt(x)
		return value{k: kindNumber, n: n}, err
	case int32:
		n, err := FromInt(int64(x))
		return value{k: kindNumber, n: n}, err
	case bool:
		return boolValue(x), nil
	case []any:
		return value{k: kindList, l: x}, nil
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return value{k: kindList, l: l}, nil
	}
	return value{}, ErrMissing
}
