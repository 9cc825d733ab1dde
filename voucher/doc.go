// Package voucher holds vouchers: codes that carry a discount (DISCOUNT_VOUCHER),
// credits (GIFT_VOUCHER) or points (LOYALTY_CARD), standing alone or made by
// a campaign from its code_config.
//
// The [Service] (Engine.Vouchers()) creates a voucher (Create: with the
// given code or one generated from a [campaign.CodeConfig]), adds one to a
// campaign (CreateInCampaign), reads (Get by code or id, List with
// [ListParams]), updates, enables and disables (SetActive) and deletes
// them. Bulk work runs as async actions (package async): the generation of
// a campaign's vouchers (started by Engine.Campaigns().Create),
// GenerateInCampaign and ImportToCampaign return an [async.Ref] whose
// action Engine.AsyncActions().Wait waits for.
//
// A [Voucher]'s Redemption shows its quantity and how often it was
// redeemed; a gift card's Gift its balance, a loyalty card's LoyaltyCard
// its points. Balances change only through redemptions and the ledger of
// package redemption.
//
//	v, err := eng.Vouchers().Create(ctx, projectID, voucher.Params{
//		Code:     promo.Ptr("WELCOME"),
//		Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("500"))},
//	})
//	v, err = eng.Vouchers().Get(ctx, projectID, "WELCOME") // v.Redemption.RedeemedQuantity
package voucher
