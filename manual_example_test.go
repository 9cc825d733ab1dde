package promo_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// A standalone voucher: a gift card of 50.00 with its own code, read back
// by code, disabled and enabled again.
func ExampleEngine_Vouchers() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	v := try(eng.Vouchers().Create(ctx, projectID, voucher.Params{
		Code: promo.Ptr("GIFT-50"),
		Type: promo.Ptr(campaign.GiftVoucher),
		Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](5000)},
	}))
	fmt.Println(v.Code, v.Type, v.Gift.Balance, v.Active)

	v = try(eng.Vouchers().SetActive(ctx, projectID, "GIFT-50", false))
	fmt.Println("disabled:", !v.Active)
	v = try(eng.Vouchers().SetActive(ctx, projectID, "GIFT-50", true))
	fmt.Println("enabled:", try(eng.Vouchers().Get(ctx, projectID, v.ID)).Active)
	// Output:
	// GIFT-50 GIFT_VOUCHER 5000 true
	// disabled: true
	// enabled: true
}

// Code generation runs as an async action: the campaign is IN_PROGRESS
// until the runner has made its codes. AsyncActionID names the action and
// Wait returns it once it has ended (here woken by this engine's runner;
// it also notices an action another process over the same store runs).
func ExampleEngine_AsyncActions() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	if err := eng.StartAsyncRunner(ctx, async.Config{}); err != nil {
		panic(err)
	}
	defer eng.Close()

	c := try(eng.Campaigns().Create(ctx, projectID, campaign.Params{
		Name:          promo.Ptr("Autumn"),
		VouchersCount: promo.Ptr[int64](1000),
		Voucher: &campaign.VoucherParams{
			Discount:   &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("1000"))},
			CodeConfig: &campaign.CodeConfig{Prefix: promo.Ptr("FALL-"), Length: promo.Ptr(8)},
		},
	}))
	fmt.Println("created:", c.CreationStatus, c.VouchersCount)

	a := try(eng.AsyncActions().Wait(ctx, projectID, c.AsyncActionID))
	var res async.CountResult
	if err := a.DecodeResult(&res); err != nil {
		panic(err)
	}
	fmt.Println("action:", a.Type, a.Status, a.Progress, res.DoneCount)

	c = try(eng.Campaigns().Get(ctx, projectID, "Autumn"))
	l := try(eng.Vouchers().List(ctx, projectID, voucher.ListParams{CampaignID: &c.ID}))
	code := l.Data[0].Code
	fmt.Println("campaign:", c.CreationStatus, c.VouchersCount, l.Total, strings.HasPrefix(code, "FALL-"), len(code))
	// Output:
	// created: IN_PROGRESS 0
	// action: CAMPAIGN.VOUCHERS_GENERATE DONE 100 1000
	// campaign: DONE 1000 1000 true 13
}

// Customers are upserted by source id (your system's id); a validation or
// order naming the source id is the same customer, and the customer's
// summary counts its redemptions.
func ExampleEngine_Customers() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	c := try(eng.Customers().Upsert(ctx, projectID, customer.Params{
		SourceID: promo.Ptr("user-42"),
		Name:     promo.Ptr("Ann"),
		Metadata: promotype.Metadata{"tier": "gold"},
	}))
	again := try(eng.Customers().Upsert(ctx, projectID, customer.Params{SourceID: promo.Ptr("user-42"), Email: promo.Ptr("ann@example.com")}))
	fmt.Println(again.ID == c.ID, *again.Name, *again.Email, again.Metadata["tier"])

	try(eng.Vouchers().Create(ctx, projectID, voucher.Params{
		Code:     promo.Ptr("HELLO"),
		Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("300"))},
	}))
	try(eng.Redemptions().Redeem(ctx, projectID, redemption.ValidationParams{
		Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: "HELLO"}},
		Order:       &order.Params{Amount: promo.Ptr[int64](2000)},
		Customer:    &customer.Params{SourceID: promo.Ptr("user-42")},
	}, redemption.RedeemOptions{}))
	got := try(eng.Customers().Get(ctx, projectID, "user-42"))
	fmt.Println("redeemed:", got.Summary.Redemptions.TotalRedeemed, "orders:", got.Summary.Orders.TotalCount)
	// Output:
	// true Ann ann@example.com gold
	// redeemed: 1 orders: 1
}

// A validation rule is a numbered set of conditions joined by its logic;
// assigned to a voucher, it decides whether the voucher applies. A
// failing rule makes the voucher inapplicable with the rule's error.
func ExampleEngine_ValidationRules() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	gold := try(eng.ValidationRules().Create(ctx, projectID, rule.Params{
		Name: promo.Ptr("Gold customers, orders over 50.00"),
		Rules: &rule.RuleSet{Logic: "1 and 2", Rules: map[string]rule.Rule{
			"1": {Name: "customer.metadata", Property: promo.Ptr("tier"), Conditions: map[string][]any{"$is": {"gold"}}},
			"2": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {5000}}},
		}},
		Error: &promotype.ErrorMessage{Message: "Only for gold customers"},
	}))
	try(eng.Vouchers().Create(ctx, projectID, voucher.Params{
		Code:            promo.Ptr("GOLD"),
		Discount:        &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal("15"))},
		ValidationRules: []string{gold.ID},
	}))
	check := func(tier string, amount int64) {
		v := try(eng.Validations().Validate(ctx, projectID, redemption.ValidationParams{
			Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: "GOLD"}},
			Order:       &order.Params{Amount: &amount},
			Customer:    &customer.Params{SourceID: promo.Ptr(tier + "-customer"), Metadata: promotype.Metadata{"tier": tier}},
		}))
		if v.Valid {
			fmt.Println(tier, amount, "valid, to pay:", v.Order.TotalAmount)
			return
		}
		e := v.InapplicableRedeemables[0].Result.Error
		fmt.Println(tier, amount, "invalid:", e.Key, "/", e.Err.Message) // Err: the rule's own error
	}
	check("gold", 8000)
	check("gold", 3000)
	check("silver", 8000)
	// Output:
	// gold 8000 valid, to pay: 6800
	// gold 3000 invalid: order_rules_violated / Only for gold customers
	// silver 8000 invalid: customer_rules_violated / Only for gold customers
}

// A promotion stack applies tiers of one campaign in order, each to the
// order the ones before it left; validating the stack applies each tier
// whose rules the running order still meets.
func ExampleEngine_PromotionStacks() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	percent := func(name, pct string) campaign.TierParams {
		return campaign.TierParams{Name: promo.Ptr(name), Action: &campaign.TierAction{
			Discount: &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal(pct))}}}
	}
	sale := try(eng.Campaigns().Create(ctx, projectID, campaign.Params{
		Name:         promo.Ptr("Black Friday"),
		CampaignType: promo.Ptr(campaign.Promotion),
		Promotion:    &campaign.PromotionParams{Tiers: []campaign.TierParams{percent("20% off", "20"), percent("then 10% off", "10")}},
	}))
	tiers := sale.Promotion.Data
	stack := try(eng.PromotionStacks().Create(ctx, projectID, sale.ID, campaign.StackParams{
		Name:  promo.Ptr("Both"),
		Tiers: &campaign.StackTiersParams{IDs: []string{tiers[0].ID, tiers[1].ID}},
	}))

	v := try(eng.Validations().Validate(ctx, projectID, redemption.ValidationParams{
		Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectPromotionStack, ID: stack.ID}},
		Order:       &order.Params{Amount: promo.Ptr[int64](10000)},
	}))
	for _, r := range v.Redeemables {
		fmt.Println(r.Status, r.Order.AppliedDiscountAmount)
	}
	fmt.Println("to pay:", v.Order.TotalAmount)
	// Output:
	// APPLICABLE 2000
	// APPLICABLE 800
	// to pay: 7200
}

// Redeeming a single code, then rolling it back: the rollback gives the
// unit back, so a single-use code redeems again.
func ExampleEngine_Redemptions() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	try(eng.Vouchers().Create(ctx, projectID, voucher.Params{
		Code:     promo.Ptr("ONCE"),
		Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("500"))},
		Common:   voucher.Common{Redemption: &campaign.RedemptionParams{Quantity: promo.Ptr[int64](1)}},
	}))
	cart := redemption.ValidationParams{
		Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: "ONCE"}},
		Order:       &order.Params{Amount: promo.Ptr[int64](3000)},
	}
	r := try(eng.Redemptions().Redeem(ctx, projectID, cart, redemption.RedeemOptions{}))
	fmt.Println("redeemed:", r.Redemptions[0].Result, r.Order.TotalAmount)

	_, err := eng.Redemptions().Redeem(ctx, projectID, cart, redemption.RedeemOptions{})
	fmt.Println("again:", promotype.AsError(err).Key)

	rb := try(eng.Redemptions().Rollback(ctx, projectID, r.Redemptions[0].ID, redemption.RollbackParams{Reason: promo.Ptr("order cancelled")}))
	fmt.Println("rolled back:", rb.Head().Result, *rb.Head().Reason)

	r = try(eng.Redemptions().Redeem(ctx, projectID, cart, redemption.RedeemOptions{}))
	fmt.Println("after the rollback:", r.Redemptions[0].Result)
	// Output:
	// redeemed: SUCCESS 2500
	// again: quantity_exceeded
	// rolled back: SUCCESS order cancelled
	// after the rollback: SUCCESS
}
