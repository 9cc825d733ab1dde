package promo_test

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// eachDeliveryStore runs fn on every store of storeFactories (memory, and
// Postgres when PROMO_TEST_POSTGRES_DSN is set).
func eachDeliveryStore(t *testing.T, fn func(t *testing.T, store storage.Store)) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fn(t, newStore(t))
		})
	}
}

// sendouts returns the log of a configuration (up to 100).
func sendouts(t testing.TB, eng *promo.Engine, projectID, webhookID string) []*webhook.Sendout {
	t.Helper()
	l, err := eng.Webhooks().Sendouts(context.Background(), projectID, webhookID, promotype.ListParams{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return l.Data
}

// waitSendouts waits (up to 10 s) until the log of a configuration
// satisfies cond, and returns it.
func waitSendouts(t testing.TB, eng *promo.Engine, projectID, webhookID string, cond func([]*webhook.Sendout) bool) []*webhook.Sendout {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		log := sendouts(t, eng, projectID, webhookID)
		if cond(log) || time.Now().After(deadline) {
			return log
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Events reach the active configurations that list them, signed with their
// project's token; inactive configurations and other projects get nothing.
// The dispatcher polls once an hour here: only the commit's wake-up can
// deliver in time.
func TestWebhookDelivery(t *testing.T) {
	eachDeliveryStore(t, func(t *testing.T, store storage.Store) {
		eng, p := newDeliveryEngine(t, store)
		if len(p.WebhookToken) < 32 {
			t.Fatalf("project webhook token %q is too short", p.WebhookToken)
		}
		other, err := eng.Projects().Create(context.Background(), project.Params{Name: "Other"})
		if err != nil {
			t.Fatal(err)
		}
		if other.WebhookToken == p.WebhookToken {
			t.Fatal("two projects share a webhook token")
		}
		got, err := eng.Projects().Get(context.Background(), p.ID)
		if err != nil || got.WebhookToken != p.WebhookToken {
			t.Fatalf("GetProject token = %q, %v; want the token made at creation", got.WebhookToken, err)
		}
		a := newReceiver(t, p.WebhookToken, nil)
		b := newReceiver(t, p.WebhookToken, nil)
		c := newReceiver(t, other.WebhookToken, nil)
		whA := addWebhook(t, eng, p.ID, a.URL(), true, "campaign.created", "voucher.created")
		whB := addWebhook(t, eng, p.ID, b.URL(), false, "campaign.created")
		whC := addWebhook(t, eng, other.ID, c.URL(), true, "campaign.created")
		if err := eng.StartWebhookDispatcher(context.Background(), webhook.WithPollInterval(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := eng.StartWebhookDispatcher(context.Background()); err == nil {
			t.Error("a second dispatcher started on the same engine")
		}

		e1 := appendEvent(t, store, p.ID, "campaign.created")
		e2 := appendEvent(t, store, p.ID, "voucher.created")
		appendEvent(t, store, p.ID, "customer.created") // nobody listens
		e4 := appendEvent(t, store, other.ID, "campaign.created")

		a.waitFor("project A's two events", 10*time.Second, func(r []received) bool { return len(r) == 2 })
		c.waitFor("project B's event", 10*time.Second, func(r []received) bool { return len(r) == 1 })

		byEvent := map[string]received{}
		for _, r := range a.deliveries() {
			byEvent[r.env.Event.ID] = r
		}
		r1, ok := byEvent[e1.ID]
		if !ok || byEvent[e2.ID].env.Type != "voucher.created" {
			t.Fatalf("receiver A got %v", byEvent)
		}
		if !strings.HasPrefix(r1.env.ID, webhook.PrefixSendout) {
			t.Errorf("envelope id %q is not a sendout id", r1.env.ID)
		}
		want := webhook.Envelope{
			ID: r1.env.ID, ProjectID: p.ID, CreatedAt: r1.env.CreatedAt, Type: "campaign.created", Data: e1.Data,
			Source: webhook.EnvelopeSource{ID: whA.ID, Object: "webhook", TargetURL: a.URL()},
			Event: webhook.EnvelopeEvent{ID: e1.ID, Type: "campaign.created", CreatedAt: e1.CreatedAt, EntityID: e1.EntityID,
				GroupID: e1.ID, EventSource: webhook.EventSource{Channel: "API"}},
		}
		diff(t, "envelope", want, r1.env)
		if !bytes.Contains(r1.body, []byte(`"<entity`)) || !bytes.Contains(r1.body, []byte(`& co>"`)) {
			t.Errorf("the body escapes HTML characters: %s", r1.body)
		}
		if c.deliveries()[0].env.Event.ID != e4.ID || c.deliveries()[0].env.Source.ID != whC.ID {
			t.Errorf("receiver C got %+v", c.deliveries()[0].env)
		}

		time.Sleep(100 * time.Millisecond) // anything more would have arrived by now
		if n := len(b.deliveries()); n != 0 {
			t.Errorf("the inactive configuration was sent %d deliveries", n)
		}
		if n := len(a.deliveries()); n != 2 {
			t.Errorf("receiver A got %d deliveries, want 2", n)
		}
		if n := len(sendouts(t, eng, p.ID, whB.ID)); n != 0 {
			t.Errorf("the inactive configuration has %d sendouts", n)
		}
		log := waitSendouts(t, eng, p.ID, whA.ID, func(log []*webhook.Sendout) bool {
			return len(log) == 2 && log[0].Status != webhook.SendoutPending && log[1].Status != webhook.SendoutPending
		})
		if len(log) != 2 {
			t.Fatalf("configuration A has %d sendouts, want 2", len(log))
		}
		for _, s := range log {
			if s.Status != webhook.SendoutDelivered || s.Attempts != 1 || s.LastStatusCode == nil || *s.LastStatusCode != 200 || s.DeliveredAt == nil {
				t.Errorf("sendout after one good try: %+v", s)
			}
		}
		if _, err := eng.Webhooks().Sendouts(context.Background(), other.ID, whA.ID, promotype.ListParams{}); err == nil {
			t.Error("project B lists the sendouts of project A's configuration")
		}
	})
}

// A receiver that keeps failing is tried on the schedule with the same
// body, then given up, and its configuration deactivated.
func TestWebhookRetriesThenDeactivates(t *testing.T) {
	eachDeliveryStore(t, func(t *testing.T, store storage.Store) {
		eng, p := newDeliveryEngine(t, store)
		r := newReceiver(t, p.WebhookToken, func(int64, *webhook.Envelope) int { return 500 })
		wh := addWebhook(t, eng, p.ID, r.URL(), true, "campaign.updated")
		schedule := webhook.Schedule{Tries: 3, Base: 40 * time.Millisecond, Max: time.Second}
		if err := eng.StartWebhookDispatcher(context.Background(), webhook.WithSchedule(schedule), webhook.WithPollInterval(time.Hour)); err != nil {
			t.Fatal(err)
		}
		appendEvent(t, store, p.ID, "campaign.updated")
		r.waitFor("three tries", 10*time.Second, func(got []received) bool { return len(got) == 3 })

		log := waitSendouts(t, eng, p.ID, wh.ID, func(log []*webhook.Sendout) bool {
			return len(log) == 1 && log[0].Status == webhook.SendoutFailed
		})
		if len(log) != 1 || log[0].Status != webhook.SendoutFailed || log[0].Attempts != 3 || *log[0].LastStatusCode != 500 {
			t.Fatalf("sendout after the last try: %+v", log)
		}
		got := r.deliveries()
		for i, d := range got {
			if !bytes.Equal(d.body, got[0].body) || d.signature != got[0].signature {
				t.Errorf("try %d sent another body or signature:\n%s\n%s", i+1, d.body, got[0].body)
			}
		}
		for i, min := range []time.Duration{40 * time.Millisecond, 80 * time.Millisecond} {
			if gap := got[i+1].at.Sub(got[i].at); gap < min-2*time.Millisecond {
				t.Errorf("retry %d came %v after the try before, want at least %v", i+1, gap, min)
			}
		}
		w, err := eng.Webhooks().Get(context.Background(), p.ID, wh.ID)
		if err != nil {
			t.Fatal(err)
		}
		if w.Active {
			t.Error("the configuration is still active after the last try")
		}
		// Deactivated: later events are not sent to it.
		appendEvent(t, store, p.ID, "campaign.updated")
		time.Sleep(150 * time.Millisecond)
		if n := len(r.deliveries()); n != 3 {
			t.Errorf("the deactivated configuration got %d deliveries, want 3", n)
		}
		if n := len(sendouts(t, eng, p.ID, wh.ID)); n != 1 {
			t.Errorf("the deactivated configuration has %d sendouts, want 1", n)
		}
	})
}

// A receiver that is down for a while (connections dropped, then 503s)
// gets every event once it is back.
func TestWebhookReceiverComesBack(t *testing.T) {
	eachDeliveryStore(t, func(t *testing.T, store storage.Store) {
		eng, p := newDeliveryEngine(t, store)
		var up atomic.Bool
		r := newReceiver(t, p.WebhookToken, func(n int64, _ *webhook.Envelope) int {
			switch {
			case up.Load():
				return 204
			case n%2 == 0:
				return 503
			}
			return 0 // connection dropped
		})
		wh := addWebhook(t, eng, p.ID, r.URL(), true, "voucher.created")
		schedule := webhook.Schedule{Tries: 30, Base: 10 * time.Millisecond, Max: 100 * time.Millisecond}
		if err := eng.StartWebhookDispatcher(context.Background(), webhook.WithSchedule(schedule)); err != nil {
			t.Fatal(err)
		}
		const n = 40
		want := map[string]int{}
		for range n {
			want[appendEvent(t, store, p.ID, "voucher.created").ID] = 1
		}
		// Every event is tried (and refused) at least once while the
		// receiver is down, before it comes back.
		r.waitFor("a try of every event while the receiver is down", 20*time.Second, func(got []received) bool {
			tried := map[string]bool{}
			for _, d := range got {
				tried[d.env.Event.ID] = true
			}
			return len(tried) == n
		})
		if got := r.accepted(); len(got) != 0 {
			t.Fatalf("a down receiver accepted %d events", len(got))
		}
		up.Store(true)
		r.waitFor("every event once the receiver is back", 20*time.Second, func([]received) bool { return len(r.accepted()) == n })
		diff(t, "events accepted", want, r.accepted())
		log := waitSendouts(t, eng, p.ID, wh.ID, func(log []*webhook.Sendout) bool {
			for _, s := range log {
				if s.Status == webhook.SendoutPending {
					return false
				}
			}
			return len(log) == n
		})
		for _, s := range log {
			if s.Status != webhook.SendoutDelivered || s.Attempts < 2 {
				t.Errorf("sendout %s: %s after %d tries", s.ID, s.Status, s.Attempts)
			}
		}
		if w, _ := eng.Webhooks().Get(context.Background(), p.ID, wh.ID); !w.Active {
			t.Error("the configuration was deactivated")
		}
	})
}

// Close stops the dispatcher: nothing is delivered after it returns, and a
// new dispatcher delivers what was left.
func TestWebhookDispatcherStopsOnClose(t *testing.T) {
	eachDeliveryStore(t, func(t *testing.T, store storage.Store) {
		eng, p := newDeliveryEngine(t, store)
		r := newReceiver(t, p.WebhookToken, nil)
		addWebhook(t, eng, p.ID, r.URL(), true, "customer.created")
		if err := eng.StartWebhookDispatcher(context.Background()); err != nil {
			t.Fatal(err)
		}
		first := appendEvent(t, store, p.ID, "customer.created")
		r.waitFor("the first event", 10*time.Second, func(got []received) bool { return len(got) == 1 })
		if err := eng.Close(); err != nil {
			t.Fatal(err)
		}
		second := appendEvent(t, store, p.ID, "customer.created")
		time.Sleep(100 * time.Millisecond)
		if n := len(r.deliveries()); n != 1 {
			t.Fatalf("%d deliveries after Close, want 1", n)
		}
		if err := eng.StartWebhookDispatcher(context.Background()); err != nil {
			t.Fatal(err)
		}
		r.waitFor("the event appended while stopped", 10*time.Second, func(got []received) bool { return len(got) == 2 })
		diff(t, "events", map[string]int{first.ID: 1, second.ID: 1}, r.accepted())
	})
}
