package storagetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/storage"
)

func segmentRow(projectID string, n int, typ string) *segment.Segment {
	sg := &segment.Segment{ID: fmt.Sprintf("seg_%03d", n), ProjectID: projectID, Name: fmt.Sprintf("Segment %d", n), Type: typ,
		CreatedAt: at(n), InitialSyncStatus: segment.SyncDone, Object: "segment"}
	if typ != segment.Static {
		// Key order and spacing as sent: the store keeps the filter's text.
		sg.Filter = json.RawMessage(`{"junction": "and", "metadata.n": {"conditions": {"$is": ["` + fmt.Sprint(n) + `"]}}}`)
	}
	return sg
}

func testSegments(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	segs := []*segment.Segment{segmentRow(p, 1, segment.Static), segmentRow(p, 2, segment.AutoUpdate), segmentRow(p, 3, segment.Passive)}
	for _, sg := range segs {
		must(t, s.InsertSegment(ctx, sg))
		got, err := s.GetSegment(ctx, p, sg.ID)
		must(t, err)
		diff(t, "segment "+sg.Type, sg, got)
	}
	wantErr(t, "duplicate", s.InsertSegment(ctx, segmentRow(p, 1, segment.Static)), promotype.ErrDuplicateFound)
	_, err := s.GetSegment(ctx, other, "seg_001")
	wantErr(t, "another project's segment", err, promotype.ErrNotFound)

	dyn, total, err := s.ListSegments(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "type", Op: promotype.OpIn, Values: []string{segment.AutoUpdate, segment.Passive}}}})
	must(t, err)
	diff(t, "filter segments", []string{"seg_002", "seg_003"}, ids(dyn, func(sg *segment.Segment) string { return sg.ID }))
	if total != 2 {
		t.Errorf("total %d, want 2", total)
	}

	// Members: entries and exits report what they changed, in the order
	// asked; a segment that does not exist is never entered.
	must(t, s.AddSegmentMembers(ctx, p, "seg_001", []string{"cust_1", "cust_2", "cust_1"}, at(5)))
	entered, err := s.EnterSegments(ctx, p, "cust_1", []string{"seg_003", "seg_002", "seg_404"}, at(6))
	must(t, err)
	diff(t, "entered", []string{"seg_003", "seg_002"}, entered)
	entered, err = s.EnterSegments(ctx, p, "cust_1", []string{"seg_002"}, at(7))
	must(t, err)
	diff(t, "entered again", []string(nil), entered)
	got, err := s.CustomerSegmentIDs(ctx, p, "cust_1")
	must(t, err)
	diff(t, "cust_1's segments", []string{"seg_001", "seg_002", "seg_003"}, got)
	got, err = s.CustomerSegmentIDs(ctx, other, "cust_1")
	must(t, err)
	diff(t, "another project's members", []string(nil), got)

	left, err := s.LeaveSegments(ctx, p, "cust_1", []string{"seg_002", "seg_404"})
	must(t, err)
	diff(t, "left", []string{"seg_002"}, left)
	left, err = s.LeaveSegments(ctx, p, "cust_1", []string{"seg_002"})
	must(t, err)
	diff(t, "left again", []string(nil), left)

	// Deleting a segment removes its members.
	must(t, s.DeleteSegment(ctx, p, "seg_001"))
	wantErr(t, "delete twice", s.DeleteSegment(ctx, p, "seg_001"), promotype.ErrNotFound)
	for c, want := range map[string][]string{"cust_1": {"seg_003"}, "cust_2": nil} {
		got, err := s.CustomerSegmentIDs(ctx, p, c)
		must(t, err)
		diff(t, c+"'s segments after the delete", want, got)
	}
	wantErr(t, "members of a missing segment", s.AddSegmentMembers(ctx, p, "seg_001", []string{"cust_1"}, at(8)), promotype.ErrNotFound)

	// A rolled-back entry leaves nothing.
	boom := fmt.Errorf("boom")
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if _, err := tx.EnterSegments(ctx, p, "cust_9", []string{"seg_002"}, at(9)); err != nil {
			return err
		}
		return boom
	})
	if err != boom {
		t.Fatalf("rollback: %v", err)
	}
	got, err = s.CustomerSegmentIDs(ctx, p, "cust_9")
	must(t, err)
	diff(t, "after a rollback", []string(nil), got)
}

// testSegmentConcurrency enters and leaves one customer's segment from
// many transactions at once, each holding the customer's row as a
// customer change does: every entry and exit is reported exactly once, so
// entries and exits alternate.
func testSegmentConcurrency(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	must(t, s.InsertSegment(ctx, segmentRow(p, 1, segment.AutoUpdate)))
	c := &customer.Customer{ID: "cust_1", ProjectID: p, CreatedAt: at(0), Metadata: promotype.Metadata{}}
	must(t, s.InsertCustomer(ctx, c))
	const workers, rounds = 10, 10
	var mu sync.Mutex
	var log []string
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				in := (w+r)%2 == 0
				err := storage.TxFor(s, func(tx storage.Tx) storage.Tx { return tx })(ctx, func(ctx context.Context, tx storage.Tx) error {
					cur, err := tx.GetCustomer(ctx, p, c.ID)
					if err != nil {
						return err
					}
					cur.UpdatedAt = at(w*rounds + r).Ptr()
					if err := tx.UpdateCustomer(ctx, cur); err != nil { // the row lock of a customer change
						return err
					}
					var changed []string
					if in {
						changed, err = tx.EnterSegments(ctx, p, c.ID, []string{"seg_001"}, at(1))
					} else {
						changed, err = tx.LeaveSegments(ctx, p, c.ID, []string{"seg_001"})
					}
					if err != nil || len(changed) == 0 {
						return err
					}
					mu.Lock() // held to the commit: the log's order is the commits' order
					defer mu.Unlock()
					if in {
						log = append(log, "in")
					} else {
						log = append(log, "out")
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, e := range log {
		if want := []string{"in", "out"}[i%2]; e != want {
			t.Fatalf("change %d is %s, want %s: %v", i, e, want, log)
		}
	}
	got, err := s.CustomerSegmentIDs(ctx, p, c.ID)
	must(t, err)
	if (len(log)%2 == 1) != (len(got) == 1) {
		t.Errorf("%d reported changes, members now %v", len(log), got)
	}
}
