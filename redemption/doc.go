// Package redemption is the checkout loop: validating redeemables
// (vouchers, promotion tiers, stacks, gift and loyalty cards) together
// against an order and a customer, redeeming them, and rolling redemptions
// back; with it the stacking rules that decide how many redeemables may
// apply at once, validation sessions that reserve what a validation
// promised, qualifications (which redeemables a customer and order
// qualify for), and the ledger of gift credits and loyalty points.
//
// An engine hands out its services:
//
//   - [Service] (Engine.Validations()): Validate answers which redeemables
//     apply and what the order costs with them, changing nothing.
//     ValidateVoucher is the legacy single-voucher validation.
//   - [RedemptionService] (Engine.Redemptions()): Redeem spends what the
//     applicable redeemables promise, stores the order and writes the
//     ledger in one transaction; Rollback undoes a redemption, single or
//     stacked; Get, List and the per-voucher reads show the ledger;
//     AddBalance and Transactions move and show gift credits and loyalty
//     points.
//   - [StackingRulesService] (Engine.StackingRules()): the project's
//     stacking rules ([StackingRules]; [DefaultStackingRules] until set).
//   - [QualificationService] (Engine.Qualifications()): Qualify.
//
// [ValidationParams] is the request of both Validate and Redeem: the
// redeemables, the order (priced from the catalog when it names products)
// and the customer. A redemption of several redeemables is stacked: Redeem
// returns a parent redemption ([Redemptions].ParentRedemption) with one
// child per redeemable, and Rollback of the parent rolls back every child.
//
//	in := redemption.ValidationParams{
//		Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: "SPRING-10"}},
//		Order:       &order.Params{Amount: promo.Ptr[int64](5000)},
//	}
//	v, err := eng.Validations().Validate(ctx, projectID, in)   // v.Valid, v.Order.TotalAmount
//	r, err := eng.Redemptions().Redeem(ctx, projectID, in, redemption.RedeemOptions{})
//	rb, err := eng.Redemptions().Rollback(ctx, projectID, r.Redemptions[0].ID, redemption.RollbackParams{})
//
// Refusals are [promotype.Error] values with the hosted service's keys
// (quantity_exceeded, voucher_expired, already_rolled_back, ...): a failed
// redemption is stored (rf_…) and its error names it.
package redemption
