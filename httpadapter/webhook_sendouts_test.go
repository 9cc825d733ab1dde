package httpadapter_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// roundTrip is an http.RoundTripper made of a function.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestWebhookSendouts delivers two events to a receiver (a stub transport:
// no network) that takes the first and fails the second, then reads the
// log through the management API.
func TestWebhookSendouts(t *testing.T) {
	h := newHarness(t)
	store := h.store
	mp := "/management/v1/projects/" + h.project.ID
	id := h.mustDo(req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"https://hooks.example.com/promo","events":["campaign.created"]}`}, http.StatusOK)["id"].(string)
	h.clock.Advance(time.Second)
	env := promotype.Env{Clock: h.clock, IDs: &promotype.SequentialIDs{}}
	for _, name := range []string{"Summer", "Winter"} {
		e, err := promotype.NewEvent(env, h.project.ID, "campaign.created", "camp_"+name, map[string]any{"campaign": map[string]string{"name": name}})
		if err != nil {
			t.Fatal(err)
		}
		e.ID = "evt_" + name
		if err := store.RunInTx(t.Context(), func(ctx context.Context, tx storage.Tx) error { return tx.AppendEvents(ctx, e) }); err != nil {
			t.Fatal(err)
		}
	}

	bodies := make(chan []byte, 10)
	receiver := roundTrip(func(r *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(r.Body)
		status := http.StatusNoContent
		if !webhook.Verify(h.project.WebhookToken, body, r.Header.Get(webhook.SignatureHeader)) {
			status = http.StatusUnauthorized
		} else if strings.Contains(string(body), "Winter") {
			status = http.StatusInternalServerError
		}
		bodies <- body
		return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}}, nil
	})
	if err := h.engine.StartWebhookDispatcher(t.Context(), webhook.WithHTTPClient(&http.Client{Transport: receiver}), webhook.WithPollInterval(10*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := h.engine.WebhookSendouts(t.Context(), h.project.ID, id, promotype.ListParams{})
		if err != nil {
			t.Fatal(err)
		}
		tried := 0
		for _, s := range l.Data {
			if s.LastAttemptAt != nil {
				tried++
			}
		}
		if tried == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sendouts not tried: %+v", l.Data)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := h.engine.Close(); err != nil {
		t.Fatal(err)
	}
	close(bodies)
	var types []string
	for b := range bodies {
		var env webhook.Envelope
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatal(err)
		}
		types = append(types, env.Type+" "+env.Source.ID)
	}
	if len(types) != 2 || types[0] != "campaign.created "+id {
		t.Errorf("envelopes received: %v", types)
	}

	h.run(t, "webhook_sendouts", []step{
		{"list", req{method: http.MethodGet, target: mp + "/webhooks/" + id + "/sendouts"}, 200},
		{"list_oldest_first_paged", req{method: http.MethodGet, target: mp + "/webhooks/" + id + "/sendouts?order=created_at&limit=1"}, 200},
		{"list_failed_pending", req{method: http.MethodGet, target: mp + "/webhooks/" + id + "/sendouts?filters[status][conditions][$is]=PENDING"}, 200},
		{"unknown_webhook", req{method: http.MethodGet, target: mp + "/webhooks/wh_nope/sendouts"}, 404},
		{"bad_order", req{method: http.MethodGet, target: mp + "/webhooks/" + id + "/sendouts?order=status"}, 400},
		{"unauthorized", req{method: http.MethodGet, target: mp + "/webhooks/" + id + "/sendouts", creds: credsNone}, 401},
	})
}
