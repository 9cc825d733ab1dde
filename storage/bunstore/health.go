package bunstore

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/promoengine/promo/storage"
)

var (
	_ storage.Pinger          = (*Store)(nil)
	_ storage.BacklogReporter = (*Store)(nil)
)

// Ping implements storage.Pinger: the database answers and every embedded
// migration is recorded in promo_schema_migrations.
func (s *Store) Ping(ctx context.Context) error {
	var applied []string
	err := s.db.NewSelect().Table("promo_schema_migrations").Column("version").Scan(ctx, &applied)
	if err != nil {
		return fmt.Errorf("bunstore: reading the applied migrations: %w", err)
	}
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	for _, f := range files {
		if v := strings.TrimSuffix(path.Base(f), ".sql"); !slices.Contains(applied, v) {
			return fmt.Errorf("bunstore: migration %s is not applied", v)
		}
	}
	return nil
}

// Backlog implements storage.BacklogReporter in one statement.
func (s *Store) Backlog(ctx context.Context) (storage.Backlog, error) {
	var rows []struct {
		Kind   string    `bun:"kind"`
		N      int       `bun:"n"`
		Oldest time.Time `bun:"oldest"`
	}
	err := s.db.NewRaw(`SELECT status AS kind, count(*) AS n,
			coalesce(min(created_at) FILTER (WHERE status IN ('ENQUEUED', 'IN_PROGRESS')), 'epoch') AS oldest
		FROM promo_async_actions GROUP BY status
		UNION ALL SELECT '#events', count(*), 'epoch' FROM promo_events WHERE NOT fanned_out
		UNION ALL SELECT '#sendouts', count(*), 'epoch' FROM promo_webhook_sendouts WHERE status = 'PENDING'`).Scan(ctx, &rows)
	if err != nil {
		return storage.Backlog{}, fmt.Errorf("bunstore: backlog: %w", err)
	}
	b := storage.Backlog{AsyncActions: map[string]int{}}
	for _, r := range rows {
		switch r.Kind {
		case "#events":
			b.OutboxEvents = r.N
		case "#sendouts":
			b.PendingSendouts = r.N
		default:
			b.AsyncActions[r.Kind] = r.N
			if r.Oldest.Unix() > 0 && (b.OldestPendingAction.IsZero() || r.Oldest.Before(b.OldestPendingAction)) {
				b.OldestPendingAction = r.Oldest.UTC()
			}
		}
	}
	return b, nil
}
