package webhook

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 8_000_000, time.UTC)

func testEvent() *promotype.Event {
	return &promotype.Event{ID: "evt_1", ProjectID: "proj_1", Type: "campaign.vouchers.aded", EntityID: "camp_1",
		CreatedAt: promotype.NewTime(t0), Data: json.RawMessage(`{"campaign":{"name":"<Summer & co>"},"count":3}`)}
}

func testSendout() *Sendout {
	return &Sendout{ID: "whs_1", Object: "webhook_sendout", ProjectID: "proj_1", WebhookID: "wh_1", EventID: "evt_1",
		EventType: "campaign.vouchers.aded", TargetURL: "https://hooks.example.com/in", Status: SendoutPending,
		CreatedAt: promotype.NewTime(t0.Add(time.Second))}
}

// The documented delivery envelope, compact, unescaped, the type spelt as the
// payload documentation spells it ("added"); the same bytes for every try.
func TestBody(t *testing.T) {
	t.Parallel()
	s, e := testSendout(), testEvent()
	got, err := Body(s, e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"whs_1","project_id":"proj_1","created_at":"2026-03-04T05:06:08.008Z","type":"campaign.vouchers.added",` +
		`"data":{"campaign":{"name":"<Summer & co>"},"count":3},` +
		`"source":{"id":"wh_1","object":"webhook","target_url":"https://hooks.example.com/in"},` +
		`"event":{"id":"evt_1","type":"campaign.vouchers.added","created_at":"2026-03-04T05:06:07.008Z","entity_id":"camp_1",` +
		`"group_id":"evt_1","event_source":{"channel":"API"}}}`
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	// A later try of the same sendout (more attempts, other outcome fields)
	// sends the same bytes.
	retry := s.Clone()
	retry.Attempts, retry.LastStatusCode, retry.NextAttemptAt = 5, promotype.Ptr(500), promotype.NewTime(t0.Add(time.Hour)).Ptr()
	again, err := Body(retry, testEvent())
	if err != nil || string(again) != string(got) {
		t.Errorf("retry body = %s, %v; want the first try's", again, err)
	}
	empty := testEvent()
	empty.Data = nil
	if b, _ := Body(s, empty); !strings.Contains(string(b), `"data":{}`) {
		t.Errorf("an event without data gives %s", b)
	}
}

func TestHears(t *testing.T) {
	t.Parallel()
	e := testEvent()
	base := Webhook{ID: "wh_1", ProjectID: "proj_1", Active: true, Events: []string{"campaign.vouchers.aded"}, CreatedAt: e.CreatedAt}
	tests := []struct {
		name string
		edit func(w *Webhook)
		want bool
	}{
		{"listening", func(*Webhook) {}, true},
		{"inactive", func(w *Webhook) { w.Active = false }, false},
		{"other events", func(w *Webhook) { w.Events = []string{"campaign.vouchers.added", "campaign.created"} }, false},
		{"other project", func(w *Webhook) { w.ProjectID = "proj_2" }, false},
		{"created after the event", func(w *Webhook) { w.CreatedAt = promotype.NewTime(t0.Add(time.Millisecond)) }, false},
		{"created before the event", func(w *Webhook) { w.CreatedAt = promotype.NewTime(t0.Add(-time.Hour)) }, true},
	}
	for _, tc := range tests {
		w := base
		tc.edit(&w)
		if got := Hears(&w, e); got != tc.want {
			t.Errorf("%s: Hears = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The default client refuses loopback at connection time, whatever the URL
// says (here a policy check is bypassed by calling the client directly).
func TestDefaultClientDialPolicy(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	if _, err := newHTTPClient(TargetPolicy{}, 1).Get(srv.URL); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("strict client reached a loopback server: %v", err)
	}
	resp, err := newHTTPClient(TargetPolicy{AllowLoopback: true}, 1).Get(srv.URL)
	if err != nil {
		t.Fatalf("loopback client: %v", err)
	}
	_ = resp.Body.Close()
	// Redirects are not followed: a 3xx is not a delivery.
	redirect := httptest.NewServer(http.RedirectHandler(srv.URL, http.StatusFound))
	defer redirect.Close()
	resp, err = newHTTPClient(TargetPolicy{AllowLoopback: true}, 1).Get(redirect.URL)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("redirect followed: %d", resp.StatusCode)
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	long := errors.New(strings.Repeat("é", 400)) // 800 bytes
	if got := errorText(long); len(got) > maxErrorText || !utf8.ValidString(got) {
		t.Errorf("errorText kept %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	if got := errorText(errors.New("a\x00b\xffc")); got != "ab\uFFFDc" {
		t.Errorf("errorText = %q", got)
	}
}

func TestPlannerClaimsWhatItHasRoomFor(t *testing.T) {
	t.Parallel()
	clock := promotype.NewManualClock(t0)
	d := NewDispatcher(nil, WithClock(clock), WithIDGenerator(&promotype.SequentialIDs{}), WithConcurrency(2), WithLease(time.Minute))
	p := d.planner()
	e := testEvent()
	hooks := []*Webhook{
		{ID: "wh_1", ProjectID: "proj_1", Active: true, Events: []string{e.Type}, CreatedAt: e.CreatedAt, TargetURL: "https://a.example.com"},
		{ID: "wh_2", ProjectID: "proj_1", Active: false, Events: []string{e.Type}, CreatedAt: e.CreatedAt},
		{ID: "wh_3", ProjectID: "proj_1", Active: true, Events: []string{e.Type}, CreatedAt: e.CreatedAt},
		{ID: "wh_4", ProjectID: "proj_1", Active: true, Events: []string{e.Type}, CreatedAt: e.CreatedAt},
	}
	got := p.plan(e, hooks)
	type row struct {
		Webhook  string
		Attempts int
		Next     time.Time
		Mine     bool
	}
	var rows []row
	for _, s := range got {
		rows = append(rows, row{s.WebhookID, s.Attempts, s.NextAttemptAt.Time, p.mine[s.ID]})
	}
	lease := promotype.NewTime(t0.Add(time.Minute)).Time
	now := promotype.NewTime(t0).Time
	want := []row{{"wh_1", 1, lease, true}, {"wh_3", 1, lease, true}, {"wh_4", 0, now, false}}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
	if got[0].TargetURL != "https://a.example.com" || got[0].EventType != e.Type || got[0].Status != SendoutPending || got[0].Object != "webhook_sendout" {
		t.Errorf("sendout: %+v", got[0])
	}
}

// The four "aded" names of the configuration enum are delivered spelt
// "added"; every other name as it is.
func TestDeliveredType(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"campaign.vouchers.aded":                   "campaign.vouchers.added",
		"voucher.gift.balance_aded":                "voucher.gift.balance_added",
		"voucher.loyalty_card.points_aded":         "voucher.loyalty_card.points_added",
		"voucher.loyalty_card.pending_points.aded": "voucher.loyalty_card.pending_points.added",
	}
	for _, e := range Events {
		w, ok := want[e]
		if !ok {
			w = e
		}
		if got := DeliveredType(e); got != w {
			t.Errorf("DeliveredType(%q) = %q, want %q", e, got, w)
		}
	}
}
