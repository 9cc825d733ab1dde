package promo_test

import (
	"context"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// A dispatcher prunes the settled deliveries older than its retention (and
// the events they delivered) when it starts; a newer delivery stays.
func TestWebhookRetention(t *testing.T) {
	eachDeliveryStore(t, func(t *testing.T, store storage.Store) {
		eng, p := newDeliveryEngine(t, store)
		rcv := newReceiver(t, p.WebhookToken, nil)
		wh := addWebhook(t, eng, p.ID, rcv.URL(), true, "campaign.created")
		clock := promotype.NewManualClock(time.Now())
		start := func() {
			t.Helper()
			if err := eng.StartWebhookDispatcher(context.Background(), webhook.WithClock(clock), webhook.WithRetention(24*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		delivered := func(n int) func([]*webhook.Sendout) bool {
			return func(log []*webhook.Sendout) bool {
				ok := 0
				for _, s := range log {
					if s.Status == webhook.SendoutDelivered {
						ok++
					}
				}
				return ok == n
			}
		}
		start()
		old := appendEvent(t, store, p.ID, "campaign.created")
		if log := waitSendouts(t, eng, p.ID, wh.ID, delivered(1)); len(log) != 1 {
			t.Fatalf("log before pruning = %d sendouts, want 1", len(log))
		}
		eng.Webhooks().StopDispatcher()

		clock.Advance(48 * time.Hour)
		start()
		log := waitSendouts(t, eng, p.ID, wh.ID, func(l []*webhook.Sendout) bool { return len(l) == 0 })
		if len(log) != 0 {
			t.Fatalf("the old delivery of %s was not pruned: %+v", old.ID, log[0])
		}
		appendEvent(t, store, p.ID, "campaign.created")
		if log := waitSendouts(t, eng, p.ID, wh.ID, delivered(1)); len(log) != 1 {
			t.Errorf("log after pruning = %d sendouts, want the new one", len(log))
		}
		if got := len(rcv.deliveries()); got != 2 {
			t.Errorf("receiver got %d deliveries, want 2", got)
		}
	})
}
