package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
	"github.com/shopspring/decimal"
)

// maxCampaignRewards bounds the reward assignments read per loyalty
// campaign looking for its pay-with-points reward.
const maxCampaignRewards = 100

// readCoins reads the pay-with-points (COIN) reward of each loyalty
// campaign of ids not read yet: the oldest COIN reward assigned to it.
func (g *gathering) readCoins(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if g.coins == nil {
		g.coins = map[string]*reward.Reward{}
	}
	for _, id := range ids {
		g.coins[id] = nil
	}
	as, _, err := g.q.store.ListRewardAssignments(ctx, g.projectID, promotype.Query{
		Limit: maxCampaignRewards * len(ids), OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "related_object_id", Op: promotype.OpIn, Values: ids}}})
	if err != nil {
		return err
	}
	for _, a := range as {
		if g.coins[a.RelatedObjectID] != nil {
			continue
		}
		rw, err := g.q.store.GetReward(ctx, g.projectID, a.RewardID)
		if err != nil {
			return err
		}
		if rw.Type == reward.TypeCoin && rw.Parameters.Coin != nil {
			g.coins[a.RelatedObjectID] = rw
		}
	}
	return nil
}

// payWithPoints is the reward a loyalty card pays this order with: its
// campaign's COIN reward and the points that pay the order's total (at
// most the card's balance); nil when the card cannot pay with points or
// has none to pay with.
func (g *gathering) payWithPoints(v *voucher.Voucher) *RewardParams {
	if v.CampaignID == nil || v.LoyaltyCard == nil {
		return nil
	}
	rw := g.coins[*v.CampaignID]
	if rw == nil {
		return nil
	}
	points := min(v.LoyaltyCard.Balance, pointsFor(g.req.Order.TotalAmount, rw.Parameters.Coin))
	if points <= 0 {
		return nil
	}
	return &RewardParams{ID: rw.ID, Points: &points}
}

// pointsFor is how many points pay amount (minor units) at coin's rate,
// rounded up.
func pointsFor(amount int64, coin *reward.CoinParams) int64 {
	ratio := int64(1)
	if coin.PointsRatio != nil {
		ratio = *coin.PointsRatio
	}
	perPoint := coin.ExchangeRatio.Decimal.Mul(decimal.NewFromInt(100)).Div(decimal.NewFromInt(ratio)) // minor units
	if !perPoint.IsPositive() {
		return 0
	}
	return decimal.NewFromInt(amount).Div(perPoint).Ceil().IntPart()
}

// loyaltyResult is result.loyalty_card of a card candidate.
func (g *gathering) loyaltyResult(c *qcand) *QualifiedLoyalty {
	v, coin := c.offer, g.coins[*c.offer.CampaignID].Parameters.Coin
	out := &QualifiedLoyalty{ExchangeRatio: coin.ExchangeRatio, PointsRatio: 1}
	if coin.PointsRatio != nil {
		out.PointsRatio = *coin.PointsRatio
	}
	if v.LoyaltyCard != nil {
		out.Points, out.Balance = v.LoyaltyCard.Points, v.LoyaltyCard.Balance
	}
	return out
}

// cacheCampaign records c as read (a campaign offer's campaign).
func (r *resolver) cacheCampaign(c *campaign.Campaign) {
	if r.camps == nil {
		r.camps = map[string]*campaign.Campaign{}
	}
	r.camps[c.ID] = c
}
