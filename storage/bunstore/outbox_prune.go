package bunstore

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// pruneSendoutsSQL removes settled sendouts created before ?, oldest first,
// at most ? of them.
const pruneSendoutsSQL = `DELETE FROM promo_webhook_sendouts WHERE seq IN (
	SELECT seq FROM promo_webhook_sendouts
	WHERE status <> 'PENDING' AND created_at < ?
	ORDER BY created_at LIMIT ?)`

// pruneEventsSQL removes fanned-out events created before ? that no
// sendout refers to any more, oldest first, at most ? of them.
const pruneEventsSQL = `DELETE FROM promo_events WHERE seq IN (
	SELECT ev.seq FROM promo_events ev
	WHERE ev.fanned_out AND ev.created_at < ?
	  AND NOT EXISTS (SELECT 1 FROM promo_webhook_sendouts s WHERE s.project_id = ev.project_id AND s.event_id = ev.id)
	ORDER BY ev.created_at LIMIT ?)`

// PruneOutbox implements webhook.OutboxStore: two statements, each its own
// transaction (an event whose last sendout the first removed goes with the
// second).
func (s *Store) PruneOutbox(ctx context.Context, before promotype.Time, limit int) (int, error) {
	removed := 0
	for _, q := range []string{pruneSendoutsSQL, pruneEventsSQL} {
		res, err := s.db.NewRaw(q, sqlTime(before), limit).Exec(ctx)
		if err != nil {
			return removed, fail("prune outbox", err, nil)
		}
		n, _ := res.RowsAffected()
		removed += int(n)
	}
	return removed, nil
}
