package campaign

import (
	"slices"
	"time"
)

// OpenAt reports whether validity v lets a resource be used at t, with the
// recurring windows read in loc (the project's time zone): t within
// [start_date, expiration_date], on an allowed day of the week, inside a
// daily period of validity_hours, and inside a window of
// validity_timeframe. Unset fields do not restrict. Recurring windows use
// calendar arithmetic in loc, so a DST change moves a window's wall-clock
// start, never opens or closes it twice.
func (v Validity) OpenAt(t time.Time, loc *time.Location) bool {
	if v.StartDate != nil && t.Before(v.StartDate.Time) {
		return false
	}
	if v.ExpirationDate != nil && t.After(v.ExpirationDate.Time) {
		return false
	}
	local := t.In(loc)
	if len(v.ValidityDayOfWeek) > 0 && !slices.Contains(v.ValidityDayOfWeek, int(local.Weekday())) {
		return false
	}
	if v.ValidityHours != nil && len(v.ValidityHours.Daily) > 0 && !v.ValidityHours.openAt(local) {
		return false
	}
	if v.ValidityTimeframe != nil && v.StartDate != nil && !v.ValidityTimeframe.openAt(t, v.StartDate.Time.In(loc)) {
		return false
	}
	return true
}

// IsZero reports whether v restricts nothing (a tier without its own
// validity inherits its campaign's).
func (v Validity) IsZero() bool {
	return v.StartDate == nil && v.ExpirationDate == nil && v.ValidityTimeframe == nil &&
		len(v.ValidityDayOfWeek) == 0 && v.ValidityHours == nil
}

// openAt: a daily period [start, expiration) on one of its days; a period
// whose expiration is before its start runs past midnight into the next day.
func (h *ValidityHours) openAt(local time.Time) bool {
	m := local.Hour()*60 + local.Minute()
	day := int(local.Weekday())
	prev := (day + 6) % 7
	for _, p := range h.Daily {
		from, err1 := parseClock(p.StartTime)
		to, err2 := parseClock(p.ExpirationTime)
		if err1 != nil || err2 != nil {
			continue
		}
		on := func(d int) bool { return len(p.DaysOfWeek) == 0 || slices.Contains(p.DaysOfWeek, d) }
		switch {
		case from <= to:
			if on(day) && m >= from && m < to {
				return true
			}
		default: // overnight
			if (on(day) && m >= from) || (on(prev) && m < to) {
				return true
			}
		}
	}
	return false
}

// openAt: windows of Duration starting at start + k × Interval (k ≥ 0).
func (f *ValidityTimeframe) openAt(t, start time.Time) bool {
	interval, err1 := ParseDuration(f.Interval)
	duration, err2 := ParseDuration(f.Duration)
	if err1 != nil || err2 != nil || t.Before(start) {
		return false
	}
	approx := interval.approx()
	if approx <= 0 {
		return false
	}
	k := int(t.Sub(start) / approx)
	for k > 0 && interval.times(k).addTo(start).After(t) {
		k--
	}
	for !interval.times(k + 1).addTo(start).After(t) {
		k++
	}
	ws := interval.times(k).addTo(start)
	return t.Before(duration.addTo(ws))
}

// addTo adds d to t with calendar arithmetic in t's location.
func (d Duration) addTo(t time.Time) time.Time {
	t = t.AddDate(d.Years, d.Months, d.Weeks*7+d.Days)
	return t.Add(time.Duration(d.Hours)*time.Hour + time.Duration(d.Minutes)*time.Minute + time.Duration(d.Seconds)*time.Second)
}

func (d Duration) times(k int) Duration {
	return Duration{d.Years * k, d.Months * k, d.Weeks * k, d.Days * k, d.Hours * k, d.Minutes * k, d.Seconds * k}
}

// approx is d's length in an average calendar, for a first guess of k.
func (d Duration) approx() time.Duration {
	day := 24 * time.Hour
	return time.Duration(d.Years)*(36524*day/100) + time.Duration(d.Months)*(30*day+10*time.Hour) +
		time.Duration(d.Weeks)*7*day + time.Duration(d.Days)*day +
		time.Duration(d.Hours)*time.Hour + time.Duration(d.Minutes)*time.Minute + time.Duration(d.Seconds)*time.Second
}
