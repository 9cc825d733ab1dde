package promo_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
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
func ExampleEngine_ValidatePromotions() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	c, err := eng.Campaigns().Create(ctx, projectID, params[campaign.Params](`{"name":"Summer","campaign_type":"PROMOTION"}`))
	if err != nil {
		panic(err)
	}
	for _, tier := range []string{
		`{"name":"10% off","action":{"discount":{"type":"PERCENT","percent_off":10}}}`,
		`{"name":"25 off","action":{"discount":{"type":"AMOUNT","amount_off":2500}}}`,
	} {
		if _, err := eng.PromotionTiers().Create(ctx, projectID, c.ID, params[campaign.TierParams](tier)); err != nil {
			panic(err)
		}
	}
	res, err := eng.ValidatePromotions(ctx, projectID, params[promo.PromotionValidationParams](
		`{"order":{"items":[{"price":1995,"quantity":2},{"price":6000,"quantity":1}]}}`), promo.PromotionValidationQuery{})
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
