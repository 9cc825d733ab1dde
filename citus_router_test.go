package promo_test

import (
	"testing"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// TestHotPathsRouteToOneShardCitus runs the hot paths — validation (with
// a session lock), redemption, rollback, a gift balance change,
// publication and qualification — on a Citus cluster through a pool whose
// sessions set citus.multi_task_query_log_level to error: Citus then
// refuses every statement that would run on more than one shard, so each
// call succeeds only if every statement it sends is a single-shard router
// query (or reads a reference table). The data is set up through a second
// pool without the limit. Skipped unless PROMO_TEST_CITUS_DSN is set.
func TestHotPathsRouteToOneShardCitus(t *testing.T) {
	dsn := bunstoretest.NewCitusStoreDSN(t)
	open := func(dsn string) *bun.DB {
		db, err := bunstore.Open(dsn, bunstore.WithCitus())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	clock := promotype.NewManualClock(t0)
	setup := must[*promo.Engine](t)(promo.New(bunstore.New(open(dsn)), promo.WithClock(clock)))
	// Two projects, so that a statement missing its project filter would
	// have more than one shard to read.
	var p string
	for _, name := range []string{"Other", "Shop"} {
		p = must[*project.Project](t)(setup.Projects().Create(ctx, project.Params{Name: name})).ID
		for _, body := range []string{
			`{"type":"DISCOUNT_VOUCHER","code":"ONE","discount":{"type":"AMOUNT","amount_off":100}}`,
			`{"type":"GIFT_VOUCHER","code":"GIFT","gift":{"amount":10000}}`,
			`{"type":"DISCOUNT_VOUCHER","code":"FREE","discount":{"type":"PERCENT","percent_off":10}}`,
		} {
			must[*voucher.Voucher](t)(setup.Vouchers().Create(ctx, p, js[voucher.Params](t, body)))
		}
	}

	// A loyalty program of the last project, with an earning rule, a
	// reward and two members.
	club := must[*campaign.Campaign](t)(setup.Loyalties().CreateProgram(ctx, p, campaign.Params{Name: promo.Ptr("Club"), Type: promo.Ptr(campaign.AutoUpdate), AutoJoin: promo.Ptr(true)}))
	must[[]*loyalty.EarningRule](t)(setup.Loyalties().CreateEarningRules(ctx, p, club.ID, []loyalty.EarningRuleParams{
		js[loyalty.EarningRuleParams](t, `{"event":"order.paid","loyalty":{"type":"FIXED","points":5}}`)}))
	bonus := must[*reward.Reward](t)(setup.Rewards().Create(ctx, p, js[reward.Params](t, `{"name":"Bonus","parameters":{"campaign":{"id":"`+club.ID+`","balance":1}}}`)))
	must[[]*reward.Assignment](t)(setup.Loyalties().AssignRewards(ctx, p, club.ID, []loyalty.RewardAssignmentParams{{Reward: bonus.ID,
		Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr[int64](2)}}}}))
	dan := must[*voucher.Voucher](t)(setup.Loyalties().AddMember(ctx, p, club.ID, loyalty.MemberParams{Customer: js[loyalty.MemberCustomer](t, `"dan"`)}))
	eve := must[*voucher.Voucher](t)(setup.Loyalties().AddMember(ctx, p, club.ID, loyalty.MemberParams{Customer: js[loyalty.MemberCustomer](t, `"eve"`)}))
	must[*redemption.Balance](t)(setup.Loyalties().AddBalance(ctx, p, club.ID, dan.Code, loyalty.BalanceParams{Points: 100}))

	hot := must[*promo.Engine](t)(promo.New(bunstore.New(open(dsn+"&citus.multi_task_query_log_level=error")),
		promo.WithClock(clock)))
	steps := []struct {
		name string
		run  func() error
	}{
		{"validation", func() error {
			_, err := hot.Validations().Validate(ctx, p, js[redemption.ValidationParams](t, redeemBody("ONE", "alice")))
			return err
		}},
		{"validation with a session lock", func() error {
			_, err := hot.Validations().Validate(ctx, p, js[redemption.ValidationParams](t,
				`{"redeemables":[{"object":"voucher","id":"ONE"}],"customer":{"source_id":"alice"},"order":{"amount":1000},"session":{"type":"LOCK"}}`))
			return err
		}},
		{"redemption, a returning customer", func() error {
			_, err := hot.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, redeemBody("ONE", "alice")), redemption.RedeemOptions{})
			return err
		}},
		{"redemption, a new customer, and its rollback", func() error {
			r, err := hot.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, redeemBody("GIFT", "bob")), redemption.RedeemOptions{})
			if err != nil {
				return err
			}
			_, err = hot.Redemptions().Rollback(ctx, p, r.Redemptions[0].ID, redemption.RollbackParams{})
			return err
		}},
		{"gift balance", func() error {
			_, err := hot.Redemptions().AddBalance(ctx, p, "GIFT", redemption.BalanceParams{Amount: promo.Ptr[int64](500)})
			return err
		}},
		{"publication", func() error {
			_, err := hot.Publications().Create(ctx, p, publication.CreateParams{Voucher: promo.Ptr("FREE"),
				Customer: js[*publication.CreateParams](t, `{"customer":{"source_id":"carol"}}`).Customer})
			return err
		}},
		{"an order paid that earns", func() error {
			_, err := hot.Orders().Create(ctx, p, js[order.Params](t, `{"status":"PAID","amount":1000,"customer":{"source_id":"dan"}}`))
			return err
		}},
		{"a reward bought with points", func() error {
			_, err := hot.Loyalties().RedeemReward(ctx, p, "", dan.Code, loyalty.RedeemRewardParams{Reward: &redemption.RewardParams{ID: bonus.ID}}, redemption.RedeemOptions{})
			return err
		}},
		{"a transfer between cards", func() error {
			_, err := hot.Loyalties().Transfer(ctx, p, club.ID, eve.Code, []loyalty.TransferParams{{Code: dan.Code, Points: 10}})
			return err
		}},
		{"a member's points and ledger", func() error {
			if _, err := hot.Loyalties().AddBalance(ctx, p, club.ID, eve.Code, loyalty.BalanceParams{Points: 1}); err != nil {
				return err
			}
			_, err := hot.Loyalties().Transactions(ctx, p, club.ID, eve.Code, redemption.TransactionListParams{})
			return err
		}},
		{"qualification", func() error {
			_, err := hot.Qualifications().Qualify(ctx, p, js[redemption.QualificationParams](t,
				`{"customer":{"source_id":"alice"},"order":{"amount":1000},"scenario":"ALL"}`))
			return err
		}},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
	}
}
