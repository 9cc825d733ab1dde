package storagetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/storage"
)

// concurrencyDeadline bounds every concurrent run of the suite: generous
// for a loaded 2-core machine, finite so that a deadlock fails the test.
const concurrencyDeadline = 90 * time.Second

// runConcurrently calls f(0) … f(n-1) in n goroutines at once and returns
// how many returned nil and the other errors. It fails the test (naming
// what) when they have not all returned within concurrencyDeadline.
func runConcurrently(t *testing.T, what string, n int, f func(i int) error) (ok int, errs []error) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := f(i)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else {
				errs = append(errs, err)
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(concurrencyDeadline):
		t.Fatalf("%s: %d goroutines did not finish in %s", what, n, concurrencyDeadline)
	}
	mu.Lock()
	defer mu.Unlock()
	return ok, errs
}

// claimsOnce runs claim in n concurrent transactions of s and fails the
// test (naming what) unless all commit and exactly one claims.
func claimsOnce(t *testing.T, s storage.Store, what string, n int, claim func(ctx context.Context, tx storage.Tx) (bool, error)) {
	t.Helper()
	claimed := make(chan bool, n)
	ok, errs := runConcurrently(t, what, n, func(int) error {
		return s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			got, err := claim(ctx, tx)
			claimed <- got
			return err
		})
	})
	close(claimed)
	won := 0
	for c := range claimed {
		if c {
			won++
		}
	}
	if ok != n || won != 1 {
		t.Errorf("%s: %d committed, %d claimed (want %d, 1); errors %v", what, ok, won, n, errs)
	}
}
