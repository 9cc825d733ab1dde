package promo_test

import (
	"context"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/webhook"
)

// migratedDB returns a migrated schema of the test database and a second
// pool over the same schema (another process, as far as PostgreSQL can
// tell). It skips t unless PROMO_TEST_POSTGRES_DSN is set.
func migratedDB(t *testing.T) (*bun.DB, *bun.DB) {
	t.Helper()
	db := bunstoretest.NewDB(t)
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := db.QueryRowContext(context.Background(), "SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	dsn := bunstoretest.DSN()
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		dsn = u.String()
	} else {
		dsn += " search_path=" + schema
	}
	other, err := bunstore.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	return db, other
}

// countingClient counts the requests an engine's dispatcher sends.
type countingClient struct{ n atomic.Int64 }

func (c *countingClient) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// produce appends n events of type typ, about one a millisecond, and
// closes the channel it returns when they are committed.
func produce(t *testing.T, store *bunstore.Store, projectID, typ string, n int) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range n {
			appendEvent(t, store, projectID, typ)
			time.Sleep(time.Millisecond)
		}
	}()
	return done
}

// A dispatcher stopped mid-stream (at once, as a crash, or gracefully)
// loses nothing: a new engine over the same schema delivers every event to
// every target at least once.
func TestWebhookPostgresRestart(t *testing.T) {
	for _, crash := range []bool{true, false} {
		name := "graceful"
		if crash {
			name = "crash"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db, other := migratedDB(t)
			store := bunstore.New(db)
			eng1, p := newDeliveryEngine(t, store)
			r1 := newReceiver(t, p.WebhookToken, nil)
			r2 := newReceiver(t, p.WebhookToken, nil)
			addWebhook(t, eng1, p.ID, r1.URL(), true, "voucher.created")
			addWebhook(t, eng1, p.ID, r2.URL(), true, "voucher.created", "voucher.updated")
			opts := []webhook.Option{webhook.WithLease(300 * time.Millisecond), webhook.WithPollInterval(50 * time.Millisecond)}
			ctx1, cancel1 := context.WithCancel(context.Background())
			defer cancel1()
			if err := eng1.StartWebhookDispatcher(ctx1, opts...); err != nil {
				t.Fatal(err)
			}

			const n = 300
			done := produce(t, store, p.ID, "voucher.created", n)
			r1.waitFor("a third of the events", 20*time.Second, func([]received) bool { return len(r1.accepted()) >= n/3 })
			if crash {
				cancel1()
			}
			if err := eng1.Close(); err != nil {
				t.Fatal(err)
			}
			stoppedAt := len(r1.accepted())

			eng2, err := promo.New(bunstore.New(other), promo.WithLogger(quietLogger()), promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: true}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = eng2.Close() })
			if err := eng2.StartWebhookDispatcher(context.Background(), opts...); err != nil {
				t.Fatal(err)
			}
			<-done
			for _, r := range []*receiver{r1, r2} {
				r.waitFor("every event", 30*time.Second, func([]received) bool { return len(r.accepted()) == n })
			}
			dups := 0
			for _, r := range []*receiver{r1, r2} {
				for _, c := range r.accepted() {
					dups += c - 1
				}
			}
			t.Logf("%s: stopped after %d of %d events; %d duplicate deliveries", name, stoppedAt, n, dups)

			var sendoutRows int
			if err := db.NewSelect().Table("promo_webhook_sendouts").ColumnExpr("count(*)").Scan(context.Background(), &sendoutRows); err != nil {
				t.Fatal(err)
			}
			if sendoutRows != 2*n {
				t.Errorf("%d sendouts for %d events and 2 targets, want %d", sendoutRows, n, 2*n)
			}
		})
	}
}

// Two dispatchers over one database share the work: each event reaches
// each target once, and no event gets two sendouts for one target.
func TestWebhookPostgresTwoDispatchers(t *testing.T) {
	t.Parallel()
	db, other := migratedDB(t)
	store := bunstore.New(db)
	eng1, p := newDeliveryEngine(t, store)
	eng2, err := promo.New(bunstore.New(other), promo.WithLogger(quietLogger()), promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng2.Close() })
	var receivers []*receiver
	for range 3 {
		r := newReceiver(t, p.WebhookToken, nil)
		receivers = append(receivers, r)
		addWebhook(t, eng1, p.ID, r.URL(), true, "campaign.updated")
	}
	var c1, c2 countingClient
	if err := eng1.StartWebhookDispatcher(context.Background(), webhook.WithHTTPClient(&http.Client{Transport: &c1})); err != nil {
		t.Fatal(err)
	}
	if err := eng2.StartWebhookDispatcher(context.Background(), webhook.WithHTTPClient(&http.Client{Transport: &c2})); err != nil {
		t.Fatal(err)
	}
	const n = 300
	done := produce(t, store, p.ID, "campaign.updated", n)
	<-done
	for _, r := range receivers {
		r.waitFor("every event", 30*time.Second, func([]received) bool { return len(r.accepted()) == n })
	}
	time.Sleep(100 * time.Millisecond) // a duplicate would have arrived by now
	for i, r := range receivers {
		for id, c := range r.accepted() {
			if c != 1 {
				t.Errorf("receiver %d got event %s %d times", i, id, c)
			}
		}
		if got := len(r.deliveries()); got != n {
			t.Errorf("receiver %d got %d deliveries for %d events", i, got, n)
		}
	}
	var rows []struct {
		WebhookID string `bun:"webhook_id"`
		N         int    `bun:"n"`
		Events    int    `bun:"events"`
	}
	err = db.NewSelect().Table("promo_webhook_sendouts").Column("webhook_id").ColumnExpr("count(*) AS n").
		ColumnExpr("count(DISTINCT event_id) AS events").Group("webhook_id").Scan(context.Background(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(receivers) {
		t.Errorf("sendouts of %d configurations, want %d", len(rows), len(receivers))
	}
	for _, r := range rows {
		if r.N != n || r.Events != n {
			t.Errorf("configuration %s has %d sendouts of %d events, want %d of %d", r.WebhookID, r.N, r.Events, n, n)
		}
	}
	t.Logf("requests: dispatcher 1 sent %d, dispatcher 2 sent %d", c1.n.Load(), c2.n.Load())
}
