package promo_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// tieredProgram creates a program whose members hold tiers as rules (a
// loyalty_tiers_expiration body; "" for the default) says, with the tiers
// of worked example T1: Bottom 1–249, Middle 250–499, Top from 500.
func tieredProgram(t *testing.T, f fixture, rules string) (*campaign.Campaign, []*loyalty.Tier) {
	t.Helper()
	p := campaign.Params{Name: promo.Ptr("Tiered"), Type: promo.Ptr(campaign.AutoUpdate)}
	if rules != "" {
		p.LoyaltyTiersExpiration = json.RawMessage(rules)
	}
	c := must[*campaign.Campaign](t)(f.eng.Loyalties().CreateProgram(ctx, f.project, p))
	tiers := must[[]*loyalty.Tier](t)(f.eng.Loyalties().CreateTiers(ctx, f.project, c.ID, []loyalty.TierParams{
		decode[loyalty.TierParams](t, `{"name":"Bottom","points":{"from":1,"to":249}}`),
		decode[loyalty.TierParams](t, `{"name":"Middle","points":{"from":250,"to":499}}`),
		decode[loyalty.TierParams](t, `{"name":"Top","points":{"from":500}}`),
	}))
	return c, tiers
}

// heldTier is the tier card holds as the member tiers list shows it: its
// name, first and last day ("" for none).
func heldTier(t *testing.T, f fixture, card *voucher.Voucher) [3]string {
	t.Helper()
	l := must[*promotype.List[*loyalty.Tier]](t)(f.eng.Loyalties().MemberTiers(ctx, f.project, card.Code))
	if len(l.Data) == 0 {
		return [3]string{}
	}
	e := l.Data[0].Expiration
	return [3]string{l.Data[0].Name, derefStr(e.StartDate), derefStr(e.ExpirationDate)}
}

// tierActivities are the tier changes in the activity log of card's
// holder, oldest first.
func tierActivities(t *testing.T, f fixture, card *voucher.Voucher) []string {
	t.Helper()
	l := must[*customer.ActivityList](t)(f.eng.Customers().Activities(ctx, f.project, *card.HolderID, customer.ActivityParams{Limit: 100}))
	out := []string{}
	for i := len(l.Data) - 1; i >= 0; i-- {
		switch typ := l.Data[i].Type; typ {
		case customer.ActivityTierJoined, customer.ActivityTierLeft, customer.ActivityTierUpgraded, customer.ActivityTierDowngraded, customer.ActivityTierProlonged:
			out = append(out, typ[len("customer.loyalty.tier."):])
		}
	}
	return out
}

func addPoints(t *testing.T, f fixture, c *campaign.Campaign, card *voucher.Voucher, points int64) {
	t.Helper()
	must[*redemption.Balance](t)(f.eng.Loyalties().AddBalance(ctx, f.project, c.ID, card.Code, loyalty.BalanceParams{Points: loyalty.Int(points)}))
}

// Worked example T1 with its program's settings (BALANCE, kept P3M from
// reaching, rounded to the month's end): reached on 2022-11-10 at 240, a
// member holds Bottom until 2023-02-28; 20 more move them up to Middle at
// once; a drop to 10 keeps Middle until its end, after which the scheduler
// moves them down to Bottom for another three months, and then, at 0,
// out.
func TestLoyaltyTierExpirationT1(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		f.clock.Set(time.Date(2022, 11, 10, 12, 0, 0, 0, time.UTC))
		club, _ := tieredProgram(t, f, `{"qualification_type":"BALANCE","start_date":{"type":"IMMEDIATE"},
			"expiration_date":{"type":"CUSTOM","extend":"P3M","rounding":{"type":"MONTH","strategy":"END"}}}`)
		card := member(t, f, club, "tia", 240)
		diff(t, "at 240", [3]string{"Bottom", "2022-11-10", "2023-02-28"}, heldTier(t, f, card))
		addPoints(t, f, club, card, 20)
		diff(t, "at 260", [3]string{"Middle", "2022-11-10", "2023-02-28"}, heldTier(t, f, card))
		addPoints(t, f, club, card, -250)
		diff(t, "dropped to 10 before the end", [3]string{"Middle", "2022-11-10", "2023-02-28"}, heldTier(t, f, card))

		l := f.eng.Loyalties()
		f.clock.Set(time.Date(2023, 2, 28, 23, 0, 0, 0, time.UTC))
		if n := must[int](t)(l.RetierDue(ctx, f.project, 100)); n != 0 {
			t.Errorf("%d tiers computed before their end", n)
		}
		f.clock.Set(time.Date(2023, 3, 1, 0, 0, 0, 0, time.UTC))
		if more, err := l.RunDue(ctx); err != nil || more {
			t.Fatalf("RunDue: more %v, %v", more, err)
		}
		diff(t, "after the end at 10", [3]string{"Bottom", "2023-03-01", "2023-06-30"}, heldTier(t, f, card))
		addPoints(t, f, club, card, -10)
		f.clock.Set(time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC))
		must[bool](t)(l.RunDue(ctx))
		diff(t, "after the next end at 0", [3]string{}, heldTier(t, f, card))
		diff(t, "tier activities", []string{"joined", "upgraded", "downgraded", "left"}, tierActivities(t, f, card))
		checkCard(t, f, card.Code, 0)
	})
}

// The default settings (BALANCE, dropped with the balance): the tier
// follows the balance both ways at once; tiers created after members join
// are given to them.
func TestLoyaltyTierFollowsBalance(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		early := newProgram(t, f, "Early", false)
		before := member(t, f, early, "eve", 300)
		must[[]*loyalty.Tier](t)(f.eng.Loyalties().CreateTiers(ctx, f.project, early.ID, []loyalty.TierParams{
			decode[loyalty.TierParams](t, `{"name":"Silver","points":{"from":100,"to":999}}`)}))
		diff(t, "a member before the tiers", "Silver", heldTier(t, f, before)[0])

		club, _ := tieredProgram(t, f, "")
		card := member(t, f, club, "bo", 100)
		diff(t, "at 100", [3]string{"Bottom", "2026-01-01", ""}, heldTier(t, f, card))
		addPoints(t, f, club, card, 500)
		diff(t, "at 600", "Top", heldTier(t, f, card)[0])
		addPoints(t, f, club, card, -300)
		diff(t, "at 300", "Middle", heldTier(t, f, card)[0])
		addPoints(t, f, club, card, -300)
		diff(t, "at 0", [3]string{}, heldTier(t, f, card))
		diff(t, "tier activities", []string{"joined", "upgraded", "downgraded", "left"}, tierActivities(t, f, card))
	})
}

// POINTS_IN_PERIOD, monthly, to the end of the period: what a member
// collects in March gives them the tier until 31 March, whatever they
// spend; on 1 April, with nothing collected in April, they leave it.
func TestLoyaltyTierPointsInPeriod(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		f.clock.Set(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
		club, _ := tieredProgram(t, f, `{"qualification_type":"POINTS_IN_PERIOD","qualification_period":"MONTH",
			"start_date":{"type":"IMMEDIATE"},"expiration_date":{"type":"END_OF_PERIOD"}}`)
		card := member(t, f, club, "pip", 200)
		addPoints(t, f, club, card, 100)
		diff(t, "300 collected in March", [3]string{"Middle", "2026-03-10", "2026-03-31"}, heldTier(t, f, card))
		addPoints(t, f, club, card, -250)
		diff(t, "after spending", "Middle", heldTier(t, f, card)[0])
		f.clock.Set(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC))
		must[bool](t)(f.eng.Loyalties().RunDue(ctx))
		diff(t, "on 1 April", [3]string{}, heldTier(t, f, card))
	})
}

// A tier maps what a reward costs its members: ×4 (MULTIPLY) in Bottom, 3
// points (CUSTOM) in Top, the assignment's own cost in Middle.
func TestLoyaltyTierRewardCost(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", false)
		rw := offer(t, f, club, `{"name":"Mug","parameters":{"product":{"id":"`+seedShop(t, f).mug.ID+`"}}}`, 10)
		assignments := must[*promotype.List[*reward.Assignment]](t)(f.eng.Loyalties().ProgramRewards(ctx, f.project, club.ID, promotype.ListParams{}))
		a := assignments.Data[0].ID
		must[[]*loyalty.Tier](t)(f.eng.Loyalties().CreateTiers(ctx, f.project, club.ID, []loyalty.TierParams{
			decode[loyalty.TierParams](t, `{"name":"Bottom","points":{"from":1,"to":249},"rewards":{"`+a+`":{"type":"MULTIPLY","multiplier":4}}}`),
			decode[loyalty.TierParams](t, `{"name":"Middle","points":{"from":250,"to":499}}`),
			decode[loyalty.TierParams](t, `{"name":"Top","points":{"from":500},"rewards":{"`+a+`":{"type":"CUSTOM","points":3}}}`),
		}))
		for _, tc := range []struct {
			who           string
			balance, cost int64
		}{{"bottom", 100, 40}, {"middle", 300, 10}, {"top", 600, 3}} {
			card := member(t, f, club, tc.who, tc.balance)
			r := must[*redemption.Redemption](t)(redeemReward(f, card, rw.ID))
			if r.Amount != tc.cost {
				t.Errorf("%s paid %d, want %d", tc.who, r.Amount, tc.cost)
			}
			checkCard(t, f, card.Code, tc.balance-tc.cost)
		}
	})
}

// options.recalculate_tiers: changing the program's settings moves the end
// of the tiers its members hold; without it nothing moves.
func TestLoyaltyRecalculateTiers(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		f.clock.Set(time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC))
		club, _ := tieredProgram(t, f, "")
		card := member(t, f, club, "rae", 300)
		custom := json.RawMessage(`{"qualification_type":"BALANCE","expiration_date":{"type":"CUSTOM","extend":"P1M"}}`)
		must[*campaign.Campaign](t)(f.eng.Loyalties().UpdateProgram(ctx, f.project, club.ID, campaign.UpdateParams{LoyaltyTiersExpiration: custom}))
		diff(t, "without recalculate_tiers", [3]string{"Middle", "2026-05-04", ""}, heldTier(t, f, card))
		must[*campaign.Campaign](t)(f.eng.Loyalties().UpdateProgram(ctx, f.project, club.ID, campaign.UpdateParams{LoyaltyTiersExpiration: custom,
			Options: json.RawMessage(`{"recalculate_tiers":true}`)}))
		diff(t, "with recalculate_tiers", [3]string{"Middle", "2026-05-04", "2026-06-04"}, heldTier(t, f, card))
		_, err := f.eng.Loyalties().UpdateProgram(ctx, f.project, club.ID, campaign.UpdateParams{
			LoyaltyTiersExpiration: json.RawMessage(`{"qualification_type":"SOMETIMES"}`)})
		wantErr(t, err, 400, "invalid_payload")
		_, err = f.eng.Loyalties().UpdateProgram(ctx, f.project, club.ID, campaign.UpdateParams{Options: json.RawMessage(`{"recalculate_tiers":"yes"}`)})
		wantErr(t, err, 400, "invalid_payload")
	})
}

// Rules on tier events earn after the change that moved the tier: 10 on
// joining any tier, 50 on an upgrade to Top, and CUSTOMER_METADATA points
// on a downgrade; each change earns once, whichever of two engines' runs
// takes it, and a rule on a tier event needs a tier (400) that exists
// (404).
func TestLoyaltyTierEventEarning(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club, tiers := tieredProgram(t, f, "")
		earnOn(t, f, club, `{"event":"customer.loyalty.tier.joined","loyalty_tier":{"id":"__ANY__"},"loyalty":{"type":"FIXED","points":10}}`)
		earnOn(t, f, club, `{"event":"customer.loyalty.tier.upgraded","loyalty_tier":{"id":"`+tiers[2].ID+`"},"loyalty":{"type":"FIXED","points":50}}`)
		earnOn(t, f, club, `{"event":"customer.loyalty.tier.downgraded","loyalty_tier":{"id":"__ANY__"},
			"loyalty":{"type":"PROPORTIONAL","calculation_type":"CUSTOMER_METADATA","customer":{"metadata":{"every":4,"points":4,"property":"ltv"}}}}`)
		must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("ted"), Metadata: promotype.Metadata{"ltv": 10}}))
		card := member(t, f, club, "ted", 100)
		l := f.eng.Loyalties()
		drain := func() {
			t.Helper()
			inParallel(t, 2, func(int) {
				if _, err := l.EarnTierChanges(ctx, f.project, 100); err != nil {
					t.Error(err)
				}
			})
			if more, err := l.RunDue(ctx); err != nil || more {
				t.Fatalf("RunDue: more %v, %v", more, err)
			}
		}
		drain()
		checkCard(t, f, card.Code, 110)
		addPoints(t, f, club, card, 400)
		drain()
		checkCard(t, f, card.Code, 560)
		addPoints(t, f, club, card, -300)
		drain()
		checkCard(t, f, card.Code, 268) // 260, Middle, then 8 for the downgrade (floor(10/4) × 4)
		diff(t, "tier activities", []string{"joined", "upgraded", "downgraded"}, tierActivities(t, f, card))
		txs := must[*redemption.TransactionList](t)(l.Transactions(ctx, f.project, "", card.Code, redemption.TransactionListParams{}))
		accruals := []string{}
		for _, tx := range txs.Data {
			if tx.Type == redemption.TxPointsAccrual {
				accruals = append(accruals, tx.Details.Event.Type)
			}
		}
		diff(t, "accruals, newest first", []string{loyalty.EventTierDowngraded, loyalty.EventTierUpgraded, loyalty.EventTierJoined}, accruals)

		_, err := l.CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t,
			`{"event":"customer.loyalty.tier.left","loyalty":{"type":"FIXED","points":1}}`)})
		wantErr(t, err, 400, "invalid_payload")
		_, err = l.CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t,
			`{"event":"customer.loyalty.tier.left","loyalty_tier":{"id":"ltr_nope"},"loyalty":{"type":"FIXED","points":1}}`)})
		wantErr(t, err, 404, "not_found")
		_, err = l.CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t,
			`{"event":"customer.loyalty.tier.renamed","loyalty_tier":{"id":"__ANY__"},"loyalty":{"type":"FIXED","points":1}}`)})
		wantErr(t, err, 400, "invalid_payload")
		_, err = l.CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t,
			`{"event":"order.paid","loyalty_tier":{"id":"__ANY__"},"loyalty":{"type":"FIXED","points":1}}`)})
		wantErr(t, err, 400, "invalid_payload")
	})
}

// Tiers created in one request are listed in the request's order, with
// random ids (sequential ones would order them alone).
func TestLoyaltyTiersListInOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		f.eng = must[*promo.Engine](t)(promo.New(f.store, promo.WithClock(f.clock), promo.WithIDGenerator(promotype.RandomIDs{})))
		club := newProgram(t, f, "Club", false)
		in := []loyalty.TierParams{}
		want := []string{}
		for _, name := range []string{"Zinc", "Iron", "Bronze", "Silver", "Gold", "Alpha", "Omega"} {
			in = append(in, decode[loyalty.TierParams](t, `{"name":"`+name+`","points":{"from":1}}`))
			want = append(want, name)
		}
		must[[]*loyalty.Tier](t)(f.eng.Loyalties().CreateTiers(ctx, f.project, club.ID, in))
		l := must[*promotype.List[*loyalty.Tier]](t)(f.eng.Loyalties().Tiers(ctx, f.project, club.ID, promotype.ListParams{}))
		got := []string{}
		for _, tr := range l.Data {
			got = append(got, tr.Name)
		}
		diff(t, "tiers in list order", want, got)
	})
}
