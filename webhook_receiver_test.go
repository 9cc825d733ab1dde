package promo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// receiver is a webhook receiver over a real HTTP server: it checks every
// delivery's signature with the project's webhook token and keeps what it
// was sent.
type receiver struct {
	t      testing.TB
	srv    *httptest.Server
	secret string
	// answer, when set, picks the status of the n-th delivery (from 1);
	// 0 closes the connection without an answer.
	answer func(n int64, env *webhook.Envelope) int

	n       atomic.Int64
	mu      sync.Mutex
	got     []received
	changed chan struct{}
}

// received is one delivery as the receiver saw it.
type received struct {
	at        time.Time
	body      []byte
	signature string
	env       webhook.Envelope
	status    int
}

func newReceiver(t testing.TB, secret string, answer func(n int64, env *webhook.Envelope) int) *receiver {
	r := &receiver{t: t, secret: secret, answer: answer, changed: make(chan struct{}, 1)}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) URL() string { return r.srv.URL + "/hook" }

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return
	}
	rec := received{at: time.Now(), body: body, signature: req.Header.Get(webhook.SignatureHeader), status: http.StatusOK}
	switch {
	case req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json":
		r.t.Errorf("delivery %s with content type %q", req.Method, req.Header.Get("Content-Type"))
		rec.status = http.StatusBadRequest
	case !webhook.Verify(r.secret, body, rec.signature):
		r.t.Errorf("delivery with a bad signature %q: %s", rec.signature, body)
		rec.status = http.StatusUnauthorized
	case json.Unmarshal(body, &rec.env) != nil:
		r.t.Errorf("delivery body is not an envelope: %s", body)
		rec.status = http.StatusBadRequest
	}
	n := r.n.Add(1)
	if r.answer != nil && rec.status == http.StatusOK {
		rec.status = r.answer(n, &rec.env)
	}
	r.mu.Lock()
	r.got = append(r.got, rec)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
	if rec.status == 0 { // down: drop the connection
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				_ = c.Close()
				return
			}
		}
		rec.status = http.StatusServiceUnavailable
	}
	w.WriteHeader(rec.status)
}

// deliveries returns a copy of what the receiver got.
func (r *receiver) deliveries() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// accepted returns the event ids answered 2xx, with their counts.
func (r *receiver) accepted() map[string]int {
	out := map[string]int{}
	for _, d := range r.deliveries() {
		if d.status >= 200 && d.status < 300 {
			out[d.env.Event.ID]++
		}
	}
	return out
}

// waitFor waits until cond holds for the receiver's deliveries.
func (r *receiver) waitFor(what string, timeout time.Duration, cond func([]received) bool) {
	r.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond(r.deliveries()) {
		select {
		case <-r.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline.C:
			r.t.Fatalf("%s: not after %v (%d deliveries)", what, timeout, len(r.deliveries()))
		}
	}
}

// quietLogger drops the dispatcher's logs (failed tries are expected).
func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// newDeliveryEngine returns an engine over store on the wall clock, allowed
// loopback targets, with a project; the engine is closed when t ends.
func newDeliveryEngine(t testing.TB, store storage.Store) (*promo.Engine, *project.Project) {
	t.Helper()
	eng, err := promo.New(store, promo.WithLogger(quietLogger()), promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	p, err := eng.CreateProject(context.Background(), project.Params{Name: "Shop"})
	if err != nil {
		t.Fatal(err)
	}
	return eng, p
}

// addWebhook creates a configuration of events to target.
func addWebhook(t testing.TB, eng *promo.Engine, projectID, target string, active bool, events ...string) *webhook.Webhook {
	t.Helper()
	w, err := eng.Webhooks().Create(context.Background(), projectID, webhook.Params{TargetURL: &target, Events: events, Active: &active})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

var eventSeq atomic.Int64

// appendEvent commits one event of type typ in project projectID, as a
// service would, and returns it.
func appendEvent(t testing.TB, store storage.Store, projectID, typ string) *promotype.Event {
	t.Helper()
	n := eventSeq.Add(1)
	e, err := promotype.NewEvent(promotype.DefaultEnv(), projectID, typ, fmt.Sprintf("ent_%d", n),
		map[string]any{"n": n, "name": fmt.Sprintf("<entity %d & co>", n)})
	if err != nil {
		t.Fatal(err)
	}
	err = store.RunInTx(context.Background(), func(ctx context.Context, tx storage.Tx) error { return tx.AppendEvents(ctx, e) })
	if err != nil {
		t.Fatal(err)
	}
	return e
}
