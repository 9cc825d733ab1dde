package memory

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// outboxData is the webhook outbox: events in the order they were appended.
type outboxData struct {
	events []*promotype.Event
}

// AppendEvents adds copies of events to the outbox.
func (s *Store) AppendEvents(_ context.Context, events ...*promotype.Event) error {
	return s.write(func(d *data, u *undo) error {
		n := len(d.outbox.events)
		for _, e := range events {
			d.outbox.events = append(d.outbox.events, e.Clone())
		}
		u.push(func() { d.outbox.events = d.outbox.events[:n] })
		return nil
	})
}

// Events returns copies of the outbox's events of projectID, oldest first
// (for tests that check what a change recorded).
func (s *Store) Events(projectID string) []*promotype.Event {
	var out []*promotype.Event
	s.read(func(d *data) {
		for _, e := range d.outbox.events {
			if e.ProjectID == projectID {
				out = append(out, e.Clone())
			}
		}
	})
	return out
}
