package promo

import (
	"testing"
	"time"
)

// Background loops wait longer after each failure in a row, up to a cap,
// at a random point of the second half of the delay.
func TestRetryDelayBacksOffWithJitter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base     time.Duration
		failures int
		lo, hi   time.Duration
	}{
		{time.Second, 1, 500 * time.Millisecond, time.Second},
		{time.Second, 2, time.Second, 2 * time.Second},
		{time.Second, 3, 2 * time.Second, 4 * time.Second},
		{time.Second, 6, 15 * time.Second, 30 * time.Second},
		{time.Second, 1000, 15 * time.Second, 30 * time.Second},
		{time.Minute, 1, 15 * time.Second, 30 * time.Second},
		{0, 1, 0, time.Millisecond},
	}
	for _, tc := range tests {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := retryDelay(tc.base, tc.failures)
			if d < tc.lo || d > tc.hi {
				t.Fatalf("retryDelay(%v, %d) = %v, want within [%v, %v]", tc.base, tc.failures, d, tc.lo, tc.hi)
			}
			seen[d] = true
		}
		if tc.hi-tc.lo > time.Millisecond && len(seen) < 100 {
			t.Errorf("retryDelay(%v, %d): %d distinct delays in 200, want jitter", tc.base, tc.failures, len(seen))
		}
	}
}
