package bunstore

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// eventRow is a row of the webhook outbox (migrations 0008, 0009).
type eventRow struct {
	bun.BaseModel `bun:"table:promo_events,alias:ev"`

	Seq       int64     `bun:"seq,pk,autoincrement"`
	ProjectID string    `bun:"project_id"`
	ID        string    `bun:"id"`
	Type      string    `bun:"type"`
	EntityID  string    `bun:"entity_id"`
	CreatedAt time.Time `bun:"created_at"`
	// Data is the payload's text, kept as is: a json.RawMessage would go
	// through encoding/json, which escapes <, > and &.
	Data      string `bun:"data"`
	FannedOut bool   `bun:"fanned_out"`
}

func (r *eventRow) domain() *promotype.Event {
	return &promotype.Event{ID: r.ID, ProjectID: r.ProjectID, Type: r.Type, EntityID: r.EntityID,
		CreatedAt: domainTime(r.CreatedAt), Data: json.RawMessage(r.Data)}
}

// eventsChannel is the NOTIFY channel of appended events; the payload is
// the schema (the channel is shared by every schema of the database).
const eventsChannel = "promo_events"

// AppendEvents writes events to the outbox and notifies eventsChannel, in
// one statement. PostgreSQL sends the notification when the transaction
// commits (never when it rolls back), once per transaction and schema.
func (s *Store) AppendEvents(ctx context.Context, events ...*promotype.Event) error {
	for _, e := range events {
		if err := checkText("event", str("id", e.ID), str("project_id", e.ProjectID), str("type", e.Type), str("entity_id", e.EntityID)); err != nil {
			return err
		}
	}
	events, err := s.heardEvents(ctx, events)
	if err != nil || len(events) == 0 {
		return err
	}
	rows := make([]eventRow, len(events))
	for i, e := range events {
		data := string(e.Data)
		if data == "" {
			data = "null" // the column is NOT NULL; the envelope sends {} for it
		}
		rows[i] = eventRow{ProjectID: e.ProjectID, ID: e.ID, Type: e.Type, EntityID: e.EntityID,
			CreatedAt: sqlTime(e.CreatedAt), Data: data}
	}
	insert := s.db.NewInsert().Model(&rows).Returning("NULL")
	_, err = s.db.NewSelect().With("ins", insert).
		ColumnExpr("pg_notify(?, coalesce(current_schema(), ''))", eventsChannel).Exec(ctx)
	if err != nil {
		return fail("append events", err, nil)
	}
	return nil
}

// listenerRow is what AppendEvents reads of an active configuration.
type listenerRow struct {
	ProjectID string          `bun:"project_id"`
	CreatedAt time.Time       `bun:"created_at"`
	Events    json.RawMessage `bun:"events"`
}

// heardEvents keeps the events some active configuration of their project,
// created by then, lists (webhook.Hears at the time of the change), with
// one read of the projects' active configurations.
func (s *Store) heardEvents(ctx context.Context, events []*promotype.Event) ([]*promotype.Event, error) {
	if len(events) == 0 {
		return nil, nil
	}
	projects := make([]string, 0, 1)
	for _, e := range events {
		if !slices.Contains(projects, e.ProjectID) {
			projects = append(projects, e.ProjectID)
		}
	}
	var rows []listenerRow
	err := s.db.NewRaw(`SELECT project_id, created_at, doc->'events' AS events FROM promo_webhooks
		WHERE project_id IN (?) AND (doc->>'active')::boolean`, bun.In(projects)).Scan(ctx, &rows)
	if err != nil {
		return nil, fail("read webhook listeners", err, nil)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	listens := make([][]string, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal(r.Events, &listens[i]); err != nil {
			return nil, err
		}
	}
	out := events[:0:0]
	for _, e := range events {
		for i, r := range rows {
			if r.ProjectID == e.ProjectID && !r.CreatedAt.After(e.CreatedAt.Time) && slices.Contains(listens[i], e.Type) {
				out = append(out, e)
				break
			}
		}
	}
	return out, nil
}
