package storagetest

import (
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/storage"
)

// testHealth checks the optional abilities readiness and metrics use: a
// fresh store answers Ping, and Backlog counts async actions by status
// across projects with the creation time of the oldest one not ended.
func testHealth(t *testing.T, newStore Factory) {
	s := newStore(t)
	t.Run("Ping", func(t *testing.T) {
		p, ok := s.(storage.Pinger)
		if !ok {
			t.Skip("the store is not a storage.Pinger")
		}
		if err := p.Ping(ctx); err != nil {
			t.Errorf("Ping of a fresh store = %v, want nil", err)
		}
	})
	t.Run("Backlog", func(t *testing.T) {
		r, ok := s.(storage.BacklogReporter)
		if !ok {
			t.Skip("the store is not a storage.BacklogReporter")
		}
		got, err := r.Backlog(ctx)
		must(t, err)
		diff(t, "empty backlog", storage.Backlog{AsyncActions: map[string]int{}}, got)

		p := newProject(t, s, "proj_a")
		b := newProject(t, s, "proj_b")
		must(t, s.InsertAsyncAction(ctx, action(p, 1, at(3))))
		must(t, s.InsertAsyncAction(ctx, action(b, 2, at(2))))
		done := action(p, 3, at(1))
		done.Status, done.OperationStatus = async.StatusDone, async.OperationSuccess
		must(t, s.InsertAsyncAction(ctx, done))
		got, err = r.Backlog(ctx)
		must(t, err)
		want := storage.Backlog{
			AsyncActions:        map[string]int{string(async.StatusEnqueued): 2, string(async.StatusDone): 1},
			OldestPendingAction: at(2).Time,
		}
		diff(t, "backlog", want, got)
	})
}
