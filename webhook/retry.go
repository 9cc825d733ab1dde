package webhook

import "time"

// Schedule is the retry schedule of a delivery: after the first try fails,
// retry i (from 0) waits Base << i, capped at Max; after Tries tries in all
// the event is given up and the configuration deactivated. The default is
// the hosted service's: 12 retries from 1 minute doubling, the last after a
// day in all.
type Schedule struct {
	Tries int
	Base  time.Duration
	Max   time.Duration
}

// DefaultSchedule is 13 tries: the first and 12 retries at +1, 2, 4, …
// minutes, each wait capped at 24 h.
var DefaultSchedule = Schedule{Tries: 13, Base: time.Minute, Max: 24 * time.Hour}

// Next returns how long to wait after failed try number attempt (1 = the
// first try) and whether another try is left.
func (s Schedule) Next(attempt int) (time.Duration, bool) {
	if attempt >= s.Tries {
		return 0, false
	}
	d := s.Base
	for i := 1; i < attempt && d < s.Max; i++ {
		d *= 2
	}
	return min(d, s.Max), true
}
