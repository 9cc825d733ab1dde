package promotype_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
)

// A date alone is its midnight UTC wherever it is not read as a day, and
// the first or last millisecond of that day in a zone where it is;
// a date with a time is never moved.
func TestDateOnly(t *testing.T) {
	t.Parallel()
	warsaw, err := time.LoadLocation("Europe/Warsaw")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	tests := []struct {
		in         string
		loc        *time.Location
		dateOnly   bool
		start, end string
		marshalled string
	}{
		{"2026-01-02", time.UTC, true, "2026-01-02T00:00:00.000Z", "2026-01-02T23:59:59.999Z", `"2026-01-02T00:00:00.000Z"`},
		{"2026-01-02", warsaw, true, "2026-01-01T23:00:00.000Z", "2026-01-02T22:59:59.999Z", `"2026-01-02T00:00:00.000Z"`},
		{"2026-07-01", warsaw, true, "2026-06-30T22:00:00.000Z", "2026-07-01T21:59:59.999Z", `"2026-07-01T00:00:00.000Z"`},
		{"2026-03-29", warsaw, true, "2026-03-28T23:00:00.000Z", "2026-03-29T21:59:59.999Z", `"2026-03-29T00:00:00.000Z"`}, // a 23-hour day
		{"2026-01-02T10:00:00Z", warsaw, false, "2026-01-02T10:00:00.000Z", "2026-01-02T10:00:00.000Z", `"2026-01-02T10:00:00.000Z"`},
		{"2026-01-02T00:00:00+01:00", warsaw, false, "2026-01-01T23:00:00.000Z", "2026-01-01T23:00:00.000Z", `"2026-01-01T23:00:00.000Z"`},
	}
	for _, tc := range tests {
		p, err := promotype.ParseTime(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if p.IsDateOnly() != tc.dateOnly {
			t.Errorf("%s: IsDateOnly %v, want %v", tc.in, p.IsDateOnly(), tc.dateOnly)
		}
		if b, _ := p.MarshalJSON(); string(b) != tc.marshalled {
			t.Errorf("%s: marshals %s, want %s", tc.in, b, tc.marshalled)
		}
		if got := promotype.DayStart(p, tc.loc).UTC().Format(promotype.TimeLayout); got != tc.start {
			t.Errorf("%s in %s: DayStart %s, want %s", tc.in, tc.loc, got, tc.start)
		}
		end := promotype.DayEnd(p, tc.loc)
		if got := end.UTC().Format(promotype.TimeLayout); got != tc.end {
			t.Errorf("%s in %s: DayEnd %s, want %s", tc.in, tc.loc, got, tc.end)
		}
		if end.IsDateOnly() && tc.dateOnly {
			t.Errorf("%s: DayEnd is still marked as a date alone", tc.in)
		}
	}
}
