package promo_test

import (
	"context"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// A loyalty program: a point for every 10.00 of a paid order (its
// customer joins the program by earning), a reward bought with points,
// and the card's ledger.
func Example_loyalty() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	l := eng.Loyalties()
	club, err := l.CreateProgram(ctx, projectID, campaign.Params{
		Name:     promo.Ptr("Club"),
		Type:     promo.Ptr(campaign.AutoUpdate),
		AutoJoin: promo.Ptr(true),
	})
	if err != nil {
		panic(err)
	}
	_, err = l.CreateEarningRules(ctx, projectID, club.ID, []loyalty.EarningRuleParams{{
		Event: loyalty.EventOrderPaid,
		Loyalty: loyalty.Earning{Type: loyalty.Proportional, CalculationType: loyalty.OrderAmount,
			Order: &loyalty.OrderRatio{Amount: &loyalty.Ratio{Every: 1000, Points: 1}}},
	}})
	if err != nil {
		panic(err)
	}

	// An order of 259.90 is paid: 25 points.
	o, err := eng.Orders().Create(ctx, projectID, order.Params{
		Amount:   promo.Ptr[int64](25990),
		Status:   promo.Ptr(order.StatusPaid),
		Customer: &customer.Params{SourceID: promo.Ptr("alice")},
	})
	if err != nil {
		panic(err)
	}
	members, _ := l.ListMembers(ctx, projectID, club.ID, voucher.ListParams{Customer: o.CustomerID})
	card := members.Data[0]
	fmt.Println("earned:", card.LoyaltyCard.Points)

	// A bonus of 10 points costs 20.
	bonus, _ := eng.Rewards().Create(ctx, projectID, reward.Params{
		Name:       promo.Ptr("Bonus"),
		Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: club.ID, Balance: promo.Ptr[int64](10)}},
	})
	_, err = l.AssignRewards(ctx, projectID, club.ID, []loyalty.RewardAssignmentParams{{
		Reward:     bonus.ID,
		Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr[int64](20)}},
	}})
	if err != nil {
		panic(err)
	}
	r, err := l.RedeemReward(ctx, projectID, "", card.Code, loyalty.RedeemRewardParams{Reward: &redemption.RewardParams{ID: bonus.ID}}, redemption.RedeemOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("paid:", r.Amount, "balance:", r.Reward.Voucher.LoyaltyCard.Balance)

	txs, _ := l.Transactions(ctx, projectID, "", card.Code, redemption.TransactionListParams{Order: "id"})
	for _, t := range txs.Data {
		fmt.Println(t.Type, *t.Details.Balance.Points, t.Details.Balance.Balance)
	}
	// Output:
	// earned: 25
	// paid: 20 balance: 15
	// POINTS_ACCRUAL 25 25
	// POINTS_REDEMPTION -20 5
	// POINTS_ADDITION 10 15
}
