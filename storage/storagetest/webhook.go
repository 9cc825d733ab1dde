package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

func testWebhooks(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	w1 := &webhook.Webhook{ID: "wh_1", ProjectID: p, CreatedAt: at(1), TargetURL: "https://a.example/1", Events: []string{"campaign.created", "voucher.created"}, Active: true, Object: "webhook"}
	w2 := &webhook.Webhook{ID: "wh_2", ProjectID: p, CreatedAt: at(2), TargetURL: "https://a.example/2", Events: []string{"customer.created"}, Object: "webhook"}
	must(t, s.InsertWebhook(ctx, w1))
	must(t, s.InsertWebhook(ctx, w2))
	wantErr(t, "duplicate id", s.InsertWebhook(ctx, w1), promotype.ErrDuplicateFound)
	got, err := s.GetWebhook(ctx, p, "wh_1")
	must(t, err)
	diff(t, "webhook", w1, got)
	got.Events[0] = "mutated"
	again, _ := s.GetWebhook(ctx, p, "wh_1")
	diff(t, "webhook after caller mutation", w1, again)
	_, err = s.GetWebhook(ctx, q, "wh_1")
	wantErr(t, "other project", err, promotype.ErrNotFound)

	items, total, err := s.ListWebhooks(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	must(t, err)
	diff(t, "list ids", []string{"wh_2", "wh_1"}, ids(items, func(w *webhook.Webhook) string { return w.ID }))
	if total != 2 {
		t.Errorf("total = %d, want 2", total)
	}
	items, _, _ = s.ListWebhooks(ctx, q, promotype.Query{Limit: 10, OrderBy: "created_at"})
	if len(items) != 0 {
		t.Errorf("project B lists %d webhooks of A", len(items))
	}

	upd := w1.Clone()
	upd.Events = []string{"voucher.deleted"}
	upd.Active = false
	upd.UpdatedAt = at(5).Ptr()
	must(t, s.UpdateWebhook(ctx, upd))
	got, _ = s.GetWebhook(ctx, p, "wh_1")
	diff(t, "updated webhook", upd, got)
	wantErr(t, "update other project", s.UpdateWebhook(ctx, &webhook.Webhook{ID: "wh_1", ProjectID: q, CreatedAt: at(1)}), promotype.ErrNotFound)

	wantErr(t, "delete other project", s.DeleteWebhook(ctx, q, "wh_1"), promotype.ErrNotFound)
	must(t, s.DeleteWebhook(ctx, p, "wh_1"))
	wantErr(t, "delete twice", s.DeleteWebhook(ctx, p, "wh_1"), promotype.ErrNotFound)
}

func testOutbox(t *testing.T, newStore Factory) {
	t.Run("RollbackLeavesNothing", func(t *testing.T) { testOutboxRollback(t, newStore) })
	t.Run("FanOut", func(t *testing.T) { testOutboxFanOut(t, newStore) })
	t.Run("ClaimAndRecord", func(t *testing.T) { testOutboxClaim(t, newStore) })
	t.Run("ConcurrentFanOut", func(t *testing.T) { testOutboxConcurrentFanOut(t, newStore) })
	t.Run("ConcurrentClaims", func(t *testing.T) { testOutboxConcurrentClaims(t, newStore) })
	t.Run("Isolation", func(t *testing.T) { testOutboxIsolation(t, newStore) })
	t.Run("Prune", func(t *testing.T) { testOutboxPrune(t, newStore) })
	t.Run("DropsUnheard", func(t *testing.T) { testOutboxDropsUnheard(t, newStore) })
}

// outboxProject stores a project with a webhook token.
func outboxProject(t testing.TB, s storage.Store, id string) string {
	t.Helper()
	must(t, s.InsertProject(ctx, &project.Project{ID: id, Name: "Project " + id, TimeZone: "UTC", CreatedAt: at(0), WebhookToken: "token-" + id}))
	return id
}

func hook(projectID, id string, minute int, active bool, events ...string) *webhook.Webhook {
	return &webhook.Webhook{ID: id, Object: "webhook", ProjectID: projectID, CreatedAt: at(minute),
		TargetURL: "https://hooks.example.com/" + id, Events: events, Active: active}
}

func event(projectID, id string, minute int, typ string) *promotype.Event {
	return &promotype.Event{ID: id, ProjectID: projectID, Type: typ, EntityID: "ent_" + id, CreatedAt: at(minute),
		Data: json.RawMessage(fmt.Sprintf(`{"id":%q,"n":%d,"text":"<a&b>"}`, id, minute))}
}

// insertListeners stores the configurations the heard-events tests hear
// by: in p an inactive one and one created at minute 30 for
// campaign.created, one for voucher.created; in q one for
// campaign.created.
func insertListeners(t testing.TB, s storage.Store, p, q string) {
	t.Helper()
	for _, w := range []*webhook.Webhook{
		hook(p, "wh_inactive", 0, false, "campaign.created"),
		hook(p, "wh_other", 0, true, "voucher.created"),
		hook(p, "wh_late", 30, true, "campaign.created"),
		hook(q, "wh_b", 0, true, "campaign.created"),
	} {
		must(t, s.InsertWebhook(ctx, w))
	}
}

// appendEvents appends events in one committed transaction.
func appendEvents(t testing.TB, s storage.Store, events ...*promotype.Event) {
	t.Helper()
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return tx.AppendEvents(ctx, events...) }))
}

// planner makes one sendout per configuration passed and records what it
// was given: event id → configuration ids.
type planner struct {
	mu   sync.Mutex
	n    atomic.Int64
	seen map[string][]string
}

func (p *planner) plan(e *promotype.Event, hooks []*webhook.Webhook) []*webhook.Sendout {
	p.mu.Lock()
	if p.seen == nil {
		p.seen = map[string][]string{}
	}
	var ids []string
	for _, w := range hooks {
		ids = append(ids, w.ID)
	}
	slices.Sort(ids)
	p.seen[e.ID] = ids
	p.mu.Unlock()
	out := make([]*webhook.Sendout, 0, len(hooks))
	for _, w := range hooks {
		n := p.n.Add(1)
		out = append(out, &webhook.Sendout{
			ID: fmt.Sprintf("whs_%05d", n), Object: "webhook_sendout", ProjectID: e.ProjectID, WebhookID: w.ID,
			EventID: e.ID, EventType: e.Type, TargetURL: w.TargetURL, Status: webhook.SendoutPending,
			CreatedAt: e.CreatedAt, NextAttemptAt: e.CreatedAt.Ptr(),
		})
	}
	return out
}

func fanOut(t testing.TB, s storage.Store, limit int, p *planner) (int, int) {
	t.Helper()
	events, stored, err := s.FanOutEvents(ctx, limit, p.plan)
	must(t, err)
	for _, d := range stored {
		sd := d.Sendout
		if d.Event == nil || d.Event.ID != sd.EventID || d.Webhook == nil || d.Webhook.ID != sd.WebhookID || d.Secret != "token-"+sd.ProjectID {
			t.Errorf("stored delivery %s: event %+v, webhook %+v, secret %q", sd.ID, d.Event, d.Webhook, d.Secret)
		}
	}
	return events, len(stored)
}

func testOutboxRollback(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	must(t, s.InsertWebhook(ctx, hook(p, "wh_1", 0, true, "campaign.created")))
	boom := errors.New("boom")
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.AppendEvents(ctx, event(p, "evt_1", 1, "campaign.created")))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("RunInTx = %v, want boom", err)
	}
	var pl planner
	if events, sendouts := fanOut(t, s, 10, &pl); events != 0 || sendouts != 0 {
		t.Fatalf("after a rolled back append, fan-out took %d events into %d sendouts, want none", events, sendouts)
	}
	appendEvents(t, s, event(p, "evt_2", 2, "campaign.created"))
	if events, sendouts := fanOut(t, s, 10, &pl); events != 1 || sendouts != 1 {
		t.Fatalf("fan-out of one committed event = %d events, %d sendouts; want 1, 1", events, sendouts)
	}
	diff(t, "events planned", map[string][]string{"evt_2": {"wh_1"}}, pl.seen)
}

func testOutboxFanOut(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	q := outboxProject(t, s, "proj_b")
	for _, w := range []*webhook.Webhook{
		hook(p, "wh_a1", 1, true, "campaign.created", "voucher.created"),
		hook(p, "wh_a2", 1, false, "campaign.created"), // inactive
		hook(p, "wh_a3", 1, true, "voucher.created"),
		hook(p, "wh_a4", 30, true, "campaign.created"), // created after the events
		hook(q, "wh_b1", 1, true, "campaign.created"),
	} {
		must(t, s.InsertWebhook(ctx, w))
	}
	appendEvents(t, s,
		event(p, "evt_1", 10, "campaign.created"),
		event(p, "evt_2", 11, "voucher.created"),
		event(p, "evt_3", 12, "customer.created"), // nobody listens: not stored
	)
	appendEvents(t, s, event(q, "evt_4", 13, "campaign.created"), event(p, "evt_5", 14, "campaign.vouchers.aded")) // nor evt_5

	var pl planner
	// Batches take the oldest events first.
	if events, sendouts := fanOut(t, s, 2, &pl); events != 2 || sendouts != 3 {
		t.Errorf("first batch = %d events, %d sendouts; want 2, 3", events, sendouts)
	}
	diff(t, "first batch", []string{"evt_1", "evt_2"}, sortedKeys(pl.seen))
	if events, sendouts := fanOut(t, s, 10, &pl); events != 1 || sendouts != 1 {
		t.Errorf("second batch = %d events, %d sendouts; want 1, 1 (evt_3 and evt_5 were not stored)", events, sendouts)
	}
	if events, sendouts := fanOut(t, s, 10, &pl); events != 0 || sendouts != 0 {
		t.Errorf("third batch = %d events, %d sendouts; want nothing left", events, sendouts)
	}
	diff(t, "configurations per event", map[string][]string{
		"evt_1": {"wh_a1"}, "evt_2": {"wh_a1", "wh_a3"}, "evt_4": {"wh_b1"},
	}, pl.seen)

	// A second sendout for the same event and configuration is ignored.
	appendEvents(t, s, event(p, "evt_6", 20, "voucher.created"))
	twice := func(e *promotype.Event, hooks []*webhook.Webhook) []*webhook.Sendout {
		one := pl.plan(e, hooks[:1])
		two := pl.plan(e, hooks[:1])
		return append(one, two...)
	}
	events, stored, err := s.FanOutEvents(ctx, 10, twice)
	must(t, err)
	if events != 1 || len(stored) != 1 {
		t.Fatalf("duplicate plan = %d events, %d sendouts; want 1, 1", events, len(stored))
	}
	if stored[0].Sendout.ID != "whs_00005" {
		t.Errorf("stored %s of the duplicates, want the first, whs_00005", stored[0].Sendout.ID)
	}

	// A sendout planned already claimed is claimable only after its lease.
	appendEvents(t, s, event(p, "evt_7", 21, "voucher.created"))
	claimed := func(e *promotype.Event, hooks []*webhook.Webhook) []*webhook.Sendout {
		out := pl.plan(e, hooks)
		for _, sd := range out {
			sd.Attempts, sd.NextAttemptAt = 1, at(50).Ptr()
		}
		return out
	}
	_, stored, err = s.FanOutEvents(ctx, 10, claimed)
	must(t, err)
	if len(stored) != 2 || stored[0].Sendout.Attempts != 1 {
		t.Fatalf("stored %d claimed sendouts", len(stored))
	}
	due, err := s.ClaimSendouts(ctx, at(49), at(100), 100)
	must(t, err)
	for _, d := range due {
		if d.Sendout.EventID == "evt_7" {
			t.Errorf("%s claimed during the lease its planner took", d.Sendout.ID)
		}
	}
	due, err = s.ClaimSendouts(ctx, at(50), at(100), 100)
	must(t, err)
	var mine []int
	for _, d := range due {
		if d.Sendout.EventID == "evt_7" {
			mine = append(mine, d.Sendout.Attempts)
		}
	}
	diff(t, "attempts of evt_7's sendouts claimed after the lease", []int{2, 2}, mine)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func testOutboxClaim(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	got, err := s.GetProject(ctx, p)
	must(t, err)
	if got.WebhookToken != "token-"+p {
		t.Errorf("webhook token = %q, want it stored", got.WebhookToken)
	}
	w1 := hook(p, "wh_1", 1, true, "campaign.created")
	w2 := hook(p, "wh_2", 1, true, "campaign.created")
	must(t, s.InsertWebhook(ctx, w1))
	must(t, s.InsertWebhook(ctx, w2))
	e1 := event(p, "evt_1", 10, "campaign.created")
	appendEvents(t, s, e1)
	var pl planner
	fanOut(t, s, 10, &pl) // whs_00001 → wh_1, whs_00002 → wh_2, due at minute 10

	if d, err := s.ClaimSendouts(ctx, at(9), at(19), 10); err != nil || len(d) != 0 {
		t.Fatalf("claim before due = %d, %v; want none", len(d), err)
	}
	claimed, err := s.ClaimSendouts(ctx, at(10), at(20), 1)
	must(t, err)
	if len(claimed) != 1 {
		t.Fatalf("claimed %d sendouts with limit 1", len(claimed))
	}
	want := &webhook.Delivery{
		Sendout: &webhook.Sendout{ID: "whs_00001", Object: "webhook_sendout", ProjectID: p, WebhookID: "wh_1", EventID: "evt_1",
			EventType: "campaign.created", TargetURL: w1.TargetURL, Status: webhook.SendoutPending, Attempts: 1,
			CreatedAt: at(10), NextAttemptAt: at(20).Ptr()},
		Event: e1, Webhook: w1, Secret: "token-" + p,
	}
	diff(t, "claimed delivery", want, claimed[0])
	if !json.Valid(claimed[0].Event.Data) || string(claimed[0].Event.Data) != string(e1.Data) {
		t.Errorf("event data = %s, want %s byte for byte", claimed[0].Event.Data, e1.Data)
	}
	second, err := s.ClaimSendouts(ctx, at(10), at(20), 10)
	must(t, err)
	diff(t, "second claim", []string{"whs_00002"}, ids(second, func(d *webhook.Delivery) string { return d.Sendout.ID }))
	if d, _ := s.ClaimSendouts(ctx, at(19), at(29), 10); len(d) != 0 {
		t.Fatalf("claimed %d leased sendouts before their lease ended", len(d))
	}

	// A failed try: due again at minute 25, attempt 1 recorded.
	failed := claimed[0].Sendout.Clone()
	failed.NextAttemptAt, failed.LastAttemptAt = at(25).Ptr(), at(11).Ptr()
	failed.LastStatusCode, failed.LastError = ptr(500), ptr("the receiver answered 500")
	stale := failed.Clone()
	stale.Attempts = 7
	record(t, s, "record with another attempt count", []string{failed.ID}, webhook.Outcome{Sendout: stale})
	record(t, s, "record a failed try", nil, webhook.Outcome{Sendout: failed})

	// The lease of whs_00002 ends at minute 20: claimable again, attempt 2.
	// whs_00001 is due at 25.
	again, err := s.ClaimSendouts(ctx, at(20), at(30), 10)
	must(t, err)
	diff(t, "claim after the lease", []string{"whs_00002"}, ids(again, func(d *webhook.Delivery) string { return d.Sendout.ID }))
	if again[0].Sendout.Attempts != 2 {
		t.Errorf("attempts after a lease ran out = %d, want 2", again[0].Sendout.Attempts)
	}
	// The first holder's late outcome is refused.
	late := second[0].Sendout.Clone()
	late.Status, late.DeliveredAt, late.NextAttemptAt = webhook.SendoutDelivered, at(21).Ptr(), nil
	delivered := again[0].Sendout.Clone()
	delivered.Status, delivered.DeliveredAt, delivered.LastAttemptAt, delivered.NextAttemptAt = webhook.SendoutDelivered, at(21).Ptr(), at(21).Ptr(), nil
	delivered.LastStatusCode = ptr(204)
	// One batch: the late outcome is refused, the current one applies.
	record(t, s, "outcome after the lease was taken over", []string{late.ID}, webhook.Outcome{Sendout: late}, webhook.Outcome{Sendout: delivered})

	retry, err := s.ClaimSendouts(ctx, at(25), at(35), 10)
	must(t, err)
	diff(t, "retry claim", []string{"whs_00001"}, ids(retry, func(d *webhook.Delivery) string { return d.Sendout.ID }))
	gaveUp := retry[0].Sendout.Clone()
	gaveUp.Status, gaveUp.NextAttemptAt, gaveUp.LastAttemptAt = webhook.SendoutFailed, nil, at(26).Ptr()
	record(t, s, "give up", nil, webhook.Outcome{Sendout: gaveUp, Deactivate: true})
	if d, _ := s.ClaimSendouts(ctx, at(1000), at(1010), 10); len(d) != 0 {
		t.Errorf("settled sendouts were claimed again: %d", len(d))
	}
	off, err := s.GetWebhook(ctx, p, "wh_1")
	must(t, err)
	wantOff := w1.Clone()
	wantOff.Active, wantOff.UpdatedAt = false, at(26).Ptr()
	diff(t, "configuration after the last try", wantOff, off)

	// The log of wh_1 and of wh_2.
	log1, total, err := s.ListSendouts(ctx, p, "wh_1", promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	must(t, err)
	diff(t, "wh_1 log", []*webhook.Sendout{gaveUp}, log1)
	if total != 1 {
		t.Errorf("wh_1 total = %d", total)
	}
	log2, _, err := s.ListSendouts(ctx, p, "wh_2", promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	must(t, err)
	diff(t, "wh_2 log", []*webhook.Sendout{delivered}, log2)
	log2[0].Status = "mutated"
	log2, _, _ = s.ListSendouts(ctx, p, "wh_2", promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	diff(t, "wh_2 log after caller mutation", []*webhook.Sendout{delivered}, log2)
	filtered, total, err := s.ListSendouts(ctx, p, "wh_2", promotype.Query{Limit: 10, OrderBy: "created_at",
		Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "status", Op: promotype.OpIs, Values: []string{"PENDING"}}}}})
	must(t, err)
	if len(filtered) != 0 || total != 0 {
		t.Errorf("status filter PENDING listed %d (total %d), want none", len(filtered), total)
	}

	// An inactive configuration is sent nothing more, and a claimed
	// sendout shows the configuration as it is now.
	appendEvents(t, s, event(p, "evt_2", 40, "campaign.created"))
	fanOut(t, s, 10, &pl)
	diff(t, "fan-out after deactivation", []string{"wh_2"}, pl.seen["evt_2"])
	w2off := w2.Clone()
	w2off.Active, w2off.UpdatedAt = false, at(41).Ptr()
	must(t, s.UpdateWebhook(ctx, w2off))
	late2, err := s.ClaimSendouts(ctx, at(41), at(51), 10)
	must(t, err)
	if len(late2) != 1 || late2[0].Webhook == nil || late2[0].Webhook.Active {
		t.Fatalf("claim of a deactivated configuration's sendout: %+v", late2)
	}
}

// record records outcomes and checks which were refused.
func record(t testing.TB, s storage.Store, what string, wantLost []string, outcomes ...webhook.Outcome) {
	t.Helper()
	lost, err := s.RecordSendouts(ctx, outcomes...)
	must(t, err)
	diff(t, what+": lost", wantLost, lost)
}

func testOutboxConcurrentFanOut(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	must(t, s.InsertWebhook(ctx, hook(p, "wh_1", 0, true, "voucher.created")))
	const n = 60
	for i := range n {
		appendEvents(t, s, event(p, fmt.Sprintf("evt_%03d", i), 1, "voucher.created"))
	}
	var pl planner
	var wg sync.WaitGroup
	var events, sendouts atomic.Int64
	for range 6 {
		wg.Go(func() {
			for {
				e, stored, err := s.FanOutEvents(ctx, 4, pl.plan)
				if err != nil {
					t.Error(err)
					return
				}
				events.Add(int64(e))
				sendouts.Add(int64(len(stored)))
				if e == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	if events.Load() != n || sendouts.Load() != n || pl.n.Load() != n {
		t.Errorf("concurrent fan-out took %d events into %d sendouts (%d planned), want %d each", events.Load(), sendouts.Load(), pl.n.Load(), n)
	}
}

func testOutboxConcurrentClaims(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	for i := range 3 {
		must(t, s.InsertWebhook(ctx, hook(p, fmt.Sprintf("wh_%d", i), 0, true, "voucher.created")))
	}
	const n = 30
	evs := make([]*promotype.Event, n)
	for i := range n {
		evs[i] = event(p, fmt.Sprintf("evt_%03d", i), 1, "voucher.created")
	}
	appendEvents(t, s, evs...)
	var pl planner
	fanOut(t, s, 100, &pl)

	var mu sync.Mutex
	claims := map[string]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				got, err := s.ClaimSendouts(ctx, at(5), at(60), 3)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, d := range got {
					claims[d.Sendout.ID]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(claims) != 3*n {
		t.Errorf("claimed %d distinct sendouts, want %d", len(claims), 3*n)
	}
	for id, c := range claims {
		if c != 1 {
			t.Errorf("%s claimed %d times", id, c)
		}
	}
}

func testOutboxIsolation(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	q := outboxProject(t, s, "proj_b")
	must(t, s.InsertWebhook(ctx, hook(p, "wh_1", 0, true, "campaign.created")))
	// Project B has a configuration with the same id listening to the same
	// event: it hears only B's events.
	must(t, s.InsertWebhook(ctx, hook(q, "wh_1", 0, true, "campaign.created")))
	appendEvents(t, s, event(p, "evt_1", 1, "campaign.created"), event(p, "evt_2", 2, "campaign.created"), event(q, "evt_1", 3, "campaign.created"))
	var pl planner
	fanOut(t, s, 10, &pl)

	list := func(projectID string, q promotype.Query) ([]string, int) {
		items, total, err := s.ListSendouts(ctx, projectID, "wh_1", q)
		must(t, err)
		out := make([]string, len(items))
		for i, it := range items {
			if it.ProjectID != projectID {
				t.Errorf("project %s lists sendout %s of %s", projectID, it.ID, it.ProjectID)
			}
			out[i] = it.EventID
		}
		return out, total
	}
	newest := promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true}
	a, total := list(p, newest)
	diff(t, "project A's log, newest first", []string{"evt_2", "evt_1"}, a)
	if total != 2 {
		t.Errorf("project A total = %d", total)
	}
	b, _ := list(q, newest)
	diff(t, "project B's log", []string{"evt_1"}, b)
	page, total := list(p, promotype.Query{Limit: 1, Offset: 1, OrderBy: "created_at", Desc: true})
	diff(t, "second page", []string{"evt_1"}, page)
	if total != 2 {
		t.Errorf("paged total = %d, want 2", total)
	}
	none, total := list("proj_c", newest)
	if len(none) != 0 || total != 0 {
		t.Errorf("unknown project lists %v", none)
	}

	claimed, err := s.ClaimSendouts(ctx, at(100), at(110), 10)
	must(t, err)
	for _, d := range claimed {
		if d.Event.ProjectID != d.Sendout.ProjectID || d.Webhook.ProjectID != d.Sendout.ProjectID || d.Secret != "token-"+d.Sendout.ProjectID {
			t.Errorf("delivery %s mixes projects: event %s, webhook %s, secret %s", d.Sendout.ID, d.Event.ProjectID, d.Webhook.ProjectID, d.Secret)
		}
	}
	if len(claimed) != 3 {
		t.Errorf("claimed %d sendouts across projects, want 3", len(claimed))
	}
}

// testOutboxPrune removes old settled sendouts and the fanned-out events
// nothing refers to any more, and nothing a delivery still needs.
func testOutboxPrune(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	must(t, s.InsertWebhook(ctx, hook(p, "wh_1", 0, true, "campaign.created")))
	later := hook(p, "wh_2", 0, true, "customer.created")
	must(t, s.InsertWebhook(ctx, later))
	appendEvents(t, s, event(p, "evt_old_done", 1, "campaign.created"), event(p, "evt_old_pending", 2, "campaign.created"),
		event(p, "evt_old_unheard", 3, "customer.created"), event(p, "evt_new_done", 50, "campaign.created"))
	later.Active = false // deactivated before the fan-out: evt_old_unheard gets no sendout
	must(t, s.UpdateWebhook(ctx, later))
	var pl planner
	if events, sendouts := fanOut(t, s, 10, &pl); events != 4 || sendouts != 3 {
		t.Fatalf("fan-out = %d events, %d sendouts; want 4, 3", events, sendouts)
	}
	appendEvents(t, s, event(p, "evt_old_waiting", 4, "campaign.created")) // not fanned out yet
	claimed, err := s.ClaimSendouts(ctx, at(60), at(61), 10)
	must(t, err)
	var outcomes []webhook.Outcome
	for _, d := range claimed {
		sd := d.Sendout.Clone()
		sd.LastAttemptAt = at(60).Ptr()
		if sd.EventID == "evt_old_pending" { // a failed try, due again later
			sd.NextAttemptAt, sd.LastStatusCode = at(70).Ptr(), promotype.Ptr(500)
		} else {
			sd.Status, sd.NextAttemptAt, sd.DeliveredAt, sd.LastStatusCode = webhook.SendoutDelivered, nil, at(60).Ptr(), promotype.Ptr(200)
		}
		outcomes = append(outcomes, webhook.Outcome{Sendout: sd})
	}
	lost, err := s.RecordSendouts(ctx, outcomes...)
	must(t, err)
	if len(claimed) != 3 || len(lost) != 0 {
		t.Fatalf("claimed %d sendouts, lost %v; want 3, none", len(claimed), lost)
	}

	n, err := s.PruneOutbox(ctx, at(10), 100)
	must(t, err)
	if n != 3 { // the sendout of evt_old_done, evt_old_done, evt_old_unheard
		t.Errorf("PruneOutbox removed %d rows, want 3", n)
	}
	left, _, err := s.ListSendouts(ctx, p, "wh_1", promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	var events []string
	for _, sd := range left {
		events = append(events, sd.EventID)
	}
	diff(t, "sendouts kept", []string{"evt_old_pending", "evt_new_done"}, events)
	if n, err := s.PruneOutbox(ctx, at(10), 100); err != nil || n != 0 {
		t.Errorf("second PruneOutbox = %d, %v; want nothing left to remove", n, err)
	}

	// What deliveries still need is intact: the pending sendout's event,
	// and the event not fanned out yet.
	again, err := s.ClaimSendouts(ctx, at(70), at(71), 10)
	must(t, err)
	if len(again) != 1 || again[0].Event == nil || again[0].Event.ID != "evt_old_pending" || again[0].Secret != "token-"+p {
		t.Errorf("claim after pruning = %+v, want the pending sendout of evt_old_pending with its event", again)
	}
	pl.seen = nil
	if events, sendouts := fanOut(t, s, 10, &pl); events != 1 || sendouts != 1 {
		t.Errorf("fan-out after pruning = %d events, %d sendouts; want the waiting event's 1, 1", events, sendouts)
	}
	diff(t, "fanned out after pruning", map[string][]string{"evt_old_waiting": {"wh_1"}}, pl.seen)
}

// testOutboxDropsUnheard stores only the events some active configuration
// of their project, existing by then, lists: the others would never be
// sent.
func testOutboxDropsUnheard(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := outboxProject(t, s, "proj_a")
	q := outboxProject(t, s, "proj_b")
	insertListeners(t, s, p, q)
	appendEvents(t, s, event(p, "evt_1", 10, "campaign.created"))
	var pl planner
	if events, _ := fanOut(t, s, 10, &pl); events != 0 {
		t.Errorf("an event no configuration of its project heard was stored (%d taken)", events)
	}
	appendEvents(t, s, event(p, "evt_2", 11, "voucher.created"), event(p, "evt_3", 40, "campaign.created"))
	if events, sendouts := fanOut(t, s, 10, &pl); events != 2 || sendouts != 2 {
		t.Errorf("fan-out = %d events, %d sendouts; want the two heard, 2", events, sendouts)
	}
	diff(t, "heard events", map[string][]string{"evt_2": {"wh_other"}, "evt_3": {"wh_late"}}, pl.seen)

	// Heard answers what AppendEvents keeps, in a transaction and out of one.
	cases := []struct {
		project, typ string
		minute       int
		want         bool
	}{
		{p, "campaign.created", 10, false}, // only the inactive and the later configuration list it
		{p, "voucher.created", 10, true},
		{p, "campaign.created", 30, true}, // the configuration created then hears it
		{p, "campaign.deleted", 40, false},
		{q, "campaign.created", 0, true},
		{"proj_c", "campaign.created", 40, false},
	}
	for _, c := range cases {
		got, err := s.Heard(ctx, c.project, c.typ, at(c.minute))
		must(t, err)
		var inTx bool
		must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) (err error) {
			inTx, err = tx.Heard(ctx, c.project, c.typ, at(c.minute))
			return err
		}))
		if got != c.want || inTx != c.want {
			t.Errorf("Heard(%s, %s, minute %d) = %v (in a transaction %v), want %v", c.project, c.typ, c.minute, got, inTx, c.want)
		}
	}
}
