package memory

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/storage"
)

var (
	_ storage.Pinger          = (*Store)(nil)
	_ storage.BacklogReporter = (*Store)(nil)
)

// Ping implements storage.Pinger: the memory store can always serve.
func (s *Store) Ping(ctx context.Context) error { return ctx.Err() }

// Backlog implements storage.BacklogReporter.
func (s *Store) Backlog(ctx context.Context) (b storage.Backlog, err error) {
	b.AsyncActions = map[string]int{}
	s.read(ctx, func(d *data) {
		for _, rows := range d.campaigns.actions.rows {
			for _, a := range rows {
				b.AsyncActions[string(a.Status)]++
				if (a.Status == async.StatusEnqueued || a.Status == async.StatusInProgress) &&
					(b.OldestPendingAction.IsZero() || a.CreatedAt.Before(b.OldestPendingAction)) {
					b.OldestPendingAction = a.CreatedAt.Time
				}
			}
		}
		b.OutboxEvents = len(d.outbox.events) - d.outbox.fanned
		b.PendingSendouts = len(d.outbox.pending)
	})
	return b, nil
}
