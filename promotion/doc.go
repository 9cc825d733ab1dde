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
package promotion
