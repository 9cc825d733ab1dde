package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// eventRow is a row of the webhook outbox (migration 0008).
type eventRow struct {
	bun.BaseModel `bun:"table:promo_events,alias:ev"`

	Seq       int64           `bun:"seq,pk,autoincrement"`
	ProjectID string          `bun:"project_id"`
	ID        string          `bun:"id"`
	Type      string          `bun:"type"`
	EntityID  string          `bun:"entity_id"`
	CreatedAt time.Time       `bun:"created_at"`
	Data      json.RawMessage `bun:"data,type:json"`
}

func (r *eventRow) domain() (*promotype.Event, error) {
	return &promotype.Event{ID: r.ID, ProjectID: r.ProjectID, Type: r.Type, EntityID: r.EntityID,
		CreatedAt: domainTime(r.CreatedAt), Data: r.Data}, nil
}

// AppendEvents writes events to the outbox in one statement.
func (s *Store) AppendEvents(ctx context.Context, events ...*promotype.Event) error {
	if len(events) == 0 {
		return nil
	}
	rows := make([]eventRow, len(events))
	for i, e := range events {
		if err := checkText("event", str("id", e.ID), str("project_id", e.ProjectID), str("type", e.Type), str("entity_id", e.EntityID)); err != nil {
			return err
		}
		rows[i] = eventRow{ProjectID: e.ProjectID, ID: e.ID, Type: e.Type, EntityID: e.EntityID,
			CreatedAt: sqlTime(e.CreatedAt), Data: e.Data}
	}
	if _, err := s.db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fail("append events", err, nil)
	}
	return nil
}
