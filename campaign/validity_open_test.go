package campaign

import (
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
)

func TestValidityOpenAt(t *testing.T) {
	t.Parallel()
	waw, _ := time.LoadLocation("Europe/Warsaw")
	tp := func(s string) *promotype.Time { p, _ := promotype.ParseTime(s); return &p }
	at := func(s string) time.Time { p, _ := time.Parse(time.RFC3339, s); return p }
	tests := []struct {
		name string
		v    Validity
		t    string
		want bool
	}{
		{"no limits", Validity{}, "2026-03-01T10:00:00Z", true},
		{"before start", Validity{StartDate: tp("2026-03-02T00:00:00Z")}, "2026-03-01T10:00:00Z", false},
		{"after expiration", Validity{ExpirationDate: tp("2026-03-01T09:00:00Z")}, "2026-03-01T10:00:00Z", false},
		// 2026-03-01 is a Sunday; 23:30 UTC is already Monday 00:30 in Warsaw.
		{"day of week in the project zone", Validity{ValidityDayOfWeek: []int{1}}, "2026-03-01T23:30:00Z", true},
		{"day of week refused", Validity{ValidityDayOfWeek: []int{0}}, "2026-03-01T23:30:00Z", false},
		{"happy hours", Validity{ValidityHours: &ValidityHours{Daily: []DailyHours{{StartTime: "18:00", ExpirationTime: "20:00", DaysOfWeek: []int{0}}}}}, "2026-03-01T17:30:00Z", true},
		{"happy hours end is exclusive", Validity{ValidityHours: &ValidityHours{Daily: []DailyHours{{StartTime: "18:00", ExpirationTime: "20:00", DaysOfWeek: []int{0}}}}}, "2026-03-01T19:00:00Z", false},
		{"overnight period", Validity{ValidityHours: &ValidityHours{Daily: []DailyHours{{StartTime: "22:00", ExpirationTime: "02:00", DaysOfWeek: []int{0}}}}}, "2026-03-01T23:30:00Z", true},
		// P2D / PT1H from 2026-03-01 00:00 Warsaw: the first hour of every other day.
		{"timeframe open", Validity{StartDate: tp("2026-02-28T23:00:00Z"), ValidityTimeframe: &ValidityTimeframe{Interval: "P2D", Duration: "PT1H"}}, "2026-03-02T23:30:00Z", true},
		{"timeframe off day", Validity{StartDate: tp("2026-02-28T23:00:00Z"), ValidityTimeframe: &ValidityTimeframe{Interval: "P2D", Duration: "PT1H"}}, "2026-03-01T23:30:00Z", false},
		{"timeframe after the hour", Validity{StartDate: tp("2026-02-28T23:00:00Z"), ValidityTimeframe: &ValidityTimeframe{Interval: "P2D", Duration: "PT1H"}}, "2026-03-03T00:30:00Z", false},
		// Across the spring DST change (2026-03-29 in Warsaw): the window still
		// opens at local midnight, once.
		{"timeframe after DST", Validity{StartDate: tp("2026-02-28T23:00:00Z"), ValidityTimeframe: &ValidityTimeframe{Interval: "P1D", Duration: "PT1H"}}, "2026-03-29T22:30:00Z", true},
		{"timeframe after DST, old offset", Validity{StartDate: tp("2026-02-28T23:00:00Z"), ValidityTimeframe: &ValidityTimeframe{Interval: "P1D", Duration: "PT1H"}}, "2026-03-29T23:30:00Z", false},
	}
	for _, tc := range tests {
		if got := tc.v.OpenAt(at(tc.t), waw); got != tc.want {
			t.Errorf("%s: OpenAt(%s) = %v, want %v", tc.name, tc.t, got, tc.want)
		}
	}
}
