package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/voucher"
)

// The customer list, update, delete to the bin, permanent deletion and
// UpsertMany through the Go API, on every store.
func TestCustomerListUpdateDelete(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Customers()
		for _, src := range []string{"alice", "bob", "carol"} {
			f.clock.Advance(time.Second)
			must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr(src), Email: promo.Ptr(src + "@example.com"),
				Address: &customer.Address{City: promo.Ptr("Warsaw")}}))
		}
		sources := func(l *promotype.List[*customer.Customer]) []string {
			out := []string{}
			for _, c := range l.Data {
				out = append(out, *c.SourceID)
				if c.Summary == nil || c.SystemMetadata == nil {
					t.Errorf("%s listed without its summary or system_metadata", *c.SourceID)
				}
			}
			return out
		}
		list := func(p customer.ListParams) *promotype.List[*customer.Customer] {
			t.Helper()
			return must[*promotype.List[*customer.Customer]](t)(cs.List(ctx, f.project, p))
		}
		diff(t, "newest first", []string{"carol", "bob", "alice"}, sources(list(customer.ListParams{})))
		diff(t, "email", []string{"bob"}, sources(list(customer.ListParams{Email: promo.Ptr("bob@example.com")})))
		after := at(2 * time.Second)
		diff(t, "starting after bob, newest first", []string{"alice"}, sources(list(customer.ListParams{StartingAfter: &after})))
		diff(t, "starting after bob, oldest first", []string{"carol"},
			sources(list(customer.ListParams{ListParams: promotype.ListParams{Order: "created_at"}, StartingAfter: &after})))
		l := list(customer.ListParams{ListParams: promotype.ListParams{Limit: 2}})
		if l.Total != 3 || !l.HasMore {
			t.Errorf("total %d has_more %v, want 3 true", l.Total, l.HasMore)
		}

		f.clock.Advance(time.Second)
		got := must[*customer.Customer](t)(cs.Update(ctx, f.project, "bob", customer.UpdateParams{Params: customer.Params{Name: promo.Ptr("Bob"), SourceID: promo.Ptr("ignored")}}))
		if *got.SourceID != "bob" || *got.Name != "Bob" || got.UpdatedAt == nil || !got.UpdatedAt.Equal(f.clock.Now()) {
			t.Errorf("updated: %+v", got)
		}
		_, err := cs.Update(ctx, f.project, "nobody", customer.UpdateParams{Params: customer.Params{Name: promo.Ptr("x")}})
		wantErr(t, err, 404, "not_found")
		_, err = cs.Update(ctx, f.project, "bob", customer.UpdateParams{Params: customer.Params{Birthdate: promo.Ptr("1990-13-01")}})
		wantErr(t, err, 400, "invalid_payload")

		if err := cs.Delete(ctx, f.project, "bob"); err != nil {
			t.Fatal(err)
		}
		_, err = cs.Get(ctx, f.project, "bob")
		wantErr(t, err, 404, "not_found")
		wantErr(t, cs.Delete(ctx, f.project, "bob"), 404, "not_found")
		diff(t, "after the delete", []string{"carol", "alice"}, sources(list(customer.ListParams{})))

		// UpsertMany: all or nothing.
		_, err = cs.UpsertMany(ctx, f.project, []customer.Params{{SourceID: promo.Ptr("dave")}, {ID: promo.Ptr("cust_nope")}})
		e := wantErr(t, err, 404, "not_found")
		if e != nil && e.Details != "Item 1: Cannot find customer with id cust_nope" {
			t.Errorf("details %q", e.Details)
		}
		_, err = cs.Get(ctx, f.project, "dave")
		wantErr(t, err, 404, "not_found")
		many := must[[]*customer.Customer](t)(cs.UpsertMany(ctx, f.project, []customer.Params{{SourceID: promo.Ptr("bob"), Name: promo.Ptr("New Bob")},
			{SourceID: promo.Ptr("alice"), Name: promo.Ptr("Alice")}}))
		if len(many) != 2 || *many[0].Name != "New Bob" || *many[1].Name != "Alice" {
			t.Errorf("upsert many: %+v", many)
		}

		del := must[*customer.PermanentDeletion](t)(cs.DeletePermanently(ctx, f.project, "carol"))
		if del.Status != "DONE" || del.RelatedObject != "customer" || del.DataJSON.Customer != 1 || del.Object != "pernament_deletion" {
			t.Errorf("permanent deletion: %+v", del)
		}
		_, err = cs.DeletePermanently(ctx, f.project, "carol")
		wantErr(t, err, 404, "not_found")
		diff(t, "at the end", []string{"bob", "alice"}, sources(list(customer.ListParams{})))
	})
}

// A customer's loyalty sums the balances of the loyalty cards it holds, in
// all and per campaign name, on every store.
func TestCustomerLoyaltySummary(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		for _, name := range []string{"Gold", "Silver"} {
			must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, js[campaign.Params](t,
				`{"name":"`+name+`","campaign_type":"LOYALTY_PROGRAM","vouchers_count":3,"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}}`)))
		}
		runPending(t, f)
		alice := &customer.Params{SourceID: promo.Ptr("alice")}
		must[*publication.Publication](t)(f.eng.Publications().Create(ctx, f.project, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promo.Ptr("Gold"), Count: promo.Ptr(2)}, Customer: alice}))
		must[*publication.Publication](t)(f.eng.Publications().Create(ctx, f.project, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promo.Ptr("Silver")}, Customer: alice}))
		must[*publication.Publication](t)(f.eng.Publications().Create(ctx, f.project, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promo.Ptr("Silver")}, Customer: &customer.Params{SourceID: promo.Ptr("bob")}}))
		got := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "alice"))
		diff(t, "alice's loyalty", &customer.LoyaltySummary{Points: 300, Campaigns: map[string]any{
			"Gold": voucher.CampaignLoyalty{Points: 200}, "Silver": voucher.CampaignLoyalty{Points: 100}}}, got.Loyalty)
		none := must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("carol")}))
		diff(t, "no cards", &customer.LoyaltySummary{Campaigns: map[string]any{}}, none.Loyalty)
	})
}
