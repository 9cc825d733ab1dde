package promo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

func TestCustomerUpsertGet(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Customers()
		c := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{
			SourceID: promo.Ptr("alice"), Name: promo.Ptr("Alice"), Email: promo.Ptr("alice@example.com"), Birthdate: promo.Ptr("1990-02-03"),
			Address: &customer.Address{City: promo.Ptr("Warsaw"), Country: promo.Ptr("PL")}, Metadata: promo.Metadata{"tier": "gold"},
		}))
		want := &customer.Customer{ID: c.ID, ProjectID: f.project, SourceID: promo.Ptr("alice"), Name: promo.Ptr("Alice"), Email: promo.Ptr("alice@example.com"),
			Birthdate: promo.Ptr("1990-02-03"), Address: &customer.Address{City: promo.Ptr("Warsaw"), Country: promo.Ptr("PL")},
			Metadata: promo.Metadata{"tier": "gold"}, CreatedAt: at(0), Object: "customer",
			Summary: &customer.Summary{}, Loyalty: &customer.LoyaltySummary{Campaigns: map[string]any{}}, Referrals: &customer.ReferralSummary{Campaigns: []customer.ReferralCampaign{}}, SystemMetadata: map[string]any{}, Assets: true}
		if !strings.HasPrefix(c.ID, "cust_") {
			t.Errorf("id %s", c.ID)
		}
		diff(t, "created", want, c)
		diff(t, "get by id", want, must[*customer.Customer](t)(cs.Get(ctx, f.project, c.ID)))
		diff(t, "get by source id", want, must[*customer.Customer](t)(cs.Get(ctx, f.project, "alice")))

		// Upsert by source id changes only the fields given; metadata is replaced.
		f.clock.Advance(time.Minute)
		got := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("alice"), Phone: promo.Ptr("+48 1"), Metadata: promo.Metadata{"tier": "silver"}}))
		want.Phone, want.Metadata, want.UpdatedAt = promo.Ptr("+48 1"), promo.Metadata{"tier": "silver"}, at(time.Minute).Ptr()
		diff(t, "upsert by source id", want, got)
		// By id, with a new source id.
		got = must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{ID: &c.ID, SourceID: promo.Ptr("alice-2")}))
		want.SourceID = promo.Ptr("alice-2")
		diff(t, "upsert by id", want, got)
		_, err := cs.Get(ctx, f.project, "alice")
		wantErr(t, err, 404, "not_found")
		// Naming a customer without changing anything writes nothing.
		f.clock.Advance(time.Minute)
		diff(t, "named only", want, must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("alice-2")})))

		_, err = cs.Upsert(ctx, f.project, customer.Params{ID: promo.Ptr("cust_nope"), Name: promo.Ptr("x")})
		wantErr(t, err, 404, "not_found")
		other := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("bob")}))
		_, err = cs.Upsert(ctx, f.project, customer.Params{ID: &other.ID, SourceID: promo.Ptr("alice-2")})
		wantErr(t, err, 409, "duplicate_found")
		anon := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{Name: promo.Ptr("Walk-in")}))
		if anon.SourceID != nil || anon.ID == c.ID || anon.ID == other.ID {
			t.Errorf("a customer without keys: %+v", anon)
		}
		_, err = cs.Get(ctx, f.project, "nobody")
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "customer" {
			t.Errorf("404 names %s", e.ResourceType)
		}
	})
}

func TestCustomerValidation(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		for _, tc := range []struct {
			in   customer.Params
			want string
		}{
			{customer.Params{SourceID: promo.Ptr("")}, "Property .source_id must have between 1 and 200 characters"},
			{customer.Params{Name: promo.Ptr(strings.Repeat("x", 301))}, "Property .name must NOT have more than 300 characters"},
			{customer.Params{Birthdate: promo.Ptr("1990-13-01")}, "Property .birthdate must be a date (YYYY-MM-DD)"},
			{customer.Params{Address: &customer.Address{City: promo.Ptr(strings.Repeat("x", 301))}}, "Property .address.city must NOT have more than 300 characters"},
		} {
			_, err := f.eng.Customers().Upsert(ctx, f.project, tc.in)
			if e := wantErr(t, err, 400, "invalid_payload"); e.Details != tc.want {
				t.Errorf("details %q, want %q", e.Details, tc.want)
			}
		}
		_, err := f.eng.Orders().Create(ctx, f.project, order.Params{Referrer: &customer.Params{Birthdate: promo.Ptr("x")}})
		if e := wantErr(t, err, 400, "invalid_payload"); e.Details != "Property .referrer.birthdate must be a date (YYYY-MM-DD)" {
			t.Errorf("details %q", e.Details)
		}
	})
}

// Orders upsert the customers they name by source id; naming one by id or
// source id alone leaves it untouched.
func TestOrderCustomers(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		orders, cs := f.eng.Orders(), f.eng.Customers()
		o := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{
			Customer: &customer.Params{SourceID: promo.Ptr("alice"), Email: promo.Ptr("a@example.com")},
			Referrer: &customer.Params{SourceID: promo.Ptr("bob")},
		}))
		alice := must[*customer.Customer](t)(cs.Get(ctx, f.project, "alice"))
		bob := must[*customer.Customer](t)(cs.Get(ctx, f.project, "bob"))
		if *o.CustomerID != alice.ID || o.Customer.ID != alice.ID || o.Customer.Object != "customer" || *o.ReferrerID != bob.ID || o.Referrer.ID != bob.ID {
			t.Errorf("order customer %v referrer %v", o.Customer, o.Referrer)
		}
		f.clock.Advance(time.Minute)
		must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{Customer: &customer.Params{SourceID: promo.Ptr("alice")}}))
		must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{Customer: &customer.Params{ID: &alice.ID}}))
		named := must[*customer.Customer](t)(cs.Get(ctx, f.project, alice.ID))
		// Her summary counts the new orders; nothing else changed.
		if n := named.Summary.Orders.TotalCount; n != 3 {
			t.Errorf("alice's summary counts %d orders, want 3", n)
		}
		named.Summary, alice.Summary = nil, nil
		diff(t, "alice named by key only", alice, named)
		// A customer object with data updates the customer.
		must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{Customer: &customer.Params{SourceID: promo.Ptr("alice"), Name: promo.Ptr("Alice")}}))
		got := must[*customer.Customer](t)(cs.Get(ctx, f.project, "alice"))
		if *got.Name != "Alice" || got.UpdatedAt == nil || !got.UpdatedAt.Equal(at(time.Minute)) || *got.Email != "a@example.com" {
			t.Errorf("alice after the order update: %+v", got)
		}
		// customer_id by source id; an unknown one is 404.
		got2 := must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{CustomerID: order.Some("bob")}))
		if *got2.CustomerID != bob.ID {
			t.Errorf("customer_id %v, want %s", got2.CustomerID, bob.ID)
		}
		_, err := orders.Update(ctx, f.project, o.ID, order.Params{CustomerID: order.Some("carol")})
		wantErr(t, err, 404, "not_found")
		_, err = orders.Create(ctx, f.project, order.Params{Customer: &customer.Params{ID: promo.Ptr("cust_nope")}})
		wantErr(t, err, 404, "not_found")
	})
}

// TestCustomerUpsertSeen: the upsert a redemption uses after its
// evaluation looked the customer up. Found none: it creates one as Upsert
// does, and when the customer was created meanwhile (the source id is
// taken) it updates that one instead of failing or creating a second.
// Found one: a request changing nothing answers it as seen, one with
// changes updates it.
func TestCustomerUpsertSeen(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		env := promotype.Env{Clock: f.clock, IDs: &promotype.SequentialIDs{}}
		var fresh []bool // what each upsert reported
		upsert := func(in customer.Params, seen *customer.Customer) (c *customer.Customer, err error) {
			var isNew bool
			err = f.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				c, isNew, err = customer.UpsertSeen(ctx, tx, env, f.project, in, seen)
				return err
			})
			fresh = append(fresh, isNew)
			return c, err
		}
		get := func() *customer.Customer {
			return must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "carol"))
		}
		created := must[*customer.Customer](t)(upsert(customer.Params{SourceID: promo.Ptr("carol"), Name: promo.Ptr("Carol")}, nil))
		if stored := get(); stored.ID != created.ID || stored.Name == nil || *stored.Name != "Carol" {
			t.Errorf("created %+v, stored %+v", created, stored)
		}

		f.clock.Advance(time.Minute)
		again := must[*customer.Customer](t)(upsert(customer.Params{SourceID: promo.Ptr("carol"), Email: promo.Ptr("carol@example.com")}, nil))
		if again.ID != created.ID || again.Name == nil || *again.Name != "Carol" || again.Email == nil || *again.Email != "carol@example.com" {
			t.Errorf("the taken source id: got %+v, want customer %s updated", again, created.ID)
		}
		list := must[*promotype.List[*customer.Customer]](t)(f.eng.Customers().List(ctx, f.project, customer.ListParams{}))
		if list.Total != 1 {
			t.Errorf("%d customers, want 1", list.Total)
		}

		seen := get()
		f.clock.Advance(time.Minute)
		same := must[*customer.Customer](t)(upsert(customer.Params{SourceID: promo.Ptr("carol")}, seen))
		if same.ID != seen.ID || !same.UpdatedAt.Equal(*seen.UpdatedAt) || !get().UpdatedAt.Equal(*seen.UpdatedAt) {
			t.Errorf("naming the seen customer changed it: %+v", same)
		}
		changed := must[*customer.Customer](t)(upsert(customer.Params{SourceID: promo.Ptr("carol"), Phone: promo.Ptr("+48 2")}, seen))
		if changed.ID != seen.ID || get().Phone == nil || *get().Phone != "+48 2" {
			t.Errorf("a change to the seen customer: %+v", changed)
		}
		diff(t, "fresh (created, taken source id, unchanged, changed)", []bool{true, false, false, false}, fresh)
	})
}
