package promo_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
)

// params decodes a request body as the HTTP adapter would.
func params[T any](body string) T {
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		panic(err)
	}
	return v
}

// Validating a cart against a project's promotion tiers: each valid tier
// answers the order as it would price it; Order.Amounts() reads its totals
// and Order.Order() builds the whole order.
func ExampleEngine_Promotions() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	c, err := eng.Campaigns().Create(ctx, projectID, campaign.Params{Name: promo.Ptr("Summer"), CampaignType: promo.Ptr(campaign.Promotion)})
	if err != nil {
		panic(err)
	}
	for _, tier := range []campaign.TierParams{
		{Name: promo.Ptr("10% off"), Action: &campaign.TierAction{Discount: &discount.Discount{
			Type: discount.Percent, PercentOff: promo.Ptr(promotype.NewDecimal("10"))}}},
		{Name: promo.Ptr("25 off"), Action: &campaign.TierAction{Discount: &discount.Discount{
			Type: discount.Amount, AmountOff: promo.Ptr(promotype.NewDecimal("2500"))}}},
	} {
		if _, err := eng.PromotionTiers().Create(ctx, projectID, c.ID, tier); err != nil {
			panic(err)
		}
	}
	res, err := eng.Promotions().Validate(ctx, projectID, promotion.ValidationParams{
		Order: order.Params{Items: []order.ItemParams{order.PricedItem(1995, 2), order.PricedItem(6000, 1)}},
	}, promotion.ValidationQuery{})
	if err != nil {
		panic(err)
	}
	for _, p := range res.Promotions {
		a := p.Order.Amounts()
		fmt.Printf("%s: -%d, total %d of %d (%d lines)\n", p.Name, p.DiscountAmount, a.TotalAmount, a.Amount, len(p.Order.Order().Items))
	}
	// Output:
	// 25 off: -2500, total 7490 of 9990 (2 lines)
	// 10% off: -999, total 8991 of 9990 (2 lines)
}
