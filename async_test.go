package promo_test

import (
	"context"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo/async"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// tickingClock moves 10 ms forward each time it is read.
type tickingClock struct{ n atomic.Int64 }

func (c *tickingClock) Now() promotype.Time {
	return promotype.NewTime(t0.Add(time.Duration(c.n.Add(1)) * 10 * time.Millisecond))
}

func TestAsyncActionLifecycle(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			eng, err := promo.New(newStore(t), promo.WithClock(&tickingClock{}), promo.WithIDGenerator(&promotype.SequentialIDs{}))
			if err != nil {
				t.Fatal(err)
			}
			p := must[*project.Project](t)(eng.CreateProject(ctx, project.Params{Name: "Shop"}))
			c := must[*campaign.Campaign](t)(eng.Campaigns().Create(async.WithRequestID(ctx, "v-000000000000000001"), p.ID, discountCampaign("Spring", 25)))
			l := must[*promo.List[*async.Action]](t)(eng.AsyncActions().List(ctx, p.ID, promo.ListParams{}))
			if l.Total != 1 {
				t.Fatalf("actions after create: %d", l.Total)
			}
			a := must[*async.Action](t)(eng.AsyncActions().Get(ctx, p.ID, l.Data[0].ID))
			if a.Type != campaign.ActionVouchersGenerate || a.Status != async.StatusEnqueued || a.OperationStatus != async.OperationUnknown ||
				a.Progress != 0 || a.ProcessingTime != 0 || a.RequestID != "v-000000000000000001" || a.UpdatedAt != nil || a.Object != "async_action" ||
				string(a.Result) != "null" {
				t.Errorf("enqueued action %+v %s", a, a.Result)
			}
			n, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10})
			if err != nil || n != 1 {
				t.Fatalf("RunPending = %d, %v", n, err)
			}
			a = must[*async.Action](t)(eng.AsyncActions().Get(ctx, p.ID, a.ID))
			if a.Status != async.StatusDone || a.OperationStatus != async.OperationSuccess || a.Progress != 100 || a.ProcessingTime <= 0 ||
				a.UpdatedAt == nil || string(a.Result) != `{"message":"Generated 25 vouchers.","done_count":25}` {
				t.Errorf("done action %+v %s", a, a.Result)
			}
			l = must[*promo.List[*async.Action]](t)(eng.AsyncActions().List(ctx, p.ID, promo.ListParams{}))
			if l.Data[0].Result != nil {
				t.Errorf("a list item has a result: %s", l.Data[0].Result)
			}
			if got := must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, p.ID, c.ID)); got.VouchersCount != 25 || got.CreationStatus != campaign.StatusDone {
				t.Errorf("campaign %s %d", got.CreationStatus, got.VouchersCount)
			}
			_, err = eng.AsyncActions().Get(ctx, p.ID, "aa_nope")
			if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "async_action" {
				t.Errorf("404 %+v", e)
			}
			if n, err := eng.AsyncActions().RunPending(ctx, async.Config{}); n != 0 || err != nil {
				t.Errorf("nothing left to run: %d, %v", n, err)
			}
		})
	}
}

// An action whose runners keep stopping mid-way ends FAILED with a reason
// (never IN_PROGRESS for ever), and so does its campaign.
func TestAsyncActionInterruptedTooOften(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			store := newStore(t)
			clock := promotype.NewManualClock(t0)
			eng := must[*promo.Engine](t)(promo.New(store, promo.WithClock(clock)))
			p := must[*project.Project](t)(eng.CreateProject(ctx, project.Params{Name: "Shop"}))
			c := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p.ID, discountCampaign("Spring", 5)))
			// A runner takes the action and dies.
			ghost := must[*async.Action](t)(store.ClaimAsyncAction(ctx, "ghost", clock.Now(), at(time.Minute)))
			if ghost == nil {
				t.Fatal("nothing to claim")
			}
			if n, _ := eng.AsyncActions().RunPending(ctx, async.Config{}); n != 0 {
				t.Error("an action was taken over while its lease ran")
			}
			clock.Advance(2 * time.Minute)
			if n, err := eng.AsyncActions().RunPending(ctx, async.Config{MaxAttempts: 1}); n != 1 || err != nil {
				t.Fatalf("RunPending = %d, %v", n, err)
			}
			a := must[*async.Action](t)(eng.AsyncActions().Get(ctx, p.ID, ghost.ID))
			if a.Status != async.StatusFailed || a.OperationStatus != async.OperationFailed ||
				string(a.Result) != `{"done_count":0,"message":"The action was interrupted 1 times and was not retried."}` {
				t.Errorf("action %+v %s", a, a.Result)
			}
			if got := must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, p.ID, c.ID)); got.CreationStatus != campaign.StatusFailed {
				t.Errorf("campaign %s", got.CreationStatus)
			}
		})
	}
}

// waitDone polls until every listed campaign is DONE.
func waitDone(t *testing.T, eng *promo.Engine, projectID string, ids []string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, id := range ids {
		for {
			c := must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, projectID, id))
			if c.CreationStatus == campaign.StatusDone {
				break
			}
			if c.CreationStatus == campaign.StatusFailed {
				t.Fatalf("campaign %s FAILED", id)
			}
			if time.Now().After(deadline) {
				t.Fatalf("campaign %s still %s after %v", id, c.CreationStatus, within)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// The background runner generates while other requests go on: the store
// is held one chunk at a time.
func TestAsyncRunnerInBackground(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			eng := must[*promo.Engine](t)(promo.New(newStore(t)))
			p := must[*project.Project](t)(eng.CreateProject(ctx, project.Params{Name: "Shop"}))
			must[struct{}](t)(struct{}{}, eng.StartAsyncRunner(context.Background(), async.Config{Workers: 2, ChunkSize: 1000}))
			if err := eng.StartAsyncRunner(context.Background(), async.Config{}); err == nil {
				t.Error("a second start did not fail")
			}
			defer eng.Close()
			var ids []string
			for _, name := range []string{"A", "B", "C"} {
				ids = append(ids, must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p.ID, discountCampaign(name, 20_000))).ID)
			}
			// Reads answer quickly while the vouchers are made.
			var slowest time.Duration
			for range 50 {
				start := time.Now()
				must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, p.ID, "A"))
				slowest = max(slowest, time.Since(start))
				time.Sleep(2 * time.Millisecond)
			}
			if slowest > 2*time.Second {
				t.Errorf("a read during generation took %v", slowest)
			}
			waitDone(t, eng, p.ID, ids, 2*time.Minute)
			for _, id := range ids {
				if c := must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, p.ID, id)); c.VouchersCount != 20_000 {
					t.Errorf("%s: %d vouchers", c.Name, c.VouchersCount)
				}
			}
			if l := must[*promo.List[*voucher.Voucher]](t)(eng.Vouchers().List(ctx, p.ID, voucher.ListParams{ListParams: promo.ListParams{Limit: 1}})); l.Total != 60_000 {
				t.Errorf("%d vouchers in the project", l.Total)
			}
			must[struct{}](t)(struct{}{}, eng.Close())
			must[struct{}](t)(struct{}{}, eng.Close()) // twice is fine
		})
	}
}

// A runner stopped abruptly mid-generation (its context cancelled: a crash)
// leaves the action IN_PROGRESS with its last chunk saved; once the lease
// runs out another engine over the same store resumes it and the campaign
// gets exactly its count of distinct codes.
func TestAsyncResumeAfterCrash(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			store := newStore(t)
			first := must[*promo.Engine](t)(promo.New(store))
			p := must[*project.Project](t)(first.CreateProject(ctx, project.Params{Name: "Shop"}))
			c := must[*campaign.Campaign](t)(first.Campaigns().Create(ctx, p.ID, discountCampaign("Spring", 30_000)))
			runCtx, crash := context.WithCancel(context.Background())
			must[struct{}](t)(struct{}{}, first.StartAsyncRunner(runCtx, async.Config{ChunkSize: 500, Lease: time.Second}))
			var a *async.Action
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
				l := must[*promo.List[*async.Action]](t)(first.AsyncActions().List(ctx, p.ID, promo.ListParams{}))
				a = l.Data[0]
				if a.Progress > 0 || time.Now().After(deadline) {
					break
				}
			}
			crash()
			time.Sleep(100 * time.Millisecond) // the cancelled chunk rolls back
			a = must[*async.Action](t)(store.GetAsyncAction(ctx, p.ID, a.ID))
			if a.Status != async.StatusInProgress || a.Progress == 0 || a.Progress == 100 {
				t.Fatalf("after the crash: %s at %d%% (the generation must be under way; make it longer)", a.Status, a.Progress)
			}
			if saved := must[*campaign.Campaign](t)(store.GetCampaign(ctx, p.ID, c.ID)); saved.VouchersCount != 0 || saved.CreationStatus != campaign.StatusInProgress {
				t.Errorf("campaign while generating: %s with %d vouchers, want IN_PROGRESS with 0", saved.CreationStatus, saved.VouchersCount)
			}

			// A second engine (a restarted process) waits for the lease, then resumes.
			second := must[*promo.Engine](t)(promo.New(store))
			if n, _ := second.AsyncActions().RunPending(ctx, async.Config{}); n != 0 {
				t.Error("the action was taken over before its lease ran out")
			}
			time.Sleep(1100 * time.Millisecond)
			if n, err := second.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 5000}); n != 1 || err != nil {
				t.Fatalf("RunPending = %d, %v", n, err)
			}
			a = must[*async.Action](t)(store.GetAsyncAction(ctx, p.ID, a.ID))
			if a.Status != async.StatusDone || a.Attempts != 2 || string(a.Result) != `{"message":"Generated 30000 vouchers.","done_count":30000}` {
				t.Errorf("resumed action %+v %s", a, a.Result)
			}
			got := must[*campaign.Campaign](t)(second.Campaigns().Get(ctx, p.ID, c.ID))
			if got.CreationStatus != campaign.StatusDone || got.VouchersCount != 30_000 {
				t.Errorf("campaign %s with %d vouchers", got.CreationStatus, got.VouchersCount)
			}
			// The store refuses a second live voucher with a code: as many
			// vouchers as the count means as many distinct codes.
			l := must[*promo.List[*voucher.Voucher]](t)(second.Vouchers().List(ctx, p.ID, voucher.ListParams{ListParams: promo.ListParams{Limit: 1}, CampaignID: &c.ID}))
			if l.Total != 30_000 {
				t.Errorf("%d vouchers listed", l.Total)
			}
		})
	}
}

// Two engines over one PostgreSQL schema run their runners side by side:
// every action runs once, every campaign gets exactly its count, no code
// twice.
func TestAsyncTwoEnginesOnePostgres(t *testing.T) {
	db := bunstoretest.NewDB(t)
	if err := bunstore.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := db.NewRaw("SELECT current_schema()").Scan(ctx, &schema); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(bunstoretest.DSN())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	db2, err := bunstore.Open(u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	stores := []storage.Store{bunstore.New(db), bunstore.New(db2)}
	var engines []*promo.Engine
	for i, s := range stores {
		eng := must[*promo.Engine](t)(promo.New(s))
		must[struct{}](t)(struct{}{}, eng.StartAsyncRunner(context.Background(), async.Config{Workers: 2, ChunkSize: 700, PollInterval: 20 * time.Millisecond, Owner: []string{"one", "two"}[i]}))
		defer eng.Close()
		engines = append(engines, eng)
	}
	p := must[*project.Project](t)(engines[0].CreateProject(ctx, project.Params{Name: "Shop"}))
	var ids []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := discountCampaign("C"+string(rune('A'+i)), 3000)
			in.Voucher.CodeConfig = &campaign.CodeConfig{Length: promo.Ptr(5), Charset: promo.Ptr("ABCDEFGHJKLMNPQRSTUVWXYZ")}
			c, err := engines[i%2].Campaigns().Create(ctx, p.ID, in)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			ids = append(ids, c.ID)
			mu.Unlock()
		}()
	}
	wg.Wait()
	waitDone(t, engines[1], p.ID, ids, 3*time.Minute)
	for _, id := range ids {
		if c := must[*campaign.Campaign](t)(engines[0].Campaigns().Get(ctx, p.ID, id)); c.VouchersCount != 3000 {
			t.Errorf("%s: %d vouchers", c.Name, c.VouchersCount)
		}
	}
	var rows, distinct int
	if err := db.NewRaw("SELECT count(*), count(DISTINCT code) FROM promo_vouchers WHERE project_id = ?", p.ID).Scan(ctx, &rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != 18_000 || distinct != 18_000 {
		t.Errorf("%d vouchers, %d distinct codes; want 18000 of each", rows, distinct)
	}
	l := must[*promo.List[*async.Action]](t)(engines[0].AsyncActions().List(ctx, p.ID, promo.ListParams{Limit: 100}))
	for _, a := range l.Data {
		full := must[*async.Action](t)(stores[0].GetAsyncAction(ctx, p.ID, a.ID))
		if full.Status != async.StatusDone || full.Attempts != 1 {
			t.Errorf("action %s: %s after %d attempts", a.ID, full.Status, full.Attempts)
		}
	}
}
