package promo_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/memory"
)

var ctx = context.Background()

// t0 is the fixed time of every engine under test.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// storeFactories are the stores every Go API test runs on; the Postgres one
// joins when PROMO_TEST_POSTGRES_DSN is set (see postgres_test.go).
var storeFactories = map[string]func(testing.TB) storage.Store{
	"memory": func(testing.TB) storage.Store { return memory.New() },
}

type fixture struct {
	store   storage.Store
	eng     *promo.Engine
	clock   *promotype.ManualClock
	project string
}

// eachStore runs fn once per store with a fresh engine and project.
func eachStore(t *testing.T, fn func(t *testing.T, f fixture)) {
	t.Helper()
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			clock := promotype.NewManualClock(t0)
			store := newStore(t)
			eng, err := promo.New(store, promo.WithClock(clock), promo.WithIDGenerator(&promotype.SequentialIDs{}))
			if err != nil {
				t.Fatal(err)
			}
			p, err := eng.Projects().Create(ctx, project.Params{Name: "Shop"})
			if err != nil {
				t.Fatal(err)
			}
			fn(t, fixture{store: store, eng: eng, clock: clock, project: p.ID})
		})
	}
}

// benchProject is an engine over a store of newStore with one project, for
// a benchmark; it returns the engine and the project.
func benchProject(b *testing.B, newStore func(testing.TB) storage.Store) (*promo.Engine, *project.Project) {
	b.Helper()
	eng, err := promo.New(newStore(b))
	if err != nil {
		b.Fatal(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return eng, p
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return v
	}
}

// wantErr checks err's status, key and (when given) that details contain a fragment.
func wantErr(t testing.TB, err error, code int, key string) *promotype.Error {
	t.Helper()
	var e *promotype.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a %d %s", err, code, key)
	}
	if e.Code != code || e.Key != key {
		t.Fatalf("got %d %s (%s), want %d %s", e.Code, e.Key, e.Details, code, key)
	}
	return e
}

func diff(t testing.TB, what string, want, got any, opts ...cmp.Option) {
	t.Helper()
	if d := cmp.Diff(want, got, append(opts, cmpopts.EquateEmpty())...); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

func at(d time.Duration) promotype.Time { return promotype.NewTime(t0.Add(d)) }

// eventually polls cond until it holds, failing t with msg when it still
// does not after within: for what another engine sees once its cache
// expires, which no event announces.
func eventually(t *testing.T, within time.Duration, msg string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
	}
}

// inParallel runs fn(0) … fn(n-1) at once and waits for them, failing the
// test when they have not all returned in 3 minutes: every concurrency
// test of the package is bounded in time.
func inParallel(t *testing.T, n int, fn func(i int)) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%d concurrent calls did not return in 3 minutes", n)
	}
}
