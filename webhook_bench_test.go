package promo_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// BenchmarkWebhookDelivery appends events at 500 a second (each in its own
// transaction, as services do) while three receivers listen, one of which
// answers 500 to every tenth delivery. It reports the latency from the
// start of the appending transaction to the receiver for deliveries that
// succeeded on their first try (p50-ms, p99-ms), the events not received
// by every receiver once retries are over (lost, must be 0), and the
// retries made, and the rate at which events were appended (events/s). One
// iteration is the whole scenario:
//
//	go test -run '^$' -bench 'WebhookDelivery/memory/events=10000' -benchtime=1x .   # about 20 s
//	go test -run '^$' -bench 'WebhookDelivery/.*/events=1000' -benchtime=1x .        # 2 s per store
//
// The Postgres case runs when PROMO_TEST_POSTGRES_DSN is set.
func BenchmarkWebhookDelivery(b *testing.B) {
	for _, name := range []string{"memory", "postgres"} {
		newStore, ok := storeFactories[name]
		if !ok {
			continue
		}
		for _, events := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/events=%d", name, events), func(b *testing.B) {
				for range b.N {
					benchDelivery(b, newStore(b), events, 500)
				}
			})
		}
	}
}

func benchDelivery(b *testing.B, store storage.Store, events, perSecond int) {
	eng, p := newDeliveryEngine(b, store)
	var receivers []*receiver
	for i := range 3 {
		var answer func(n int64, _ *webhook.Envelope) int
		if i == 0 {
			answer = func(n int64, _ *webhook.Envelope) int {
				if n%10 == 0 {
					return http.StatusInternalServerError
				}
				return http.StatusOK
			}
		}
		r := newReceiver(b, p.WebhookToken, answer)
		receivers = append(receivers, r)
		addWebhook(b, eng, p.ID, r.URL(), true, "voucher.created")
	}
	schedule := webhook.Schedule{Tries: 10, Base: 10 * time.Millisecond, Max: 200 * time.Millisecond}
	if err := eng.StartWebhookDispatcher(context.Background(), webhook.WithSchedule(schedule)); err != nil {
		b.Fatal(err)
	}

	// The producer: event i is appended at start + i/perSecond (at once when
	// late), each in its own transaction.
	var appended sync.Map // event id → time the appending transaction started
	b.ResetTimer()
	start := time.Now()
	env := promotype.DefaultEnv()
	for i := range events {
		time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(perSecond))))
		e, err := promotype.NewEvent(env, p.ID, "voucher.created", fmt.Sprintf("v_%d", i), map[string]any{"code": fmt.Sprintf("CODE-%06d", i)})
		if err != nil {
			b.Fatal(err)
		}
		appended.Store(e.ID, time.Now())
		if err := store.RunInTx(context.Background(), func(ctx context.Context, tx storage.Tx) error { return tx.AppendEvents(ctx, e) }); err != nil {
			b.Fatal(err)
		}
	}
	rate := float64(events) / time.Since(start).Seconds()

	// Every receiver gets every event, retries included (30 s at most).
	deadline := time.Now().Add(30 * time.Second)
	for _, r := range receivers {
		for len(r.accepted()) < events && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
	}
	b.StopTimer()
	if err := eng.Close(); err != nil {
		b.Fatal(err)
	}

	var latencies []time.Duration
	lost, retries := 0, 0
	for _, r := range receivers {
		lost += events - len(r.accepted())
		seen := map[string]bool{}
		for _, d := range r.deliveries() {
			if seen[d.env.ID] {
				retries++
				continue
			}
			seen[d.env.ID] = true
			if d.status/100 != 2 {
				continue
			}
			if t0, ok := appended.Load(d.env.Event.ID); ok {
				latencies = append(latencies, d.at.Sub(t0.(time.Time)))
			}
		}
	}
	slices.Sort(latencies)
	ms := func(q float64) float64 {
		if len(latencies) == 0 {
			return 0
		}
		i := min(len(latencies)-1, int(q*float64(len(latencies))))
		return float64(latencies[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(ms(1), "max-ms")
	b.ReportMetric(float64(lost), "lost")
	b.ReportMetric(float64(retries), "retries")
	b.ReportMetric(rate, "events/s")
	if lost > 0 {
		b.Errorf("%d deliveries lost", lost)
	}
}
