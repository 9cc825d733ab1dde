package export

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/promotype"
)

// Cells are written as the hosted files write them [I]: an absent value is
// an empty cell, a time is RFC 3339 in UTC with milliseconds, a boolean is
// true or false, money is in the currency's main unit with two decimals
// (2000.00 for 200000), metadata is its JSON object, and metadata.<key>
// the key's value (a string as it is, anything else as JSON).

func strCell(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func timeCell(t *promotype.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(promotype.TimeLayout)
}

func boolCell(b bool) string { return strconv.FormatBool(b) }

func intCell(n int64) string { return strconv.FormatInt(n, 10) }

func intPtrCell(n *int64) string {
	if n == nil {
		return ""
	}
	return intCell(*n)
}

var hundred = decimal.NewFromInt(100)

func decimalMoneyCell(d *promotype.Decimal) string {
	if d == nil {
		return ""
	}
	if d.IsInteger() && d.Abs().LessThan(maxCents) {
		return moneyCell(d.IntPart()) // most amounts: no big.Int division
	}
	return d.Div(hundred).StringFixed(2)
}

// maxCents bounds the amounts moneyCell writes exactly.
var maxCents = decimal.New(1, 15)

// moneyCell writes an amount in the smallest unit in the main unit.
func moneyCell(n int64) string {
	u := uint64(n)
	b := make([]byte, 0, 24)
	if n < 0 {
		u = uint64(-(n + 1)) + 1 // math.MinInt64 too
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, u/100, 10)
	c := u % 100
	return string(append(b, '.', byte('0'+c/10), byte('0'+c%10)))
}

func decimalCell(d *promotype.Decimal) string {
	if d == nil {
		return ""
	}
	return d.String()
}

func jsonCell(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return ""
	}
	return string(b)
}

// metadataCell writes field "metadata" or "metadata.<key>" of m.
func metadataCell(m promotype.Metadata, field string) string {
	if field == "metadata" {
		if len(m) == 0 {
			return "{}"
		}
		return jsonCell(m)
	}
	v, ok := m[strings.TrimPrefix(field, "metadata.")]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return jsonCell(v)
}

// Header returns the CSV header of a field: its words capitalized, "id"
// written ID ("voucher_type" is "Voucher Type", "id" "ID", as the hosted
// file shows [E]); a metadata field (metadata.<key>) stays as given, so
// that the key's spelling is kept [I].
func Header(field string) string {
	if strings.HasPrefix(field, "metadata.") {
		return field
	}
	words := strings.Split(field, "_")
	for i, w := range words {
		switch w {
		case "id", "qr":
			words[i] = strings.ToUpper(w)
		case "":
		default:
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}
