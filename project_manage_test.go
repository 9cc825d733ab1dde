package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
)

// A project's list, update and delete through the Go API, on every store:
// a new time zone reaches the next validation (the promotion cache is
// told); a deleted project's key stops working and its data is gone while
// another project's stays.
func TestProjectUpdateListDelete(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		ps := f.eng.Projects()
		other := must[*project.Project](t)(ps.Create(ctx, project.Params{Name: "Other"}))
		l := must[*promotype.List[*project.Project]](t)(ps.List(ctx, []string{other.ID, f.project, "proj_missing"}))
		if l.Total != 2 || l.Data[0].ID != f.project || l.Data[1].ID != other.ID || l.Data[0].Object != "project" {
			t.Errorf("list = %+v", l)
		}

		// A tier valid on Fridays only. At Thursday 23:30 UTC it is Friday
		// in Warsaw.
		c := promotionCampaign(t, f, "Promos")
		must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"Fridays","action":{"discount":{"type":"AMOUNT","amount_off":100}},"validity_day_of_week":[5]}`)))
		f.clock.Set(time.Date(2026, 1, 1, 23, 30, 0, 0, time.UTC))
		in := decode[promotion.ValidationParams](t, `{"order":`+cart72100+`}`)
		if res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{})); res.Valid {
			t.Errorf("valid on a Thursday in UTC: %+v", res)
		}
		got := must[*project.Project](t)(ps.Update(ctx, f.project, project.UpdateParams{TimeZone: promo.Ptr("Europe/Warsaw"), Description: promo.Ptr("Main")}))
		if got.TimeZone != "Europe/Warsaw" || *got.Description != "Main" || got.Name != "Shop" {
			t.Errorf("updated = %+v", got)
		}
		if res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{})); !res.Valid {
			t.Errorf("not valid on a Friday in Warsaw after the time zone change: %+v", res)
		}
		diff(t, "read back", got, must[*project.Project](t)(ps.Get(ctx, f.project)))
		for _, bad := range []project.UpdateParams{{TimeZone: promo.Ptr("Mars/Olympus")}, {Name: promo.Ptr("")}, {TimeZone: promo.Ptr("")}} {
			_, err := ps.Update(ctx, f.project, bad)
			wantErr(t, err, 400, "invalid_payload")
		}
		_, err := ps.Update(ctx, "proj_missing", project.UpdateParams{Name: promo.Ptr("x")})
		wantErr(t, err, 404, "not_found")

		// Delete: the project's key stops working, its data is gone, the
		// other project's stays.
		creds := must[auth.Credentials](t)(f.eng.Auth().CreateAppKey(ctx, f.project, auth.KeyParams{}))
		if _, err := f.eng.Auth().AuthenticateApp(ctx, creds.ID, creds.Secret); err != nil {
			t.Fatal(err)
		}
		must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, other.ID, customer.Params{SourceID: promo.Ptr("alice")}))
		must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("alice")}))
		if err := ps.Delete(ctx, f.project); err != nil {
			t.Fatal(err)
		}
		_, err = f.eng.Auth().AuthenticateApp(ctx, creds.ID, creds.Secret)
		wantErr(t, err, 401, "unauthorized")
		_, err = ps.Get(ctx, f.project)
		wantErr(t, err, 404, "not_found")
		_, err = f.eng.Customers().Get(ctx, f.project, "alice")
		wantErr(t, err, 404, "not_found")
		must[*customer.Customer](t)(f.eng.Customers().Get(ctx, other.ID, "alice"))
		if res, err := f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}); err == nil && res.Valid {
			t.Errorf("the deleted project's tier still validates: %+v", res)
		}
		wantErr(t, ps.Delete(ctx, f.project), 404, "not_found")
	})
}
