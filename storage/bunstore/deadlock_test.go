package bunstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
)

// TestDeadlockIsRetryable: two transactions that lock two counters in
// opposite orders deadlock; PostgreSQL breaks the cycle by failing one of
// them, and that failure is promotype.ErrRetryable (the redemption loop
// runs such a transaction again), while the other commits.
func TestDeadlockIsRetryable(t *testing.T) {
	_, s := migrated(t)
	first, second := make(chan struct{}), make(chan struct{})
	errs := make(chan error, 2)
	run := func(mine, theirs string, locked, wait chan struct{}) {
		errs <- s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if err := tx.AddCounters(ctx, "p", redemption.CounterDelta{Key: mine, Delta: 1}); err != nil {
				return err
			}
			close(locked)
			<-wait
			return tx.AddCounters(ctx, "p", redemption.CounterDelta{Key: theirs, Delta: 1})
		})
	}
	// Both counters exist, so that each AddCounters locks its row.
	must(t, s.AddCounters(ctx, "p", redemption.CounterDelta{Key: "a", Delta: 1}, redemption.CounterDelta{Key: "b", Delta: 1}))
	go run("a", "b", first, second)
	go run("b", "a", second, first)
	var got []error
	for range 2 {
		select {
		case err := <-errs:
			got = append(got, err)
		case <-time.After(time.Minute):
			t.Fatal("the two transactions did not end in a minute")
		}
	}
	failed := 0
	for _, err := range got {
		switch {
		case err == nil:
		case errors.Is(err, promotype.ErrRetryable):
			failed++
		default:
			t.Errorf("deadlock victim: %v, want an ErrRetryable", err)
		}
	}
	if failed != 1 {
		t.Errorf("outcomes %v: want one commit and one ErrRetryable", got)
	}
	c, err := s.Counters(ctx, "p", "a", "b")
	must(t, err)
	if c["a"]+c["b"] != 4 {
		t.Errorf("counters %v: want the committed transaction's two deltas on top of 1 and 1", c)
	}
}
