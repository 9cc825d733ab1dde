package campaign

import "testing"

func TestParseDuration(t *testing.T) {
	t.Parallel()
	good := map[string]Duration{
		"P2D": {Days: 2}, "PT1H": {Hours: 1}, "P1Y2M3DT4H5M6S": {Years: 1, Months: 2, Days: 3, Hours: 4, Minutes: 5, Seconds: 6},
		"P3W": {Weeks: 3}, "P24D": {Days: 24}, "PT90M": {Minutes: 90},
	}
	for s, want := range good {
		if got, err := ParseDuration(s); err != nil || got != want {
			t.Errorf("%s: %+v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "P", "PT", "P0D", "2D", "P2", "PD", "P1H", "PT1D", "P1DT", "P-1D", "P1.5D", "P1D1D", "p2d", "P1234567890D"} {
		if _, err := ParseDuration(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"P2D", "PT1H", "P1Y2M3DT4H5M6S", "P", "PT", "P1DT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err == nil && d == (Duration{}) {
			t.Fatalf("%q parsed to a zero duration", s)
		}
	})
}
