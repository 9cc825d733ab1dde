package promo_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/webhook"
)

// seedProjectData fills project p through the engine with one of most
// things: catalog, customers, orders, campaigns with generated vouchers,
// promotion tiers, rules, webhooks and their events, custom event schemas
// and events, publications, redemptions, async actions, project users.
func seedProjectData(t *testing.T, eng *promo.Engine, p string) {
	t.Helper()
	must[*webhook.Webhook](t)(eng.Webhooks().Create(ctx, p, webhook.Params{TargetURL: promo.Ptr("https://hooks.example.com/all"), Events: webhook.Events}))
	must[*customer.Customer](t)(eng.Customers().Upsert(ctx, p, customer.Params{SourceID: promo.Ptr("alice")}))
	must[*order.Order](t)(eng.Orders().Create(ctx, p, order.Params{SourceID: order.Some("o-1"), Amount: promo.Ptr(int64(1000)),
		Customer: &customer.Params{SourceID: promo.Ptr("bob")}}))
	must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Drop","vouchers_count":5,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)))
	must[int](t)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100}))
	promos := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t, `{"name":"Promos","campaign_type":"PROMOTION"}`)))
	must[*campaign.PromotionTier](t)(eng.PromotionTiers().Create(ctx, p, promos.ID, js[campaign.TierParams](t,
		`{"name":"10 off","action":{"discount":{"type":"AMOUNT","amount_off":10}}}`)))
	historyVoucher(t, eng, p, "RULED", `{"name":"big","rules":{"logic":"1","1":{"name":"order.amount","conditions":{"$more_than":[1]}}}}`)
	pub := must[*publication.Publication](t)(eng.Publications().Create(ctx, p, publication.CreateParams{
		Campaign: &publication.CampaignRef{Name: promo.Ptr("Drop")}, Customer: &customer.Params{SourceID: promo.Ptr("alice")}}))
	must[*redemption.Redemptions](t)(eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, redeemBody(pub.Voucher.Code, "alice")), redemption.RedeemOptions{}))
	must[*redemption.Redemptions](t)(eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, redeemBody("RULED", "bob")), redemption.RedeemOptions{}))
	must[*project.CustomEventSchema](t)(eng.CustomEventSchemas().Create(ctx, p, js[project.CustomEventSchemaParams](t, `{"name":"visit","schema":{"properties":{}}}`)))
	must[*project.Tracked](t)(eng.CustomEvents().Track(ctx, p, project.TrackParams{Event: promo.Ptr("visit"), Customer: &customer.Params{SourceID: promo.Ptr("alice")}}))
	if err := eng.Projects().InviteUser(ctx, []string{p}, project.InviteParams{Email: promo.Ptr("ann@shop.example"), Projects: map[string]string{p: "ADMIN"}}); err != nil {
		t.Fatal(err)
	}
}

// projectRowCounts counts the rows of project p in every table of the
// schema with a project_id column.
func projectRowCounts(t *testing.T, db *bun.DB, p string) map[string]int {
	t.Helper()
	var tables []string
	if err := db.NewRaw(`SELECT table_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND column_name = 'project_id' ORDER BY table_name`).Scan(ctx, &tables); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, tb := range tables {
		var n int
		if err := db.NewRaw("SELECT count(*) FROM ? WHERE project_id = ?", bun.Ident(tb), p).Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		out[tb] = n
	}
	return out
}

// Deleting a project on PostgreSQL removes its rows from every table (row
// counts per table), its project row and keys, and touches none of
// another project's rows, seeded alike.
func TestProjectDeletionRowCountsPostgres(t *testing.T) {
	db := bunstoretest.NewDB(t)
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	eng := must[*promo.Engine](t)(promo.New(bunstore.New(db), promo.WithClock(promotype.NewManualClock(t0))))
	a := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "A"})).ID
	b := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "B"})).ID
	seedProjectData(t, eng, a)
	seedProjectData(t, eng, b)
	must[int](t)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100}))
	if _, err := eng.Auth().CreateAppKey(ctx, a, auth.KeyParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Auth().CreateAppKey(ctx, b, auth.KeyParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Auth().CreateManagementKey(ctx, auth.KeyParams{}, a, b); err != nil {
		t.Fatal(err)
	}
	beforeA, beforeB := projectRowCounts(t, db, a), projectRowCounts(t, db, b)
	seeded := 0
	for tb, n := range beforeA {
		if n > 0 {
			seeded++
		}
		if beforeB[tb] == 0 && n > 0 {
			t.Logf("table %s: A has %d rows, B none", tb, n)
		}
	}
	t.Logf("the seed reaches %d of %d project tables", seeded, len(beforeA))
	if seeded < 15 {
		t.Fatalf("the seed reaches only %d tables: %v", seeded, beforeA)
	}

	if err := eng.Projects().Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	afterA := projectRowCounts(t, db, a)
	for tb, n := range afterA {
		if n != 0 {
			t.Errorf("table %s still holds %d rows of the deleted project (had %d)", tb, n, beforeA[tb])
		}
	}
	diff(t, "project B's rows per table", beforeB, projectRowCounts(t, db, b))
	var projects, keys, grants int
	if err := db.NewRaw(`SELECT (SELECT count(*) FROM promo_projects WHERE id = ?),
		(SELECT count(*) FROM promo_app_keys WHERE project_id = ?),
		(SELECT count(*) FROM promo_management_keys WHERE ? = ANY(project_ids))`, a, a, a).Scan(ctx, &projects, &keys, &grants); err != nil {
		t.Fatal(err)
	}
	if projects != 0 || keys != 0 || grants != 0 {
		t.Errorf("after the deletion: %d project rows, %d app keys, %d grants of A", projects, keys, grants)
	}
	// B works as before: its lists and counted totals.
	l := must[*promotype.List[*customer.Customer]](t)(eng.Customers().List(ctx, b, customer.ListParams{}))
	if l.Total != 2 {
		t.Errorf("B's customers: total %d, want 2", l.Total)
	}
}
