// Package reward holds rewards, what a loyalty card's points (or a
// referral) can buy, and their assignments to campaigns.
//
// A [Reward] is of one type: CAMPAIGN (it gives a voucher of a discount or
// gift campaign, or adds credits or points), COIN (points paying for an
// order at an exchange rate) or MATERIAL (a product or SKU). An
// [Assignment] offers a reward in a loyalty program or referral campaign,
// with its price in points. The [Service] (Engine.Rewards()) creates,
// reads, updates and deletes both; a reward still assigned cannot be
// deleted (400 resource_in_use). Buying a reward with a card's points goes
// through the loyalty package (Engine.Loyalties().RedeemReward) or a
// redemption of the card naming the reward.
//
//	r, err := eng.Rewards().Create(ctx, projectID, reward.Params{
//		Name:       promo.Ptr("Free shipping"),
//		Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: couponCampaignID}},
//	})
//	a, err := eng.Rewards().CreateAssignment(ctx, projectID, r.ID, reward.AssignmentParams{
//		Campaign: promo.Ptr(programID), Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr[int64](100)}},
//	})
package reward
