// Package campaign holds campaigns and what hangs off them: categories,
// promotion tiers (the discounts of a PROMOTION campaign, applied without a
// code), promotion stacks (tiers applied together in order), validity
// windows and code configs.
//
// The services, as an engine hands them out:
//
//   - [API] (Engine.Campaigns()): Create, Get (by id or name), List,
//     Update, Delete, Enable, Disable, and the categories. A campaign of
//     vouchers (DISCOUNT_COUPONS, GIFT_VOUCHERS, LOYALTY_PROGRAM,
//     REFERRAL_PROGRAM) with vouchers_count above 0 is returned
//     IN_PROGRESS; an async action generates its codes from its
//     [CodeConfig] and sets it DONE. The returned [Campaign]'s
//     AsyncActionID names that action, for Engine.AsyncActions().Wait.
//   - [TierService] (Engine.PromotionTiers()): a PROMOTION campaign's
//     tiers ([PromotionTier]): a [Discount] (AMOUNT, PERCENT, FIXED, UNIT,
//     SHIPPING), validation rules and a priority.
//   - [StackService] (Engine.PromotionStacks()): stacks ([PromotionStack]), each an
//     ordered list of tiers of one campaign.
//
// A campaign of 100 generated codes, waited for:
//
//	c, err := eng.Campaigns().Create(ctx, projectID, campaign.Params{
//		Name:          promo.Ptr("Spring"),
//		VouchersCount: promo.Ptr[int64](100),
//		Voucher: &campaign.VoucherParams{
//			Discount:   &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal("10"))},
//			CodeConfig: &campaign.CodeConfig{Pattern: promo.Ptr("SPRING-####")},
//		},
//	})
//	_, err = eng.AsyncActions().Wait(ctx, projectID, c.AsyncActionID) // the 100 codes exist
//
// The package declares the storage ports it consumes ([Store] and the
// ports it embeds); its services hold every rule, so all stores behave
// the same.
package campaign
