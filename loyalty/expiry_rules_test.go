package loyalty

import (
	"testing"
	"time"

	"github.com/promoengine/promo/campaign"
)

func TestExpiresOn(t *testing.T) {
	t.Parallel()
	n := func(v int) *int { return &v }
	s := func(v string) *string { return &v }
	month := func(v int, rounding *string, value *int) *campaign.ExpirationRules {
		return &campaign.ExpirationRules{PeriodType: "MONTH", PeriodValue: n(v), RoundingType: rounding, RoundingValue: value}
	}
	fixed := func(m, d int) *campaign.ExpirationRules {
		return &campaign.ExpirationRules{PeriodType: "FIXED_DAY_OF_YEAR", FixedMonth: n(m), FixedDay: n(d)}
	}
	for _, tc := range []struct {
		name     string
		rules    *campaign.ExpirationRules
		activity string
		want     string
	}{
		{"no rules: never", nil, "2024-01-25", ""},
		{"1 month", month(1, nil, nil), "2024-01-25", "2024-02-25"},
		{"clamped to a shorter month", month(1, nil, nil), "2023-01-31", "2023-02-28"},
		{"clamped in a leap year", month(1, nil, nil), "2024-01-31", "2024-02-29"},
		{"E1 February", month(3, s("END_OF_QUARTER"), nil), "2024-02-10", "2024-06-30"},
		{"E1 April", month(3, s("END_OF_QUARTER"), nil), "2024-04-20", "2024-09-30"},
		{"end of month", month(2, s("END_OF_MONTH"), nil), "2024-11-03", "2025-01-31"},
		{"end of half year", month(1, s("END_OF_HALF_YEAR"), nil), "2024-06-15", "2024-12-31"},
		{"end of year", month(1, s("END_OF_YEAR"), nil), "2024-03-01", "2024-12-31"},
		{"particular month ahead", month(1, s("PARTICULAR_MONTH"), n(9)), "2024-03-01", "2024-09-30"},
		{"particular month next year", month(1, s("PARTICULAR_MONTH"), n(2)), "2024-03-01", "2025-02-28"},
		{"fixed day ahead", fixed(12, 31), "2024-03-01", "2024-12-31"},
		{"fixed day passed: next year", fixed(3, 1), "2024-03-02", "2025-03-01"},
		{"fixed day is today", fixed(3, 2), "2024-03-02", "2024-03-02"},
		{"fixed 31 April clamps", fixed(4, 31), "2024-01-01", "2024-04-30"},
		{"fixed 29 February in a common year", fixed(2, 29), "2025-01-01", "2025-02-28"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			at, err := time.Parse(time.DateOnly, tc.activity)
			if err != nil {
				t.Fatal(err)
			}
			if got := ExpiresOn(tc.rules, at.Add(15*time.Hour)); got != tc.want {
				t.Errorf("ExpiresOn(%s) = %q, want %q", tc.activity, got, tc.want)
			}
		})
	}
}
