package promo_test

import (
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// member gives customer source id sourceID a card of program c holding
// points.
func member(t *testing.T, f fixture, c *campaign.Campaign, sourceID string, points int64) *voucher.Voucher {
	t.Helper()
	card := must[*voucher.Voucher](t)(f.eng.Loyalties().AddMember(ctx, f.project, c.ID, loyalty.MemberParams{
		Customer: decode[loyalty.MemberCustomer](t, `"`+sourceID+`"`)}))
	if points > 0 {
		must[*redemption.Balance](t)(f.eng.Loyalties().AddBalance(ctx, f.project, c.ID, card.Code, loyalty.BalanceParams{Points: loyalty.Int(points)}))
	}
	return card
}

// offer creates a reward from its JSON body and assigns it to program c
// for cost points.
func offer(t *testing.T, f fixture, c *campaign.Campaign, body string, cost int64) *reward.Reward {
	t.Helper()
	rw := must[*reward.Reward](t)(f.eng.Rewards().Create(ctx, f.project, decode[reward.Params](t, body)))
	must[[]*reward.Assignment](t)(f.eng.Loyalties().AssignRewards(ctx, f.project, c.ID, []loyalty.RewardAssignmentParams{{
		Reward: rw.ID, Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: &cost}}}}))
	return rw
}

func redeemReward(f fixture, card *voucher.Voucher, rewardID string) (*redemption.Redemption, error) {
	return f.eng.Loyalties().RedeemReward(ctx, f.project, "", card.Code, loyalty.RedeemRewardParams{
		Reward: &redemption.RewardParams{ID: rewardID}}, redemption.RedeemOptions{})
}

// checkCard checks a card's balance and the balance invariant (balance
// = points earned − points spent − points expired).
func checkCard(t *testing.T, f fixture, code string, balance int64) *voucher.Voucher {
	t.Helper()
	got := must[*voucher.Voucher](t)(f.eng.Loyalties().Member(ctx, f.project, "", code))
	lc := got.LoyaltyCard
	redeemed := deref(got.Redemption.RedeemedPoints)
	if lc.Balance != balance || lc.Balance != lc.Points-deref(lc.ExpiredPoints)-deref(lc.SubtractedPoints)-redeemed {
		t.Errorf("card %s: balance %d (want %d), points %d, subtracted %v, redeemed %d", code, lc.Balance, balance, lc.Points, lc.SubtractedPoints, redeemed)
	}
	return got
}

// 30 concurrent redemptions of a reward costing 100 on a card of 1,000:
// exactly 10 succeed, the others are loyalty_card_points_exceeded, and the
// card ends at 0 with the invariant holding (done when of the loyalty
// issue).
func TestLoyaltyRewardConcurrentRedemptions(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", false)
		card := member(t, f, club, "ann", 1000)
		checkCard(t, f, card.Code, 1000)
		prod := seedShop(t, f).mug
		rw := offer(t, f, club, `{"name":"Mug","parameters":{"product":{"id":"`+prod.ID+`"}}}`, 100)
		errs := make([]error, 30)
		inParallel(t, 30, func(i int) { _, errs[i] = redeemReward(f, card, rw.ID) })
		ok := succeeded(t, errs)
		if ok != 10 {
			t.Errorf("%d of 30 redemptions succeeded, want 10", ok)
		}
		got := checkCard(t, f, card.Code, 0)
		if deref(got.Redemption.RedeemedPoints) != 1000 || got.Redemption.RedeemedQuantity != 10 {
			t.Errorf("redeemed points %v, quantity %d; want 1000, 10", got.Redemption.RedeemedPoints, got.Redemption.RedeemedQuantity)
		}
		if r := must[*reward.Reward](t)(f.eng.Rewards().Get(ctx, f.project, rw.ID)); deref(r.Redeemed) != 10 {
			t.Errorf("reward redeemed %v times, want 10", r.Redeemed)
		}
	})
}

// What each reward gives, what an unassigned or out-of-stock reward
// answers, and a rollback giving the points back.
func TestLoyaltyRewardEffects(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", false)
		other := newProgram(t, f, "Partner club", false)
		card := member(t, f, club, "ben", 1000)
		coupons := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t,
			`{"name":"Thanks","type":"AUTO_UPDATE","voucher":{"discount":{"type":"AMOUNT","amount_off":2000}}}`)))
		gifts := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t,
			`{"name":"Gift cards","type":"AUTO_UPDATE","campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":100}}}`)))
		prod := seedShop(t, f).tee

		material := offer(t, f, club, `{"name":"Lamp","stock":1,"parameters":{"product":{"id":"`+prod.ID+`"}}}`, 6)
		r := must[*redemption.Redemption](t)(redeemReward(f, card, material.ID))
		if r.Reward == nil || r.Reward.Type != "MATERIAL" || r.Reward.Product == nil || r.Reward.Product.ID != prod.ID || r.Amount != 6 {
			t.Errorf("material reward: %+v (amount %d)", r.Reward, r.Amount)
		}
		_, err := redeemReward(f, card, material.ID)
		if e := wantErr(t, err, 400, "invalid_payload"); e.Details != "Reward is out of stock" {
			t.Errorf("out of stock: %s", e.Details)
		}
		checkCard(t, f, card.Code, 994)

		coupon := offer(t, f, club, `{"name":"20 off","parameters":{"campaign":{"id":"`+coupons.ID+`"}}}`, 2)
		r = must[*redemption.Redemption](t)(redeemReward(f, card, coupon.ID))
		if v := r.Reward.Voucher; v == nil || *v.CampaignID != coupons.ID || v.HolderID == nil || *v.HolderID != *card.HolderID {
			t.Errorf("coupon reward gave %+v", v)
		}

		gift := offer(t, f, club, `{"name":"40 credit","parameters":{"campaign":{"id":"`+gifts.ID+`","balance":4000}}}`, 10)
		r = must[*redemption.Redemption](t)(redeemReward(f, card, gift.ID))
		if v := r.Reward.Voucher; v == nil || v.Gift == nil || v.Gift.Balance != 4100 {
			t.Errorf("gift reward gave %+v", v)
		}
		points := offer(t, f, club, `{"name":"Partner points","parameters":{"campaign":{"id":"`+other.ID+`","balance":20}}}`, 1)
		r = must[*redemption.Redemption](t)(redeemReward(f, card, points.ID))
		if v := r.Reward.Voucher; v == nil || v.LoyaltyCard == nil || v.LoyaltyCard.Balance != 20 || *v.CampaignID != other.ID {
			t.Errorf("loyalty points reward gave %+v", v)
		}
		checkCard(t, f, card.Code, 981)

		rollback := must[*redemption.RollbackStack](t)(f.eng.Redemptions().Rollback(ctx, f.project, r.ID, redemption.RollbackParams{})).Head()
		if rollback.Result != "SUCCESS" {
			t.Errorf("rollback %s", rollback.Result)
		}
		checkCard(t, f, card.Code, 982)

		unassigned := must[*reward.Reward](t)(f.eng.Rewards().Create(ctx, f.project, decode[reward.Params](t,
			`{"name":"Nothing","parameters":{"campaign":{"id":"`+coupons.ID+`"}}}`)))
		_, err = redeemReward(f, card, unassigned.ID)
		if e := promotype.AsError(err); e == nil || e.Code != 404 {
			t.Errorf("an unassigned reward: %v, want a 404", err)
		}
		_, err = f.eng.Loyalties().RedeemReward(ctx, f.project, other.ID, card.Code, loyalty.RedeemRewardParams{
			Reward: &redemption.RewardParams{ID: coupon.ID}}, redemption.RedeemOptions{})
		wantErr(t, err, 404, "not_found")
		checkCard(t, f, card.Code, 982)
	})
}

// Two engines over one store (two replicas over one PostgreSQL): 30
// reward redemptions of cost 100 on a card of 1,000, half through each,
// give exactly 10 successes and leave the card at 0; 20 concurrent updates
// of one order to PAID, half through each, earn once.
func TestLoyaltyTwoEngines(t *testing.T) {
	for name, pair := range replicaFactories {
		t.Run(name, func(t *testing.T) {
			a, b := replicaEngines(t, pair)
			p := must[*project.Project](t)(a.Projects().Create(ctx, project.Params{Name: "Shop"})).ID
			club := must[*campaign.Campaign](t)(a.Loyalties().CreateProgram(ctx, p, campaign.Params{Name: promo.Ptr("Club"), Type: promo.Ptr(campaign.AutoUpdate)}))
			card := must[*voucher.Voucher](t)(a.Loyalties().AddMember(ctx, p, club.ID, loyalty.MemberParams{Customer: decode[loyalty.MemberCustomer](t, `"ann"`)}))
			must[*redemption.Balance](t)(a.Loyalties().AddBalance(ctx, p, club.ID, card.Code, loyalty.BalanceParams{Points: 1000}))
			mug := must[*catalog.Product](t)(a.Catalog().CreateProduct(ctx, p, catalog.ProductParams{Name: promo.Ptr("Mug"), Price: promo.Ptr[int64](900)}))
			rw := must[*reward.Reward](t)(a.Rewards().Create(ctx, p, decode[reward.Params](t, `{"name":"Mug","parameters":{"product":{"id":"`+mug.ID+`"}}}`)))
			must[[]*reward.Assignment](t)(a.Loyalties().AssignRewards(ctx, p, club.ID, []loyalty.RewardAssignmentParams{{Reward: rw.ID,
				Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr[int64](100)}}}}))
			must[[]*loyalty.EarningRule](t)(a.Loyalties().CreateEarningRules(ctx, p, club.ID, []loyalty.EarningRuleParams{
				decode[loyalty.EarningRuleParams](t, `{"event":"order.paid","loyalty":{"type":"FIXED","points":7}}`)}))
			engines := []*promo.Engine{a, b}
			errs := make([]error, 30)
			inParallel(t, 30, func(i int) {
				_, errs[i] = engines[i%2].Loyalties().RedeemReward(ctx, p, "", card.Code, loyalty.RedeemRewardParams{
					Reward: &redemption.RewardParams{ID: rw.ID}}, redemption.RedeemOptions{})
			})
			ok := succeeded(t, errs)
			got := must[*voucher.Voucher](t)(a.Loyalties().Member(ctx, p, "", card.Code))
			if ok != 10 || got.LoyaltyCard.Balance != 0 || deref(got.Redemption.RedeemedPoints) != 1000 {
				t.Errorf("%d of 30 succeeded, card %+v redeemed %v; want 10, balance 0, 1000", ok, got.LoyaltyCard, got.Redemption.RedeemedPoints)
			}

			// b reads the rule within its cache's refresh; wait until it earns.
			o := must[*order.Order](t)(a.Orders().Create(ctx, p, order.Params{SourceID: order.Some("o-1"), Amount: promo.Ptr[int64](100),
				Customer: &customer.Params{SourceID: promo.Ptr("ann")}}))
			errs = make([]error, 20)
			inParallel(t, 20, func(i int) {
				_, errs[i] = engines[i%2].Orders().Update(ctx, p, o.ID, order.Params{Status: promo.Ptr(order.StatusPaid)})
			})
			for i, err := range errs {
				if err != nil {
					t.Errorf("update %d: %v", i, err)
				}
			}
			got = must[*voucher.Voucher](t)(a.Loyalties().Member(ctx, p, "", card.Code))
			if got.LoyaltyCard.Balance != 7 {
				t.Errorf("after 20 concurrent PAID updates on two engines the card holds %d, want 7 (earned once)", got.LoyaltyCard.Balance)
			}
		})
	}
}

// Points an earning rule gives are a customer.rewarded.loyalty_points
// activity of the customer, and a reward redeemed for points (not an
// order discount) a customer.rewarded one.
func TestLoyaltyRewardedActivities(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":150}}`)
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](100),
			Status: promo.Ptr(order.StatusPaid), Customer: &customer.Params{SourceID: promo.Ptr("ria")}}))
		card := cardOf(t, f, club, *o.CustomerID)
		rw := offer(t, f, club, `{"name":"Mug","parameters":{"product":{"id":"`+seedShop(t, f).mug.ID+`"}}}`, 100)
		must[*redemption.Redemption](t)(redeemReward(f, card, rw.ID))
		types := func(typ string) []string {
			l := must[*customer.ActivityList](t)(f.eng.Customers().Activities(ctx, f.project, *o.CustomerID, customer.ActivityParams{Type: typ}))
			out := []string{}
			for _, a := range l.Data {
				out = append(out, a.Type)
			}
			return out
		}
		diff(t, "points given", []string{customer.ActivityRewardedPoints}, types(customer.ActivityRewardedPoints))
		diff(t, "reward given", []string{customer.ActivityRewarded}, types(customer.ActivityRewarded))
		checkCard(t, f, card.Code, 50)
	})
}

// succeeded counts the reward redemptions of errs that succeeded; every
// other one must be refused for want of points.
func succeeded(t *testing.T, errs []error) int {
	t.Helper()
	ok := 0
	for _, err := range errs {
		switch e := promotype.AsError(err); {
		case err == nil:
			ok++
		case e == nil || e.Key != "loyalty_card_points_exceeded":
			t.Errorf("unexpected failure: %v", err)
		}
	}
	return ok
}
