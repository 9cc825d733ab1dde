package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

func action(projectID string, n int, created promotype.Time) *async.Action {
	return &async.Action{
		ID: fmt.Sprintf("aa_%03d", n), ProjectID: projectID, Type: campaign.ActionVouchersGenerate,
		Status: async.StatusEnqueued, OperationStatus: async.OperationUnknown, CreatedAt: created,
		RequestID: "v-0123", Payload: json.RawMessage(`{"campaign_id":"camp_1","count":5}`), Object: "async_action",
	}
}

func testAsyncActions(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	a1 := action(p, 1, at(1))
	must(t, s.InsertAsyncAction(ctx, a1))
	got, err := s.GetAsyncAction(ctx, p, a1.ID)
	must(t, err)
	if got.Seq <= 0 || a1.Seq != 0 {
		t.Errorf("insert: stored Seq %d, caller's %d; want a positive Seq on the stored row only", got.Seq, a1.Seq)
	}
	a1.Seq = got.Seq
	diff(t, "get", a1, got)
	wantErr(t, "same id", s.InsertAsyncAction(ctx, action(p, 1, at(1))), promotype.ErrDuplicateFound)
	must(t, s.InsertAsyncAction(ctx, action(b, 2, at(2))))
	must(t, s.InsertAsyncAction(ctx, action(p, 3, at(3))))
	wantErr(t, "project b reads a's action", second(s.GetAsyncAction(ctx, b, a1.ID)), promotype.ErrNotFound)

	items, total, err := s.ListAsyncActions(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	must(t, err)
	diff(t, "list", []string{"aa_003", "aa_001"}, ids(items, func(a *async.Action) string { return a.ID }))
	if total != 2 {
		t.Errorf("total %d", total)
	}

	// Claims take the oldest claimable action of any project, once.
	lease := at(10)
	c1, err := s.ClaimAsyncAction(ctx, "r1", at(5), lease)
	must(t, err)
	if c1 == nil || c1.ID != "aa_001" || c1.Status != async.StatusInProgress || c1.LeaseOwner != "r1" || c1.Attempts != 1 ||
		!c1.StartedAt.Equal(at(5)) || !c1.LeaseUntil.Equal(lease) || !c1.UpdatedAt.Equal(at(5)) {
		t.Fatalf("first claim: %+v", c1)
	}
	c2, err := s.ClaimAsyncAction(ctx, "r2", at(5), lease)
	must(t, err)
	if c2 == nil || c2.ID != "aa_002" || c2.ProjectID != b {
		t.Fatalf("second claim: %+v", c2)
	}
	c3, err := s.ClaimAsyncAction(ctx, "r2", at(5), lease)
	must(t, err)
	if c3 == nil || c3.ID != "aa_003" {
		t.Fatalf("third claim: %+v", c3)
	}
	if none, err := s.ClaimAsyncAction(ctx, "r3", at(9), at(20)); err != nil || none != nil {
		t.Fatalf("claim with every lease running: %+v, %v", none, err)
	}

	// The lease guards the checkpoints.
	_, err = s.LockAsyncAction(ctx, p, "aa_001", "r2")
	if !errors.Is(err, async.ErrLeaseLost) {
		t.Errorf("lock by another runner: %v", err)
	}
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		cur, err := tx.LockAsyncAction(ctx, p, "aa_001", "r1")
		if err != nil {
			return err
		}
		cur.Progress, cur.State = 40, json.RawMessage(`{"done":2}`)
		return tx.UpdateAsyncAction(ctx, cur)
	}))
	got, _ = s.GetAsyncAction(ctx, p, "aa_001")
	if got.Progress != 40 || string(got.State) != `{"done":2}` {
		t.Errorf("checkpoint: %+v", got)
	}

	// Past its lease an action is taken over, and its first runner is out.
	c4, err := s.ClaimAsyncAction(ctx, "r4", at(11), at(30))
	must(t, err)
	if c4 == nil || c4.ID != "aa_001" || c4.Attempts != 2 || !c4.StartedAt.Equal(at(5)) || c4.Progress != 40 {
		t.Fatalf("take-over: %+v", c4)
	}
	_, err = s.LockAsyncAction(ctx, p, "aa_001", "r1")
	if !errors.Is(err, async.ErrLeaseLost) {
		t.Errorf("lock by the runner that lost the lease: %v", err)
	}
	_, err = s.LockAsyncAction(ctx, p, "aa_missing", "r1")
	wantErr(t, "lock missing", err, promotype.ErrNotFound)

	// Ended actions are never claimed.
	done := c4.Clone()
	done.Status, done.OperationStatus, done.Progress = async.StatusDone, async.OperationSuccess, 100
	done.Result = json.RawMessage(`{"message":"Generated 5 vouchers.","done_count":5}`)
	done.LeaseOwner, done.LeaseUntil, done.ProcessingTime = "", nil, 1234
	must(t, s.UpdateAsyncAction(ctx, done))
	got, err = s.GetAsyncAction(ctx, p, "aa_001")
	must(t, err)
	diff(t, "ended action", done, got)
	for _, now := range []promotype.Time{at(40), at(1000)} {
		c, err := s.ClaimAsyncAction(ctx, "r5", now, promotype.NewTime(now.Add(time.Minute)))
		must(t, err)
		if c != nil && c.ID == "aa_001" {
			t.Errorf("claimed an ended action at %v", now)
		}
	}
	wantErr(t, "update missing", s.UpdateAsyncAction(ctx, action(p, 99, at(1))), promotype.ErrNotFound)

	t.Run("concurrent claims", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		const actions, runners = 20, 6
		for i := range actions {
			must(t, s.InsertAsyncAction(ctx, action(p, i, at(i))))
		}
		var mu sync.Mutex
		var claimed []string
		var wg sync.WaitGroup
		for r := range runners {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					a, err := s.ClaimAsyncAction(ctx, fmt.Sprintf("r%d", r), at(100), at(200))
					if err != nil {
						t.Error(err)
						return
					}
					if a == nil {
						return
					}
					mu.Lock()
					claimed = append(claimed, a.ID)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		sort.Strings(claimed)
		want := make([]string, actions)
		for i := range want {
			want[i] = fmt.Sprintf("aa_%03d", i)
		}
		diff(t, "each action claimed once", want, claimed)
	})
}

// testAsyncSerialKeys checks that an action with a serial key is claimed
// only once every action of its project and key inserted before it has
// ended, whatever the created_at order, and that other keys, other
// projects and actions without a key do not wait.
func testAsyncSerialKeys(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	keyed := func(projectID string, n int, created promotype.Time, key string) *async.Action {
		a := action(projectID, n, created)
		a.SerialKey = key
		return a
	}
	// Inserted in this order; aa_002 is created earlier than aa_001 (a
	// clock tie broken the other way) but must still wait for it.
	must(t, s.InsertAsyncAction(ctx, keyed(p, 1, at(5), "campaign:c1")))
	must(t, s.InsertAsyncAction(ctx, keyed(p, 2, at(1), "campaign:c1")))
	must(t, s.InsertAsyncAction(ctx, keyed(p, 3, at(3), "campaign:c2")))
	must(t, s.InsertAsyncAction(ctx, keyed(b, 4, at(2), "campaign:c1")))
	must(t, s.InsertAsyncAction(ctx, keyed(p, 5, at(4), "")))
	claim := func(now int) string {
		t.Helper()
		a, err := s.ClaimAsyncAction(ctx, "r1", at(now), at(1000))
		must(t, err)
		if a == nil {
			return ""
		}
		return a.ID
	}
	var got []string
	for range 5 {
		got = append(got, claim(6))
	}
	diff(t, "claims while aa_001 runs", []string{"aa_004", "aa_003", "aa_005", "aa_001", ""}, got)
	// aa_001's lease runs out: it is taken over, aa_002 still waits.
	cur, err := s.GetAsyncAction(ctx, p, "aa_001")
	must(t, err)
	cur.LeaseUntil = at(7).Ptr()
	must(t, s.UpdateAsyncAction(ctx, cur))
	diff(t, "take-over", []string{"aa_001", ""}, []string{claim(20), claim(20)})
	cur, err = s.GetAsyncAction(ctx, p, "aa_001")
	must(t, err)
	cur.Status, cur.OperationStatus, cur.LeaseOwner, cur.LeaseUntil = async.StatusFailed, async.OperationFailed, "", nil
	must(t, s.UpdateAsyncAction(ctx, cur))
	diff(t, "after aa_001 ended", []string{"aa_002", ""}, []string{claim(21), claim(21)})
}
