package promo_test

import (
	"context"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// try returns v, or panics with err: the examples' error handling.
func try[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The checkout loop of a shop: a product; a coupon campaign whose codes
// the async runner generates (Wait waits for them); a promotion tier for
// orders over 30.00 (a validation rule); a customer. At checkout, one
// validation takes a code and the tier together, the redemption spends
// them, and one Rollback undoes the stacked redemption.
func Example_checkout() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	if err := eng.StartAsyncRunner(ctx, async.Config{}); err != nil {
		panic(err)
	}
	defer eng.Close()

	tee := try(eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{Name: promo.Ptr("T-shirt"), Price: promo.Ptr[int64](2500)}))
	coupons := try(eng.Campaigns().Create(ctx, projectID, campaign.Params{
		Name:          promo.Ptr("Welcome"),
		VouchersCount: promo.Ptr[int64](5),
		Voucher: &campaign.VoucherParams{
			Discount:   &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("500"))},
			CodeConfig: &campaign.CodeConfig{Pattern: promo.Ptr("WELCOME-####")},
		},
	}))
	try(eng.AsyncActions().Wait(ctx, projectID, coupons.AsyncActionID))
	code := try(eng.Vouchers().List(ctx, projectID, voucher.ListParams{CampaignID: &coupons.ID})).Data[0].Code

	over30 := try(eng.ValidationRules().Create(ctx, projectID, rule.Params{Name: promo.Ptr("Over 30.00"), Rules: &rule.RuleSet{Rules: map[string]rule.Rule{
		"1": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {3000}}},
	}}}))
	sale := try(eng.Campaigns().Create(ctx, projectID, campaign.Params{
		Name:         promo.Ptr("Summer"),
		CampaignType: promo.Ptr(campaign.Promotion),
		Promotion: &campaign.PromotionParams{Tiers: []campaign.TierParams{{
			Name:            promo.Ptr("10% off over 30.00"),
			Action:          &campaign.TierAction{Discount: &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal("10"))}},
			ValidationRules: []string{over30.ID},
		}}},
	}))
	try(eng.Customers().Upsert(ctx, projectID, customer.Params{SourceID: promo.Ptr("ann"), Email: promo.Ptr("ann@example.com")}))

	cart := redemption.ValidationParams{
		Redeemables: []redemption.RedeemableParams{
			{Object: redemption.ObjectVoucher, ID: code},
			{Object: redemption.ObjectPromotionTier, ID: sale.Promotion.Data[0].ID},
		},
		Order:    &order.Params{Items: []order.ItemParams{order.ProductItem(tee.ID, 2)}},
		Customer: &customer.Params{SourceID: promo.Ptr("ann")},
	}
	v := try(eng.Validations().Validate(ctx, projectID, cart))
	fmt.Println("valid:", v.Valid, "amount:", v.Order.Amount, "discount:", v.Order.TotalDiscountAmount, "to pay:", v.Order.TotalAmount)

	r := try(eng.Redemptions().Redeem(ctx, projectID, cart, redemption.RedeemOptions{}))
	fmt.Println("redeemed:", r.ParentRedemption.Result, len(r.Redemptions), "redemptions")

	rb := try(eng.Redemptions().Rollback(ctx, projectID, r.ParentRedemption.ID, redemption.RollbackParams{}))
	fmt.Println("rolled back:", rb.Head().Result, len(rb.Rollbacks), "redemptions, order", rb.Order.Status)
	fmt.Println("code redeemed:", try(eng.Vouchers().Get(ctx, projectID, code)).RedeemedQuantity, "times")
	// Output:
	// valid: true amount: 5000 discount: 950 to pay: 4050
	// redeemed: SUCCESS 2 redemptions
	// rolled back: SUCCESS 2 redemptions, order CANCELED
	// code redeemed: 0 times
}
