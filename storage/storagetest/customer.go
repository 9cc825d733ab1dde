package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

func customerFixture(projectID string, n int) *customer.Customer {
	return &customer.Customer{
		ID:          fmt.Sprintf("cust_%03d", n),
		ProjectID:   projectID,
		SourceID:    ptr(fmt.Sprintf("cust-src-%03d", n)),
		Name:        ptr(fmt.Sprintf("Customer %03d", n)),
		Description: ptr("regular"),
		Email:       ptr(fmt.Sprintf("c%03d@example.com", n)),
		Phone:       ptr("+48 600 000 000"),
		Birthdate:   ptr("1990-02-03"),
		Address:     &customer.Address{City: ptr("Warsaw"), Country: ptr("PL"), Line1: ptr("Main 1"), PostalCode: ptr("00-001")},
		Metadata:    promotype.Metadata{"tier": "gold", "n": float64(n)},
		CreatedAt:   at(n),
	}
}

func testCustomers(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := customerFixture(p, 1)
	must(t, s.InsertCustomer(ctx, want))
	got, err := s.GetCustomer(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindCustomerBySourceID(ctx, p, *want.SourceID)
	must(t, err)
	diff(t, "find by source id", want, got)

	// Nullable fields round-trip as null.
	bare := &customer.Customer{ID: "cust_bare", ProjectID: p, Metadata: promotype.Metadata{}, CreatedAt: at(2)}
	must(t, s.InsertCustomer(ctx, bare))
	got, err = s.GetCustomer(ctx, p, bare.ID)
	must(t, err)
	diff(t, "bare customer", bare, got)

	wantErr(t, "same id again", s.InsertCustomer(ctx, customerFixture(p, 1)), promotype.ErrDuplicateFound)
	clash := customerFixture(p, 2)
	clash.SourceID = want.SourceID
	wantErr(t, "same source id", s.InsertCustomer(ctx, clash), promotype.ErrDuplicateFound)
	wantErr(t, "a refused insert left a row", second(s.GetCustomer(ctx, p, clash.ID)), promotype.ErrNotFound)

	want.Name = ptr("Renamed")
	want.SourceID = ptr("cust-src-new")
	want.Address = nil
	want.Metadata = promotype.Metadata{"only": "this"}
	want.UpdatedAt = at(5).Ptr()
	must(t, s.UpdateCustomer(ctx, want))
	got, err = s.GetCustomer(ctx, p, want.ID)
	must(t, err)
	diff(t, "after update", want, got)
	wantErr(t, "old source id after update", second(s.FindCustomerBySourceID(ctx, p, "cust-src-001")), promotype.ErrNotFound)
	other := customerFixture(p, 3)
	other.SourceID = ptr("cust-src-001") // freed by the update
	must(t, s.InsertCustomer(ctx, other))
	bare.SourceID = ptr("cust-src-new")
	wantErr(t, "update onto a taken source id", s.UpdateCustomer(ctx, bare), promotype.ErrDuplicateFound)
	got, err = s.GetCustomer(ctx, p, bare.ID)
	must(t, err)
	if got.SourceID != nil {
		t.Errorf("a refused update changed the row: source id %q", *got.SourceID)
	}
	// Dropping a source id frees it.
	want.SourceID = nil
	must(t, s.UpdateCustomer(ctx, want))
	must(t, s.UpdateCustomer(ctx, bare))

	wantErr(t, "update missing", s.UpdateCustomer(ctx, customerFixture(p, 99)), promotype.ErrNotFound)
	wantErr(t, "get missing", second(s.GetCustomer(ctx, p, "cust_missing")), promotype.ErrNotFound)
	wantErr(t, "find missing", second(s.FindCustomerBySourceID(ctx, p, "nope")), promotype.ErrNotFound)

	t.Run("aliasing", func(t *testing.T) {
		in := customerFixture(p, 10)
		must(t, s.InsertCustomer(ctx, in))
		in.Metadata["tier"] = "changed"
		*in.Address.City = "changed"
		got, err := s.GetCustomer(ctx, p, in.ID)
		must(t, err)
		diff(t, "after mutating the inserted value", customerFixture(p, 10), got)
		got.Metadata["n"] = "changed"
		*got.Name = "changed"
		again, err := s.GetCustomer(ctx, p, in.ID)
		must(t, err)
		diff(t, "after mutating a returned value", customerFixture(p, 10), again)
	})
	t.Run("project isolation", func(t *testing.T) {
		b := newProject(t, s, "proj_b")
		must(t, s.InsertCustomer(ctx, customerFixture(b, 10))) // same id and source id, another project
		wantErr(t, "b reads a's customer", second(s.GetCustomer(ctx, b, "cust_003")), promotype.ErrNotFound)
		wantErr(t, "b finds a's source id", second(s.FindCustomerBySourceID(ctx, b, "cust-src-001")), promotype.ErrNotFound)
		wantErr(t, "b updates a's customer", s.UpdateCustomer(ctx, customerFixture(b, 3)), promotype.ErrNotFound)
		got, err := s.GetCustomer(ctx, p, "cust_010")
		must(t, err)
		diff(t, "a's customer beside b's twin", customerFixture(p, 10), got)
	})
}

// testCustomerList checks the customer list (orders, filters of
// customer.ListSpec, paging, exact totals), the bin (hidden from reads,
// lists and source id lookups; the source id free for a new customer) and
// the permanent delete of live and binned customers.
func testCustomerList(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	for n := 1; n <= 5; n++ {
		c := customerFixture(p, n)
		if n == 4 {
			c.Address.City = ptr("Krakow")
		}
		if n == 5 {
			c.Address, c.SourceID, c.Email = nil, nil, nil
		}
		if n%2 == 0 {
			c.UpdatedAt = at(20 - n).Ptr()
		}
		must(t, s.InsertCustomer(ctx, c))
	}
	must(t, s.InsertCustomer(ctx, customerFixture(b, 9)))
	ids := func(cs []*customer.Customer) []string {
		out := make([]string, 0, len(cs))
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	list := func(q promotype.Query) ([]*customer.Customer, int, error) { return s.ListCustomers(ctx, p, q) }
	tests := []struct {
		name  string
		q     promotype.Query
		want  []string
		total int
	}{
		{"newest first", promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true},
			[]string{"cust_005", "cust_004", "cust_003", "cust_002", "cust_001"}, 5},
		{"page 2 of 2", promotype.Query{Limit: 2, Offset: 2, OrderBy: "created_at"}, []string{"cust_003", "cust_004"}, 5},
		{"updated_at, nulls first", promotype.Query{Limit: 10, OrderBy: "updated_at"},
			[]string{"cust_001", "cust_003", "cust_005", "cust_004", "cust_002"}, 5},
		{"source_id descending, nulls last", promotype.Query{Limit: 10, OrderBy: "source_id", Desc: true},
			[]string{"cust_004", "cust_003", "cust_002", "cust_001", "cust_005"}, 5},
		{"email", promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{cond("email", promotype.OpIs, "c002@example.com")}},
			[]string{"cust_002"}, 1},
		{"name", promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{cond("name", promotype.OpIs, "Customer 003")}},
			[]string{"cust_003"}, 1},
		{"city", promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{cond("address.city", promotype.OpIs, "Warsaw")}},
			[]string{"cust_001", "cust_002", "cust_003"}, 3},
		{"no city", promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{cond("address.city", promotype.OpIsUnknown)}},
			[]string{"cust_005"}, 1},
		{"created before", promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{{Field: "created_at", Op: promotype.OpBefore, At: at(3)}}},
			[]string{"cust_001", "cust_002"}, 2},
		{"updated after", promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{{Field: "updated_at", Op: promotype.OpAfter, At: at(16)}}},
			[]string{"cust_002"}, 1},
	}
	for _, tc := range tests {
		got, total, err := list(tc.q)
		must(t, err)
		diff(t, tc.name, tc.want, ids(got))
		if total != tc.total {
			t.Errorf("%s: total %d, want %d", tc.name, total, tc.total)
		}
	}
	got, _, err := list(promotype.Query{Limit: 1, OrderBy: "created_at", Must: []promotype.Condition{cond("email", promotype.OpIs, "c001@example.com")}})
	must(t, err)
	diff(t, "a listed customer is the stored one", []*customer.Customer{customerFixture(p, 1)}, got)

	// The bin: gone from reads and lists, its source id free.
	must(t, s.BinCustomer(ctx, p, "cust_002", at(30)))
	wantErr(t, "get binned", second(s.GetCustomer(ctx, p, "cust_002")), promotype.ErrNotFound)
	wantErr(t, "find binned", second(s.FindCustomerBySourceID(ctx, p, "cust-src-002")), promotype.ErrNotFound)
	wantErr(t, "update binned", s.UpdateCustomer(ctx, customerFixture(p, 2)), promotype.ErrNotFound)
	wantErr(t, "bin twice", s.BinCustomer(ctx, p, "cust_002", at(31)), promotype.ErrNotFound)
	wantErr(t, "bin missing", s.BinCustomer(ctx, p, "cust_missing", at(31)), promotype.ErrNotFound)
	wantErr(t, "b bins a's customer", s.BinCustomer(ctx, b, "cust_001", at(31)), promotype.ErrNotFound)
	totalIs(t, "after a bin", 4, promotype.Query{OrderBy: "created_at"}, list)
	again := customerFixture(p, 6)
	again.SourceID = ptr("cust-src-002")
	must(t, s.InsertCustomer(ctx, again))
	got1, err := s.FindCustomerBySourceID(ctx, p, "cust-src-002")
	must(t, err)
	diff(t, "the new holder of a binned source id", again.ID, got1.ID)
	totalIs(t, "after a new customer", 5, promotype.Query{OrderBy: "created_at"}, list)

	// Permanent deletes: a binned and a live customer.
	must(t, s.DeleteCustomer(ctx, p, "cust_002"))
	must(t, s.DeleteCustomer(ctx, p, "cust_003"))
	wantErr(t, "get deleted", second(s.GetCustomer(ctx, p, "cust_003")), promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteCustomer(ctx, p, "cust_003"), promotype.ErrNotFound)
	wantErr(t, "b deletes a's customer", s.DeleteCustomer(ctx, b, "cust_001"), promotype.ErrNotFound)
	totalIs(t, "after deletes", 4, promotype.Query{OrderBy: "created_at"}, list)
	must(t, s.InsertCustomer(ctx, customerFixture(p, 3))) // the id is free again
	totalIs(t, "project b", 1, promotype.Query{OrderBy: "created_at"}, func(q promotype.Query) ([]*customer.Customer, int, error) {
		return s.ListCustomers(ctx, b, q)
	})

	// A rolled back bin leaves the customer live and counted.
	errRollback := errors.New("rollback")
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.BinCustomer(ctx, p, "cust_001", at(40)))
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("RunInTx = %v", err)
	}
	_, err = s.GetCustomer(ctx, p, "cust_001")
	must(t, err)
	totalIs(t, "after a rolled back bin", 5, promotype.Query{OrderBy: "created_at"}, list)
}

// activity is an event of project p at second sec entering the log of
// customer cust as typ; hooked makes it a webhook event too.
func activity(p, id, cust, typ string, sec int, campaignID, campaignType string) *promotype.Event {
	e := &promotype.Event{ID: id, ProjectID: p, EntityID: "ent_" + id, CreatedAt: at(sec),
		Data: json.RawMessage(fmt.Sprintf(`{"id":%q,"text":"<a&b>"}`, id))}
	return e.For(cust, typ).InCampaign(campaignID, campaignType)
}

// activityIDs lists the ids of the log of cust in p matching q.
func activityIDs(t *testing.T, s customer.ActivityStore, p, cust string, q customer.ActivityQuery) []string {
	t.Helper()
	rows, err := s.ListActivities(ctx, p, cust, q)
	must(t, err)
	return ids(rows, func(a *customer.Activity) string { return a.ID })
}

// testCustomerActivities: AppendEvents enters every event with an Activity
// in its customer's log, heard by a webhook or not, in the appending
// transaction (rolled back with it, and with a failed savepoint); the log
// lists by time then append order in either direction after a cursor, with its
// filters; DeleteActivities counts and removes one customer's log, rows of
// its own transaction included.
func testCustomerActivities(t *testing.T, newStore Factory) {
	s := newStore(t)
	p, q := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	hooked := activity(p, "evt_1", "cust_1", "customer.created", 1, "", "")
	hooked.Type = "customer.created" // a webhook event, which no configuration hears
	red := activity(p, "evt_3", "cust_1", "customer.redemption.succeeded", 3, "camp_1", "DISCOUNT_COUPONS")
	red.Type = "redemption.succeeded"
	appendEvents(t, s, hooked, activity(p, "evt_2", "cust_1", "customer.order.created", 3, "", ""), red,
		activity(p, "evt_4", "cust_2", "customer.created", 4, "", ""),
		activity(q, "evt_5", "cust_1", "customer.created", 5, "", ""),
		&promotype.Event{ID: "evt_6", ProjectID: p, Type: "voucher.created", EntityID: "v_1", CreatedAt: at(6), Data: json.RawMessage(`{}`)})
	// Several appends of one transaction, one of them in a failed savepoint.
	errBoom := errors.New("boom")
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := tx.AppendEvents(ctx, activity(p, "evt_7", "cust_1", "customer.updated", 7, "", "")); err != nil {
			return err
		}
		if err := tx.Savepoint(ctx, func(ctx context.Context) error {
			if err := tx.AppendEvents(ctx, activity(p, "evt_8", "cust_1", "customer.updated", 8, "", "")); err != nil {
				return err
			}
			return errBoom
		}); !errors.Is(err, errBoom) {
			return fmt.Errorf("savepoint = %v", err)
		}
		return tx.AppendEvents(ctx, activity(p, "evt_9", "cust_1", "customer.publication.succeeded", 9, "camp_2", "LOYALTY_PROGRAM"))
	}))
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.AppendEvents(ctx, activity(p, "evt_10", "cust_1", "customer.updated", 10, "", "")))
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("rolled back transaction = %v", err)
	}

	all := customer.ActivityQuery{Limit: 100}
	diff(t, "ascending", []string{"evt_1", "evt_2", "evt_3", "evt_7", "evt_9"}, activityIDs(t, s, p, "cust_1", all))
	desc := all
	desc.Desc = true
	diff(t, "descending", []string{"evt_9", "evt_7", "evt_3", "evt_2", "evt_1"}, activityIDs(t, s, p, "cust_1", desc))
	rows, err := s.ListActivities(ctx, p, "cust_1", customer.ActivityQuery{Limit: 1, After: "evt_2"})
	must(t, err)
	want := &customer.Activity{ID: "evt_3", Type: "customer.redemption.succeeded", Data: red.Data, CreatedAt: at(3), GroupID: "evt_3",
		ProjectID: p, CustomerID: "cust_1", CampaignID: "camp_1", CampaignType: "DISCOUNT_COUPONS"}
	diff(t, "the row after evt_2 (a tie on time: in append order)", []*customer.Activity{want}, rows)
	// Ties on time keep the order of appending, whatever the ids.
	appendEvents(t, s, activity(p, "evt_zz", "cust_3", "customer.created", 1, "", ""), activity(p, "evt_aa", "cust_3", "customer.updated", 1, "", ""))
	diff(t, "ties in append order", []string{"evt_zz", "evt_aa"}, activityIDs(t, s, p, "cust_3", customer.ActivityQuery{Limit: 10}))
	diff(t, "ties in append order, reversed", []string{"evt_aa", "evt_zz"}, activityIDs(t, s, p, "cust_3", customer.ActivityQuery{Limit: 10, Desc: true}))
	diff(t, "after a tie", []string{"evt_aa"}, activityIDs(t, s, p, "cust_3", customer.ActivityQuery{Limit: 10, After: "evt_zz"}))

	for _, tc := range []struct {
		name string
		q    customer.ActivityQuery
		want []string
	}{
		{"limit", customer.ActivityQuery{Limit: 2, Desc: true}, []string{"evt_9", "evt_7"}},
		{"after, descending", customer.ActivityQuery{Limit: 10, Desc: true, After: "evt_3"}, []string{"evt_2", "evt_1"}},
		{"after the last", customer.ActivityQuery{Limit: 10, After: "evt_9"}, []string{}},
		{"unknown cursor", customer.ActivityQuery{Limit: 10, After: "evt_404"}, []string{}},
		{"another customer's cursor", customer.ActivityQuery{Limit: 10, After: "evt_4"}, []string{}},
		{"start and end, inclusive", customer.ActivityQuery{Limit: 10, Start: at(3).Ptr(), End: at(7).Ptr()}, []string{"evt_2", "evt_3", "evt_7"}},
		{"campaign", customer.ActivityQuery{Limit: 10, CampaignID: "camp_1"}, []string{"evt_3"}},
		{"campaign type", customer.ActivityQuery{Limit: 10, CampaignType: "LOYALTY_PROGRAM"}, []string{"evt_9"}},
		{"types", customer.ActivityQuery{Limit: 10, Types: []string{"customer.updated", "customer.created"}}, []string{"evt_1", "evt_7"}},
		{"no types", customer.ActivityQuery{Limit: 10, Types: []string{}}, []string{}},
		{"filters after a cursor", customer.ActivityQuery{Limit: 10, After: "evt_1", Types: []string{"customer.updated", "customer.created"}}, []string{"evt_7"}},
	} {
		diff(t, tc.name, tc.want, activityIDs(t, s, p, "cust_1", tc.q))
	}
	diff(t, "another customer", []string{"evt_4"}, activityIDs(t, s, p, "cust_2", all))
	diff(t, "the same customer id in another project", []string{"evt_5"}, activityIDs(t, s, q, "cust_1", all))

	// A deletion counts the rows its own transaction appended too.
	var n int
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := tx.AppendEvents(ctx, activity(p, "evt_11", "cust_1", "customer.updated", 11, "", "")); err != nil {
			return err
		}
		var err error
		n, err = tx.DeleteActivities(ctx, p, "cust_1")
		return err
	}))
	if n != 6 {
		t.Errorf("DeleteActivities = %d, want 6", n)
	}
	diff(t, "deleted log", []string{}, activityIDs(t, s, p, "cust_1", all))
	diff(t, "another customer after the deletion", []string{"evt_4"}, activityIDs(t, s, p, "cust_2", all))
	diff(t, "another project after the deletion", []string{"evt_5"}, activityIDs(t, s, q, "cust_1", all))
	n, err = s.DeleteActivities(ctx, p, "cust_1")
	must(t, err)
	if n != 0 {
		t.Errorf("DeleteActivities of an empty log = %d", n)
	}
}
