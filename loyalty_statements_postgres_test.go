package promo_test

import (
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// TestOrderPaidStatementsPostgres counts the statements an order update to
// PAID sends on PostgreSQL without earning rules (6) and with one that
// earns, so that a later change cannot add one unnoticed. Earning adds 9
// today: the card's lookup, the claim, the card's lock and read (one
// statement), its update, the points' expiry bucket, its presentation
// (rule assignments, campaign), the transaction, and the webhook check of
// its events (BENCHMARKS.md, "Loyalty earning").
func TestOrderPaidStatementsPostgres(t *testing.T) {
	if bunstoretest.DSN() == "" {
		t.Skip("set " + bunstoretest.EnvDSN + " to count the statements on PostgreSQL")
	}
	eng, log := tracedEngine(t)
	p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "A"})).ID
	alice := &customer.Params{SourceID: promo.Ptr("alice")}
	paid := func(id string) []string {
		t.Helper()
		must[*order.Order](t)(eng.Orders().Create(ctx, p, order.Params{SourceID: order.Some(id), Amount: promo.Ptr[int64](1000), Customer: alice}))
		log.take()
		must[*order.Order](t)(eng.Orders().Update(ctx, p, id, order.Params{Status: promo.Ptr(order.StatusPaid)}))
		return log.take()
	}
	paid("warm") // warms the caches
	without := paid("o-1")
	c := must[*campaign.Campaign](t)(eng.Loyalties().CreateProgram(ctx, p, campaign.Params{Name: promo.Ptr("Club"), Type: promo.Ptr(campaign.AutoUpdate)}))
	points := loyalty.Int(5)
	must[[]*loyalty.EarningRule](t)(eng.Loyalties().CreateEarningRules(ctx, p, c.ID, []loyalty.EarningRuleParams{{Event: loyalty.EventOrderPaid,
		Loyalty: loyalty.Earning{Type: loyalty.Fixed, Points: &points}}}))
	must[*voucher.Voucher](t)(eng.Loyalties().AddMember(ctx, p, c.ID, loyalty.MemberParams{Customer: loyalty.MemberCustomer{Params: *alice}}))
	paid("warm-2") // reads the rules into the cache
	with := paid("o-2")
	t.Logf("without rules: %d statements\n%s", len(without), strings.Join(without, "\n"))
	t.Logf("earning: %d statements\n%s", len(with), strings.Join(with, "\n"))
	if len(with)-len(without) > 9 {
		t.Errorf("earning sends %d statements more than an update without rules, want at most 9", len(with)-len(without))
	}
}
