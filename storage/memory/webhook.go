package memory

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/webhook"
)

// outboxData is the webhook outbox: events in the order they were
// appended, and the sendouts they were fanned out into.
type outboxData struct {
	events []*promotype.Event
	// fanned counts the events fanned out: they are taken oldest first, and
	// a fan-out holds the store's lock, so these are events[:fanned].
	fanned   int
	sendouts map[string]map[string]*sendoutRow // project → sendout id
	pending  map[*sendoutRow]struct{}          // the sendouts still PENDING
	planned  map[[3]string]bool                // (project, webhook, event) already has a sendout
	seq      int64                             // creation order of sendouts
	feed     eventFeed                         // woken by AppendEvents
}

// sendoutRow is a stored sendout, with its event and its creation order
// (the tie-break of due sendouts).
type sendoutRow struct {
	s     *webhook.Sendout
	event *promotype.Event
	seq   int64
}

func (r *sendoutRow) clone() *sendoutRow {
	return &sendoutRow{s: r.s.Clone(), event: r.event, seq: r.seq}
}

// init makes the maps of a store's first fan-out.
func (o *outboxData) init() {
	if o.sendouts == nil {
		o.sendouts = map[string]map[string]*sendoutRow{}
		o.pending = map[*sendoutRow]struct{}{}
		o.planned = map[[3]string]bool{}
	}
}

// AppendEvents adds copies of the events some configuration hears
// (webhook.Hears) to the outbox and wakes the watchers; the others would
// never be sent and are dropped. The copies and the activity rows share
// the events' Data, which nobody changes once appended (the port's rule).
// Inside a transaction they are woken before the commit, but what they do
// next (FanOutEvents) waits for the store's lock, so it sees the events
// once they are committed and never if they are rolled back.
func (s *Store) AppendEvents(ctx context.Context, events ...*promotype.Event) error {
	added := 0
	err := s.write(ctx, func(d *data, u *undo) error {
		n := len(d.outbox.events)
		for _, e := range events {
			if e.Type != "" && d.heard(e) {
				kept := *e
				kept.Activity = promotype.ClonePtr(e.Activity)
				d.outbox.events = append(d.outbox.events, &kept)
			}
			if e.Activity != nil {
				d.appendActivity(u, e)
			}
		}
		added = len(d.outbox.events) - n
		u.push(func() { d.outbox.events = d.outbox.events[:n] })
		return nil
	})
	if err == nil && added > 0 {
		s.d.outbox.feed.wake()
	}
	return err
}

// Heard implements promotype.EventStore.
func (s *Store) Heard(ctx context.Context, projectID, typ string, at promotype.Time) (bool, error) {
	heard := false
	s.read(ctx, func(d *data) {
		heard = heard || d.heard(&promotype.Event{ProjectID: projectID, Type: typ, CreatedAt: at})
	})
	return heard, nil
}

// Events returns copies of the outbox's events of projectID, oldest first
// (for tests that check what a change recorded).
func (s *Store) Events(projectID string) []*promotype.Event {
	var out []*promotype.Event
	s.read(context.Background(), func(d *data) {
		for _, e := range d.outbox.events {
			if e.ProjectID == projectID {
				out = append(out, e.Clone())
			}
		}
	})
	return out
}

// FanOutEvents implements webhook.OutboxStore.
func (s *Store) FanOutEvents(ctx context.Context, limit int, plan func(*promotype.Event, []*webhook.Webhook) []*webhook.Sendout) (events int, stored []*webhook.Delivery, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		o := &d.outbox
		o.init()
		from := o.fanned
		to := min(len(o.events), from+max(limit, 0))
		for i := from; i < to; i++ {
			e := o.events[i]
			hooks := hearing(d, e)
			for _, sd := range plan(e.Clone(), hooks) {
				if !o.insertSendout(u, sd, e) {
					continue
				}
				x := &webhook.Delivery{Sendout: sd.Clone(), Event: e.Clone()}
				if w, ok := d.settings.webhooks.get(sd.ProjectID, sd.WebhookID); ok {
					x.Webhook = w.Clone()
				}
				if p, ok := d.projects.get("", sd.ProjectID); ok {
					x.Secret = p.WebhookToken
				}
				stored = append(stored, x)
			}
		}
		o.fanned = to
		u.push(func() { o.fanned = from })
		events = to - from
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return events, stored, nil
}

// heard reports whether a configuration hears e (hearing without the
// copies, for every append).
func (d *data) heard(e *promotype.Event) bool {
	for _, w := range d.settings.webhooks.rows[e.ProjectID] {
		if webhook.Hears(w, e) {
			return true
		}
	}
	return false
}

// hearing returns copies of the configurations that hear e, by id.
func hearing(d *data, e *promotype.Event) []*webhook.Webhook {
	var out []*webhook.Webhook
	for _, w := range d.settings.webhooks.rows[e.ProjectID] {
		if webhook.Hears(w, e) {
			out = append(out, w.Clone())
		}
	}
	slices.SortFunc(out, func(a, b *webhook.Webhook) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// insertSendout stores a copy of sd (of event) unless its event and
// configuration already have one.
func (o *outboxData) insertSendout(u *undo, sd *webhook.Sendout, event *promotype.Event) bool {
	pair := [3]string{sd.ProjectID, sd.WebhookID, sd.EventID}
	byID := o.sendouts[sd.ProjectID]
	if o.planned[pair] || byID[sd.ID] != nil {
		return false
	}
	if byID == nil {
		byID = map[string]*sendoutRow{}
		o.sendouts[sd.ProjectID] = byID
	}
	o.seq++
	r := &sendoutRow{s: sd.Clone(), event: event, seq: o.seq}
	byID[sd.ID] = r
	o.planned[pair] = true
	if r.s.Status == webhook.SendoutPending {
		o.pending[r] = struct{}{}
	}
	u.push(func() {
		delete(byID, sd.ID)
		delete(o.planned, pair)
		delete(o.pending, r)
	})
	return true
}

// ClaimSendouts implements webhook.OutboxStore.
func (s *Store) ClaimSendouts(ctx context.Context, now, leaseUntil promotype.Time, limit int) ([]*webhook.Delivery, error) {
	var out []*webhook.Delivery
	err := s.write(ctx, func(d *data, u *undo) error {
		o := &d.outbox
		o.init()
		var due []*sendoutRow
		for r := range o.pending {
			if r.s.NextAttemptAt == nil || !r.s.NextAttemptAt.After(now.Time) {
				due = append(due, r)
			}
		}
		slices.SortFunc(due, func(a, b *sendoutRow) int {
			if c := promotype.Compare(tmPtr(a.s.NextAttemptAt), tmPtr(b.s.NextAttemptAt)); c != 0 {
				return c
			}
			return int(a.seq - b.seq)
		})
		for _, r := range due[:min(len(due), max(limit, 0))] {
			old := r.s
			c := old.Clone()
			c.Attempts++
			c.NextAttemptAt = leaseUntil.Ptr()
			r.s = c
			u.push(func() { r.s = old })
			x := &webhook.Delivery{Sendout: c.Clone(), Event: r.event.Clone()}
			if w, ok := d.settings.webhooks.get(c.ProjectID, c.WebhookID); ok {
				x.Webhook = w.Clone()
			}
			if p, ok := d.projects.get("", c.ProjectID); ok {
				x.Secret = p.WebhookToken
			}
			out = append(out, x)
		}
		return nil
	})
	return out, err
}

// RecordSendouts implements webhook.OutboxStore.
func (s *Store) RecordSendouts(ctx context.Context, outcomes ...webhook.Outcome) (lost []string, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		o := &d.outbox
		o.init()
		for _, oc := range outcomes {
			if !o.record(d, u, oc) {
				lost = append(lost, oc.Sendout.ID)
			}
		}
		return nil
	})
	return lost, err
}

// record applies one outcome if its sendout is still held with the
// attempt count of the outcome.
func (o *outboxData) record(d *data, u *undo, oc webhook.Outcome) bool {
	sd := oc.Sendout
	r := o.sendouts[sd.ProjectID][sd.ID]
	if r == nil || r.s.Status != webhook.SendoutPending || r.s.Attempts != sd.Attempts {
		return false
	}
	old := r.s
	c := sd.Clone()
	c.ID, c.Object, c.ProjectID, c.WebhookID, c.EventID = old.ID, old.Object, old.ProjectID, old.WebhookID, old.EventID
	c.EventType, c.TargetURL, c.CreatedAt = old.EventType, old.TargetURL, old.CreatedAt
	r.s = c
	u.push(func() { r.s = old })
	if c.Status != webhook.SendoutPending {
		delete(o.pending, r)
		u.push(func() { o.pending[r] = struct{}{} })
	}
	if !oc.Deactivate {
		return true
	}
	if w, ok := d.settings.webhooks.get(c.ProjectID, c.WebhookID); ok {
		off := w.Clone()
		off.Active = false
		off.UpdatedAt = promotype.ClonePtr(c.LastAttemptAt)
		d.settings.webhooks.put(u, c.ProjectID, c.WebhookID, off)
	}
	return true
}

// PruneOutbox implements webhook.OutboxStore.
func (s *Store) PruneOutbox(ctx context.Context, before promotype.Time, limit int) (removed int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		o := &d.outbox
		o.init()
		used := map[*promotype.Event]bool{} // events with a sendout left
		for _, byID := range o.sendouts {
			for id, r := range byID {
				if removed >= limit || r.s.Status == webhook.SendoutPending || !r.s.CreatedAt.Before(before.Time) {
					used[r.event] = true
					continue
				}
				pair := [3]string{r.s.ProjectID, r.s.WebhookID, r.s.EventID}
				delete(byID, id)
				delete(o.planned, pair)
				u.push(func() { byID[id], o.planned[pair] = r, true })
				removed++
			}
		}
		events, fanned, dropped := o.events, o.fanned, 0
		kept := make([]*promotype.Event, 0, len(events))
		for i, e := range events {
			if i < fanned && dropped < limit && e.CreatedAt.Before(before.Time) && !used[e] {
				dropped++
				continue
			}
			kept = append(kept, e)
		}
		o.events, o.fanned = kept, fanned-dropped
		u.push(func() { o.events, o.fanned = events, fanned })
		removed += dropped
		return nil
	})
	return removed, err
}

// ListSendouts implements webhook.OutboxStore.
func (s *Store) ListSendouts(ctx context.Context, projectID, webhookID string, q promotype.Query) (out []*webhook.Sendout, total int, err error) {
	s.read(ctx, func(d *data) {
		rows, n := list(d.outbox.sendouts[projectID], q,
			func(r *sendoutRow, name string) promotype.Value { return r.s.Field(name) },
			func(r *sendoutRow) string { return r.s.ID },
			func(r *sendoutRow) bool { return r.s.WebhookID == webhookID },
			(*sendoutRow).clone)
		out, total = make([]*webhook.Sendout, len(rows)), n
		for i, r := range rows {
			out[i] = r.s
		}
	})
	return out, total, nil
}

// WatchEvents implements webhook.OutboxStore: wake is called in the
// goroutine of every AppendEvents of this store (and of its transactions).
func (s *Store) WatchEvents(wake func()) (stop func()) {
	return s.d.outbox.feed.subscribe(wake)
}

// eventFeed is the in-process list of the outbox's watchers.
type eventFeed struct {
	mu   sync.Mutex
	next int
	subs map[int]func()
}

func (f *eventFeed) subscribe(fn func()) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.subs == nil {
		f.subs = map[int]func(){}
	}
	id := f.next
	f.next++
	f.subs[id] = fn
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, id)
	}
}

func (f *eventFeed) wake() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, fn := range f.subs {
		fn()
	}
}

func webhookID(w *webhook.Webhook) string { return w.ID }

// InsertWebhook implements webhook.Store.
func (s *Store) InsertWebhook(ctx context.Context, w *webhook.Webhook) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.settings.webhooks, u, w.ProjectID, w.ID, "webhook", w.Clone())
	})
}

// GetWebhook implements webhook.Store.
func (s *Store) GetWebhook(ctx context.Context, projectID, id string) (out *webhook.Webhook, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.settings.webhooks, projectID, id, "webhook", (*webhook.Webhook).Clone)
	})
	return out, err
}

// ListWebhooks implements webhook.Store.
func (s *Store) ListWebhooks(ctx context.Context, projectID string, q promotype.Query) (out []*webhook.Webhook, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = listRows(&d.settings.webhooks, projectID, q, webhookID, (*webhook.Webhook).Clone)
	})
	return out, total, nil
}

// UpdateWebhook implements webhook.Store.
func (s *Store) UpdateWebhook(ctx context.Context, w *webhook.Webhook) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.settings.webhooks, u, w.ProjectID, w.ID, "webhook", w.Clone())
	})
}

// DeleteWebhook implements webhook.Store.
func (s *Store) DeleteWebhook(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.settings.webhooks, u, projectID, id, "webhook") })
}
