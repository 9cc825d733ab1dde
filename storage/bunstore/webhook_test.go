package bunstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/webhook"
)

// WatchEvents wakes when a transaction that appended events commits: not
// before, not for a rollback, not for another schema of the database.
// On Citus the notification is sent by the coordinator, where the watch
// listens.
func TestWatchEventsWakesAtCommit(t *testing.T) {
	for name, newStore := range map[string]func(testing.TB) storage.Store{"postgres": bunstoretest.New, "citus": bunstoretest.NewCitus} {
		t.Run(name, func(t *testing.T) { testWatchEventsWakesAtCommit(t, newStore) })
	}
}

func testWatchEventsWakesAtCommit(t *testing.T, newStore func(testing.TB) storage.Store) {
	s := newStore(t)
	other := newStore(t)                           // another schema of the same database
	for _, st := range []storage.Store{s, other} { // someone hears the events
		if err := st.InsertWebhook(ctx, &webhook.Webhook{ID: "wh_1", Object: "webhook", ProjectID: "proj_a", CreatedAt: at(-1),
			TargetURL: "https://hooks.example.com/in", Events: []string{"campaign.created"}, Active: true}); err != nil {
			t.Fatal(err)
		}
	}
	woken := make(chan struct{}, 16)
	stop := s.WatchEvents(func() { woken <- struct{}{} })
	defer stop()
	select { // the first wake says it listens
	case <-woken:
	case <-time.After(10 * time.Second):
		t.Fatal("the watch never started listening")
	}
	quiet := func(what string) {
		t.Helper()
		select {
		case <-woken:
			t.Fatalf("woken %s", what)
		case <-time.After(150 * time.Millisecond):
		}
	}
	ev := func(id string) *promotype.Event {
		return &promotype.Event{ID: id, ProjectID: "proj_a", Type: "campaign.created", EntityID: "camp_1", CreatedAt: at(0), Data: []byte(`{}`)}
	}

	inTx := make(chan struct{})
	commit := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if err := tx.AppendEvents(ctx, ev("evt_1"), ev("evt_2")); err != nil {
				return err
			}
			close(inTx)
			<-commit
			return nil
		})
	}()
	<-inTx
	quiet("before the commit")
	close(commit)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case <-woken:
	case <-time.After(5 * time.Second):
		t.Fatal("not woken after the commit")
	}

	boom := errors.New("boom")
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := tx.AppendEvents(ctx, ev("evt_3")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	quiet("by a rollback")
	if err := other.AppendEvents(ctx, ev("evt_4")); err != nil {
		t.Fatal(err)
	}
	quiet("by another schema")

	stop()
	if err := s.AppendEvents(ctx, ev("evt_5")); err != nil {
		t.Fatal(err)
	}
	quiet("after stop")
}
