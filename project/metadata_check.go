package project

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// Check validates metadata against the schema: every defined key (not
// deleted) that is present must match its definition, a required key must
// be present, and with allow_defined_only no other key may appear. The
// first failure (keys in order) is a 400 metadata_validation_failed whose
// details name the key: `<key>: <reason> (actual value is '<v>')`.
func (s *MetadataSchema) Check(m promotype.Metadata) error {
	keys := make([]string, 0, len(s.Properties)+len(m))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	for k := range m {
		if _, defined := s.Properties[k]; !defined {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		def, defined := s.Properties[k]
		v, present := m[k]
		switch {
		case !defined || def.Deleted:
			if present && s.AllowDefinedOnly {
				return failed("%s: is not defined in the %s metadata schema", k, s.RelatedObject)
			}
		case !present || v == nil:
			if !def.Optional {
				return failed("%s: is required", k)
			}
		default:
			if reason := def.check(v); reason != "" {
				return failed("%s: %s (actual value is '%s')", k, reason, show(v))
			}
		}
	}
	return nil
}

func failed(format string, args ...any) error {
	return promotype.BadRequest("metadata_validation_failed", "Metadata validation failed", format, args...)
}

// check returns why v breaks the definition, or "".
func (d Definition) check(v any) string {
	if !d.Array {
		return d.checkOne(v)
	}
	arr, ok := v.([]any)
	if !ok {
		return "must be an array, and every element: " + d.describe()
	}
	for _, e := range arr {
		if reason := d.checkOne(e); reason != "" {
			return "must be an array, and every element: " + reason
		}
	}
	return ""
}

// describe is what every element must be, for the array message.
func (d Definition) describe() string {
	out := "must be a " + d.Type
	if d.Type == TypeImageURL {
		out = "must be a string"
	}
	if len(d.Eq) > 0 {
		out += ", must be equal to one of " + joinValues(d.Eq)
	}
	return out
}

func (d Definition) checkOne(v any) string {
	switch d.Type {
	case TypeString, TypeImageURL:
		s, ok := v.(string)
		if !ok {
			return "must be a string"
		}
		if d.Type == TypeImageURL && validate.ImageURL(s) != nil {
			return "must be an HTTPS URL of a .png or .jpg file"
		}
		n := utf8.RuneCountInString(s)
		switch {
		case d.MinLength != nil && n < *d.MinLength:
			return fmt.Sprintf("must be a string, must be at least %d characters long", *d.MinLength)
		case d.MaxLength != nil && n > *d.MaxLength:
			return fmt.Sprintf("must be a string, must be at most %d characters long", *d.MaxLength)
		case d.ExactLength != nil && n != *d.ExactLength:
			return fmt.Sprintf("must be a string, must be exactly %d characters long", *d.ExactLength)
		}
		if len(d.Eq) > 0 && !slices.ContainsFunc(d.Eq, func(e any) bool { return e == s }) {
			return "must be a string, must be equal to one of " + joinValues(d.Eq)
		}
	case TypeNumber:
		f, ok := v.(float64)
		if !ok {
			return "must be a number"
		}
		n := decimal.NewFromFloat(f)
		if len(d.Eq) > 0 && !slices.ContainsFunc(d.Eq, func(e any) bool { x, ok := e.(float64); return ok && x == f }) {
			return "must be a number, must be equal to one of " + joinValues(d.Eq)
		}
		for _, x := range d.Ne {
			if n.Equal(x.Decimal) {
				return "must be a number, must not be equal to " + x.String()
			}
		}
		switch {
		case d.Lt != nil && !n.LessThan(d.Lt.Decimal):
			return "must be a number, must be less than " + d.Lt.String()
		case d.Lte != nil && n.GreaterThan(d.Lte.Decimal):
			return "must be a number, must be less than or equal to " + d.Lte.String()
		case d.Gt != nil && !n.GreaterThan(d.Gt.Decimal):
			return "must be a number, must be greater than " + d.Gt.String()
		case d.Gte != nil && n.LessThan(d.Gte.Decimal):
			return "must be a number, must be greater than or equal to " + d.Gte.String()
		}
	case TypeBoolean:
		if _, ok := v.(bool); !ok {
			return "must be a boolean"
		}
	case TypeDate:
		s, ok := v.(string)
		if _, err := time.Parse("2006-01-02", s); !ok || err != nil {
			return "must be a date (YYYY-MM-DD)"
		}
	case TypeDatetime:
		s, ok := v.(string)
		if _, err := time.Parse(time.RFC3339Nano, s); !ok || err != nil {
			return "must be an ISO-8601 date-time"
		}
	case TypeGeopoint:
		s, ok := v.(string)
		if !ok || !geopoint(s) {
			return "must be a geopoint (\"geo:<lat>,<lon>\" or \"<lat>, <lon>\")"
		}
	case TypeObject:
		if _, ok := v.(map[string]any); !ok {
			return "must be an object"
		}
	}
	return ""
}

// geopoint accepts both documented forms: "geo:40.7128,-74.0060" and
// "37.786971, -122.399677".
func geopoint(s string) bool {
	a, b, ok := strings.Cut(strings.TrimPrefix(s, "geo:"), ",")
	if !ok {
		return false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lon, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return err1 == nil && err2 == nil && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}

func joinValues(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = show(v)
	}
	return strings.Join(parts, ",")
}

func show(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case []any:
		return joinValues(t)
	case nil:
		return "null"
	default:
		return fmt.Sprint(t)
	}
}
