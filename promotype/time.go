package promotype

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// TimeLayout is the wire form of every timestamp: RFC 3339, UTC, milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Time is a UTC instant with millisecond precision, written on the wire in
// [TimeLayout]. Memory, Postgres and JSON round-trip it identically.
type Time struct{ time.Time }

// NewTime truncates t to milliseconds in UTC.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Millisecond)} }

// Equal reports whether t and u are the same instant.
func (t Time) Equal(u Time) bool { return t.Time.Equal(u.Time) }

// Ptr returns a pointer to a copy of t, for nullable fields.
func (t Time) Ptr() *Time { return &t }

// MarshalJSON writes the timestamp with millisecond precision.
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, TimeLayout)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts an RFC 3339 date-time or a plain date (2016-11-16).
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return &json.UnmarshalTypeError{Value: "non-string", Type: reflect.TypeFor[string]()}
	}
	p, err := ParseTime(string(b[1 : len(b)-1]))
	if err != nil {
		return &json.UnmarshalTypeError{Value: "string " + string(b), Type: reflect.TypeFor[Time]()}
	}
	*t = p
	return nil
}

// ParseTime parses an ISO 8601 date-time (RFC 3339) or date. A date alone
// is its midnight UTC, marked as a date (IsDateOnly) so that a validity
// window can read it as a whole day in the project's time zone (DayStart,
// DayEnd).
func ParseTime(s string) (Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05"} {
		if p, err := time.Parse(layout, s); err == nil {
			return NewTime(p), nil
		}
	}
	if p, err := time.Parse(time.DateOnly, s); err == nil {
		return Time{p.In(dateOnly)}, nil
	}
	return Time{}, fmt.Errorf("%q cannot be recognized as a ISO-8601 compliant date", s)
}

// Value implements driver.Valuer.
func (t Time) Value() (driver.Value, error) { return t.UTC(), nil }

// Scan implements sql.Scanner.
func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*t = NewTime(v)
		return nil
	case nil:
		*t = Time{}
		return nil
	default:
		return fmt.Errorf("promotype.Time: cannot scan %T", src)
	}
}

// dateOnly marks a Time parsed from a date alone: its location, zero
// offset from UTC, so the instant is the date's midnight UTC wherever the
// mark is not read.
var dateOnly = time.FixedZone("date", 0)

// IsDateOnly reports whether t was parsed from a date without a time.
func (t Time) IsDateOnly() bool { return t.Location() == dateOnly }

// DayStart is the first instant of t's date in loc when t is a date alone;
// t otherwise.
func DayStart(t Time, loc *time.Location) Time {
	if !t.IsDateOnly() {
		return t
	}
	y, m, d := t.Date()
	return NewTime(time.Date(y, m, d, 0, 0, 0, 0, loc))
}

// DayEnd is the last millisecond of t's date in loc when t is a date
// alone; t otherwise.
func DayEnd(t Time, loc *time.Location) Time {
	if !t.IsDateOnly() {
		return t
	}
	y, m, d := t.Date()
	return NewTime(time.Date(y, m, d+1, 0, 0, 0, 0, loc).Add(-time.Millisecond))
}
