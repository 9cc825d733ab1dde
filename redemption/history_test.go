package redemption

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPeriodsAt: days, weeks (from Monday) and months are read in the
// project's time zone.
func TestPeriodsAt(t *testing.T) {
	t.Parallel()
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		at   time.Time
		loc  *time.Location
		want Periods
	}{
		// Thursday 2026-01-01 14:59 UTC is 23:59 in Tokyo, 15:00 the next day.
		{time.Date(2026, 1, 1, 14, 59, 0, 0, time.UTC), tokyo, Periods{"d2026-01-01", "w2025-12-29", "m2026-01"}},
		{time.Date(2026, 1, 1, 15, 0, 0, 0, time.UTC), tokyo, Periods{"d2026-01-02", "w2025-12-29", "m2026-01"}},
		// Sunday stays in the week that began on Monday; Monday starts one.
		{time.Date(2026, 1, 4, 23, 0, 0, 0, time.UTC), time.UTC, Periods{"d2026-01-04", "w2025-12-29", "m2026-01"}},
		{time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), time.UTC, Periods{"d2026-01-05", "w2026-01-05", "m2026-01"}},
		// Early on 1 February UTC is still January in Los Angeles.
		{time.Date(2026, 2, 1, 5, 0, 0, 0, time.UTC), la, Periods{"d2026-01-31", "w2026-01-26", "m2026-01"}},
		// A DST change (2026-03-08 in Los Angeles) does not move the week.
		{time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC), la, Periods{"d2026-03-09", "w2026-03-09", "m2026-03"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, PeriodsAt(tt.at, tt.loc)); diff != "" {
			t.Errorf("%s in %s (-want +got):\n%s", tt.at, tt.loc, diff)
		}
	}
}

// TestCustomersKeyOf: the distinct-customers key follows the campaign
// and period of a campaign-customer key.
func TestCustomersKeyOf(t *testing.T) {
	t.Parallel()
	sc := newScopes(ObjectVoucher, "v_1", "camp_1")
	p := Periods{"d2026-01-01", "w2025-12-29", "m2026-01"}
	for _, c := range customerCounters {
		got := customersKeyOf(campCustKey(c, sc, "cust_1", p))
		if want := counterKey(c, sc, "", p); got != want {
			t.Errorf("%v: %s, want %s", c, got, want)
		}
	}
}

// TestHistoryDeltasKeys: the deltas a redemption adds name the keys
// histKey and campCustKey spell, in their order, with their deltas.
func TestHistoryDeltasKeys(t *testing.T) {
	t.Parallel()
	p := Periods{Day: "d2026-11-24", Week: "w2026-11-23", Month: "m2026-11"}
	for _, tc := range []struct {
		name       string
		sc         scopes
		cust       string
		amount, cd int64
	}{
		{"voucher alone, no customer", newScopes(ObjectVoucher, "v_1", ""), "", 10000, 100},
		{"campaign voucher, customer", newScopes(ObjectVoucher, "v_2", "camp_9"), "cust_abcdefghijklmnopqrstuvwx", 2500, 0},
		{"tier, customer", newScopes(ObjectPromotionTier, "promo_1", "camp_1"), "c", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sc := tc.sc
			want := []CounterDelta{
				{Key: histKey(sc.redeemable, histRedeemable, p.Day), Delta: 1},
				{Key: histKey(sc.redeemable, histRedeemable, p.Week), Delta: 1},
				{Key: histKey(sc.redeemable, histRedeemable, p.Month), Delta: 1},
				{Key: histKey(sc.campaign, histCampaign, periodAll), Delta: 1},
				{Key: histKey(sc.campaign, histCampaign, p.Day), Delta: 1},
				{Key: histKey(sc.campaign, histCampaign, p.Week), Delta: 1},
				{Key: histKey(sc.campaign, histCampaign, p.Month), Delta: 1},
				{Key: histKey(sc.campaign, histAmount, periodAll), Delta: tc.amount},
				{Key: histKey(sc.campaign, histDiscounted, periodAll), Delta: tc.cd},
			}
			if tc.cust != "" {
				for _, period := range []string{periodAll, p.Day, p.Week, p.Month} {
					want = append(want, CounterDelta{Key: histKey(sc.redeemable, histPerCust+tc.cust, period), Delta: 1})
				}
				for _, ctr := range customerCounters {
					want = append(want, CounterDelta{Key: campCustKey(ctr, sc, tc.cust, p), Delta: 1})
				}
			}
			got := historyDeltas(&Candidate{scopes: sc}, tc.cust, p, tc.amount, tc.cd)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("historyDeltas (-want +got):\n%s", diff)
			}
		})
	}
}
