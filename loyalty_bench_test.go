package promo_test

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
)

// BenchmarkOrderPaid measures the update of an order to PAID through the
// Go API on each store, in a project without earning rules ("no rules")
// and in one whose order.paid rule earns for it ("earning": the claim, the
// card locked and credited, the POINTS_ACCRUAL and its events). The
// difference is what earning adds to the update. The orders are created
// (CREATED) with the timer stopped, 256 at a time.
func BenchmarkOrderPaid(b *testing.B) {
	for name, newStore := range storeFactories {
		for _, rules := range []bool{false, true} {
			label := name + "/no_rules"
			if rules {
				label = name + "/earning"
			}
			b.Run(label, func(b *testing.B) {
				eng, p := benchProject(b, newStore)
				alice := &customer.Params{SourceID: promo.Ptr("alice")}
				if rules {
					c, err := eng.Loyalties().CreateProgram(ctx, p.ID, campaign.Params{Name: promo.Ptr("Club"), AutoJoin: promo.Ptr(true), Type: promo.Ptr(campaign.AutoUpdate)})
					if err != nil {
						b.Fatal(err)
					}
					points := loyalty.Int(5)
					if _, err := eng.Loyalties().CreateEarningRules(ctx, p.ID, c.ID, []loyalty.EarningRuleParams{{Event: loyalty.EventOrderPaid,
						Loyalty: loyalty.Earning{Type: loyalty.Fixed, Points: &points}}}); err != nil {
						b.Fatal(err)
					}
					if _, err := eng.Loyalties().AddMember(ctx, p.ID, c.ID, loyalty.MemberParams{Customer: loyalty.MemberCustomer{Params: *alice}}); err != nil {
						b.Fatal(err)
					}
				}
				var ids []string
				paid := order.Params{Status: promo.Ptr(order.StatusPaid)}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if len(ids) == 0 {
						b.StopTimer()
						for j := range 256 {
							o, err := eng.Orders().Create(ctx, p.ID, order.Params{SourceID: order.Some(fmt.Sprintf("o-%d-%d", i, j)),
								Amount: promo.Ptr[int64](1000), Customer: alice})
							if err != nil {
								b.Fatal(err)
							}
							ids = append(ids, o.ID)
						}
						b.StartTimer()
					}
					if _, err := eng.Orders().Update(ctx, p.ID, ids[0], paid); err != nil {
						b.Fatal(err)
					}
					ids = ids[1:]
				}
			})
		}
	}
}

// BenchmarkRedeemReward measures a reward bought with points through the
// Go API (a redemption of the card, the stock taken in its transaction) on
// each store, one card.
func BenchmarkRedeemReward(b *testing.B) {
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			eng, p := benchProject(b, newStore)
			c, err := eng.Loyalties().CreateProgram(ctx, p.ID, campaign.Params{Name: promo.Ptr("Club"), Type: promo.Ptr(campaign.AutoUpdate)})
			if err != nil {
				b.Fatal(err)
			}
			card, err := eng.Loyalties().AddMember(ctx, p.ID, c.ID, loyalty.MemberParams{Customer: loyalty.MemberCustomer{Params: customer.Params{SourceID: promo.Ptr("bob")}}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := eng.Loyalties().AddBalance(ctx, p.ID, c.ID, card.Code, loyalty.BalanceParams{Points: loyalty.MaxPoints}); err != nil {
				b.Fatal(err)
			}
			rw, err := eng.Rewards().Create(ctx, p.ID, reward.Params{Name: promo.Ptr("Bonus"), Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: c.ID, Balance: promo.Ptr[int64](1)}}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := eng.Loyalties().AssignRewards(ctx, p.ID, c.ID, []loyalty.RewardAssignmentParams{{Reward: rw.ID,
				Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr[int64](10)}}}}); err != nil {
				b.Fatal(err)
			}
			in := loyalty.RedeemRewardParams{Reward: &redemption.RewardParams{ID: rw.ID}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eng.Loyalties().RedeemReward(ctx, p.ID, "", card.Code, in, redemption.RedeemOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
