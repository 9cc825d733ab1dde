package loyalty

import (
	"encoding/json"
	"testing"
	"time"
)

// tiersT1 are the tiers of worked example T1: Bottom 1–249, Middle
// 250–499, Top from 500.
func tiersT1() []*Tier {
	p := func(v int64) *int64 { return &v }
	return []*Tier{{ID: "bottom", Points: TierPoints{From: p(1), To: p(249)}}, {ID: "middle", Points: TierPoints{From: p(250), To: p(499)}},
		{ID: "top", Points: TierPoints{From: p(500)}}}
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func mustTiersExpiration(t *testing.T, raw string) *TiersExpiration {
	t.Helper()
	x, err := ParseTiersExpiration(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("ParseTiersExpiration(%s): %v", raw, err)
	}
	return x
}

// TestTierHolds walks tier membership through each expiration type: who
// holds what after a value (balance or points in the period) on a day.
func TestTierHolds(t *testing.T) {
	t.Parallel()
	tiers := tiersT1()
	byID := map[string]*Tier{}
	for _, tr := range tiers {
		byID[tr.ID] = tr
	}
	type held struct{ tier, start, end string }
	type step struct {
		day    string
		value  int64
		want   held // tier "": none
		change string
	}
	for _, tc := range []struct {
		name  string
		rules string
		steps []step
	}{{
		name:  "balance, dropped with the balance (the default)",
		rules: `null`,
		steps: []step{
			{"2024-01-10", 0, held{}, ""},
			{"2024-01-10", 100, held{"bottom", "2024-01-10", ""}, TierJoined},
			{"2024-01-11", 300, held{"middle", "2024-01-11", ""}, TierUpgraded},
			{"2024-01-12", 200, held{"bottom", "2024-01-12", ""}, TierDowngraded},
			{"2024-01-13", 0, held{}, TierLeft},
		},
	}, {
		// Worked example T1: reached 2022-11-10, kept P3M rounded to the
		// month's end → 2023-02-28, whatever the balance does meanwhile.
		name:  "T1: balance, custom P3M rounded to the end of the month",
		rules: `{"qualification_type":"BALANCE","start_date":{"type":"IMMEDIATE"},"expiration_date":{"type":"CUSTOM","extend":"P3M","rounding":{"type":"MONTH","strategy":"END"}}}`,
		steps: []step{
			{"2022-11-10", 240, held{"bottom", "2022-11-10", "2023-02-28"}, TierJoined},
			{"2022-11-10", 245, held{"bottom", "2022-11-10", "2023-02-28"}, ""},
			{"2022-11-10", 265, held{"middle", "2022-11-10", "2023-02-28"}, TierUpgraded},
			{"2022-12-01", 10, held{"middle", "2022-11-10", "2023-02-28"}, ""},
			{"2023-03-01", 10, held{"bottom", "2023-03-01", "2023-06-30"}, TierDowngraded},
			{"2023-07-01", 10, held{"bottom", "2023-07-01", "2023-10-31"}, TierProlonged},
			{"2023-11-01", 0, held{}, TierLeft},
		},
	}, {
		// Reached on 10 March, monthly, END_OF_PERIOD: 10–31 March.
		name:  "points in period, end of period",
		rules: `{"qualification_type":"POINTS_IN_PERIOD","qualification_period":"MONTH","start_date":{"type":"IMMEDIATE"},"expiration_date":{"type":"END_OF_PERIOD"}}`,
		steps: []step{
			{"2024-03-10", 300, held{"middle", "2024-03-10", "2024-03-31"}, TierJoined},
			{"2024-03-20", 600, held{"top", "2024-03-20", "2024-03-31"}, TierUpgraded},
			{"2024-04-01", 0, held{}, TierLeft},
		},
	}, {
		// END_OF_NEXT_PERIOD → until 30 April; a 7-day grace → 7 May.
		name:  "points in period, end of next period plus seven days",
		rules: `{"qualification_type":"POINTS_IN_PERIOD","qualification_period":"MONTH","expiration_date":{"type":"END_OF_NEXT_PERIOD","extend":"P7D"}}`,
		steps: []step{
			{"2024-03-10", 300, held{"middle", "2024-03-10", "2024-05-07"}, TierJoined},
			{"2024-05-08", 260, held{"middle", "2024-05-08", "2024-07-07"}, TierProlonged},
		},
	}, {
		name:  "points in a quarter, counted from the next quarter",
		rules: `{"qualification_type":"POINTS_IN_PERIOD","qualification_period":"QUARTER","start_date":{"type":"NEXT_PERIOD"},"expiration_date":{"type":"END_OF_PERIOD"}}`,
		steps: []step{
			{"2024-02-10", 500, held{"top", "2024-04-01", "2024-06-30"}, TierJoined},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			x := mustTiersExpiration(t, tc.rules)
			var cur *hold
			for i, s := range tc.steps {
				next, change := x.nextHold(tiers, cur, s.value, day(s.day))
				got := held{}
				if next != nil {
					got = held{next.tier.ID, next.start.Format(time.DateOnly), ""}
					if next.end != nil {
						got.end = next.end.Format(time.DateOnly)
					}
				}
				if got != s.want || change != s.change {
					t.Fatalf("step %d (%s, value %d): holds %+v after %q, want %+v after %q", i, s.day, s.value, got, change, s.want, s.change)
				}
				cur = next
			}
		})
	}
}

func TestParseTiersExpirationRefuses(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"qualification_type":"SOMETIMES"}`,
		`{"qualification_type":"POINTS_IN_PERIOD"}`,
		`{"qualification_type":"POINTS_IN_PERIOD","qualification_period":"WEEK"}`,
		`{"start_date":{"type":"LATER"}}`,
		`{"expiration_date":{"type":"END_OF_PERIOD"}}`,
		`{"expiration_date":{"type":"CUSTOM","extend":"3 months"}}`,
		`{"expiration_date":{"type":"CUSTOM","extend":"P"}}`,
		`{"expiration_date":{"type":"CUSTOM","rounding":{"type":"CUSTOM","strategy":"END","value":12}}}`,
		`{"expiration_date":{"type":"CUSTOM","rounding":{"type":"MONTH","strategy":"MIDDLE"}}}`,
		`[]`,
	} {
		if _, err := ParseTiersExpiration(json.RawMessage(raw)); err == nil {
			t.Errorf("ParseTiersExpiration(%s) accepted it", raw)
		}
	}
}
