package promotype

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// The retry budget of a write (Retries): how many times it runs in all,
// and the backoff before each run again (a random wait below base·2ⁿ,
// capped), so two writers that deadlocked do not meet again at once.
const (
	RetryAttempts    = 5
	retryBackoffBase = 5 * time.Millisecond
	retryBackoffMax  = 100 * time.Millisecond
)

// ErrServiceUnavailable matches (errors.Is) the 503 of a store that cannot
// serve now or of a write whose retry budget ran out.
var ErrServiceUnavailable = &Error{Code: StatusServiceUnavailable, Key: "service_unavailable"}

// ServiceUnavailable is the 503 service_unavailable whose details are
// format and args; the HTTP adapter adds Retry-After.
func ServiceUnavailable(format string, args ...any) *Error {
	return Newf(StatusServiceUnavailable, "service_unavailable", "Service unavailable", format, args...)
}

// Retries is the retry budget of one write: the one mechanism behind
// every write's retries (Retry, the transactions of storage.TxFor, the
// redemption and session loops that evaluate again). The zero value is a
// full budget.
type Retries struct{ ran int }

// Again reports whether the write that just failed with err may run
// again: err is Retryable, the budget has a run left and ctx is live. It
// waits the backoff before it answers true.
func (r *Retries) Again(ctx context.Context, err error) bool {
	r.ran++
	if !Retryable(err) || r.ran >= RetryAttempts || ctx.Err() != nil {
		return false
	}
	wait := min(retryBackoffBase<<(r.ran-1), retryBackoffMax)
	t := time.NewTimer(rand.N(wait) + time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Final returns what a write that ended with err answers: err, or, when
// err is still Retryable (the budget ran out), a 503 that names it without
// wrapping it, so that no caller further up runs the write again.
func (r *Retries) Final(err error) error {
	if !Retryable(err) {
		return err
	}
	if Unavailable(err) {
		return fmt.Errorf("%w: %v", ServiceUnavailable("The database did not answer in time or cannot be reached; retry later"), err)
	}
	return fmt.Errorf("%w: %v", ServiceUnavailable("The request kept meeting concurrent writes; retry later"), err)
}

// Retry runs write, a whole transaction (or one statement), and runs it
// again while it fails Retryable, within a Retries budget. write must be
// safe to run again: what it reads and writes it does anew each run, in a
// transaction the failure undid.
func Retry(ctx context.Context, write func() error) error {
	var r Retries
	for {
		err := write()
		if !r.Again(ctx, err) {
			return r.Final(err)
		}
	}
}
