package storagetest

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
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
