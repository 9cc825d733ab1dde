package loyalty

import (
	"time"

	"github.com/promoengine/promo/campaign"
)

// dateLayout is how a bucket's expiry date is written (YYYY-MM-DD).
const dateLayout = time.DateOnly

// ExpiresOn is the last day (YYYY-MM-DD) points credited on the date
// activity (its calendar day; the project's time zone is the caller's)
// can be spent under rules, or "" when they never expire (nil rules):
//
//   - MONTH, period_value N: N months after that day, clamped to the end of
//     a shorter month (31 January + 1 → 28 February); with rounding_type,
//     the end of the month, quarter, half year or year that holds it, or
//     of the month rounding_value (1–12) next on or after it
//     (PARTICULAR_MONTH);
//   - FIXED_DAY_OF_YEAR: the next fixed_month / fixed_day on or after that
//     day, clamped to the end of a shorter month.
//
// The points are gone at the start of the next day.
func ExpiresOn(rules *campaign.ExpirationRules, activity time.Time) string {
	if rules == nil {
		return ""
	}
	y, m, d := activity.Date()
	var on time.Time
	switch rules.PeriodType {
	case "MONTH":
		n := 0
		if rules.PeriodValue != nil {
			n = *rules.PeriodValue
		}
		on = addMonthsClamped(y, m, d, n)
		if rules.RoundingType != nil {
			on = roundUp(on, *rules.RoundingType, rules.RoundingValue)
		}
	case "FIXED_DAY_OF_YEAR":
		if rules.FixedMonth == nil || rules.FixedDay == nil {
			return ""
		}
		fm, fd := time.Month(*rules.FixedMonth), *rules.FixedDay
		on = clampedDate(y, fm, fd)
		if on.Before(civil(y, m, d)) {
			on = clampedDate(y+1, fm, fd)
		}
	default:
		return ""
	}
	return on.Format(dateLayout)
}

// civil is the date y-m-d at midnight UTC (a calendar day, no zone).
func civil(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// clampedDate is y-m-d, or the last day of month m when it has fewer days.
func clampedDate(y int, m time.Month, d int) time.Time {
	if last := lastDay(y, m); d > last {
		d = last
	}
	return civil(y, m, d)
}

// lastDay is the number of days of month m of year y.
func lastDay(y int, m time.Month) int { return civil(y, m+1, 0).Day() }

// addMonthsClamped is y-m-d plus n months, clamped to the end of the month.
func addMonthsClamped(y int, m time.Month, d, n int) time.Time {
	first := civil(y, m, 1).AddDate(0, n, 0)
	return clampedDate(first.Year(), first.Month(), d)
}

// roundUp moves date t to the end of the period of rounding type typ that
// holds it.
func roundUp(t time.Time, typ string, value *int) time.Time {
	y, m := t.Year(), t.Month()
	endOf := func(months int) time.Time { // the end of the block of months holding m
		last := ((int(m)-1)/months + 1) * months
		return civil(y, time.Month(last)+1, 0)
	}
	switch typ {
	case "END_OF_MONTH":
		return endOf(1)
	case "END_OF_QUARTER":
		return endOf(3)
	case "END_OF_HALF_YEAR":
		return endOf(6)
	case "END_OF_YEAR":
		return endOf(12)
	case "PARTICULAR_MONTH":
		if value == nil || *value < 1 || *value > 12 {
			return t
		}
		target := time.Month(*value)
		if target < m {
			y++
		}
		return civil(y, target+1, 0)
	}
	return t
}
