// Package promotion evaluates promotion tiers against a cart: the pure
// engine behind POST /v1/promotions/validation and stack evaluation.
//
// A [Snapshot] holds a project's tiers compiled for validation (rules as
// typed programs, discounts, time windows) and an index of the facts each
// tier cannot pass without, so a request visits only the tiers its cart
// and metadata can satisfy: the cost follows the cart and the matching
// tiers, not the number of tiers. Each valid tier is priced on its own
// fork of the original calculated order; a stack applies its tiers in
// order with running totals.
//
// The [Service] (Engine.Promotions()) answers Validate (which tiers a cart
// qualifies for, each with the order it would price, nothing stored) and
// EvaluateStack; redeeming a tier goes through package redemption.
//
//	res, err := eng.Promotions().Validate(ctx, projectID, promotion.ValidationParams{
//		Order: order.Params{Items: []order.ItemParams{order.PricedItem(1995, 2)}},
//	}, promotion.ValidationQuery{})
//	for _, p := range res.Promotions { ... p.DiscountAmount ... }
package promotion
