// Package order holds orders and their items, and the pure calculation that
// turns a requested order into the calculated order (amounts, discounts and
// totals) used by orders and by promotion validation.
//
// The pieces:
//
//   - Params / ItemParams: the request (POST and PUT /v1/orders, and the
//     `order` of a validation). Quantity accepts a number or a numeric
//     string; Nullable tells an absent field from null.
//   - Calculate(in, cat): the pure function. cat is a Catalog index of the
//     products and SKUs the items name (ItemKeys lists them; the Service
//     reads them in one batch per kind). It joins, prices and totals the
//     lines with the formulas documented on
//     Calculate, Order and Item.
//   - discount.go: the extension points of the discount step (promotion
//     evaluation): Fork, ApplyItemDiscount, ApplyOrderDiscount, AddUnits,
//     AddItem, DiscountUnits, ResetApplied, Recompute. They keep every
//     invariant (no negative amount, a line discount ≤ its line, totals add
//     up, total_amount = amount − total_discount_amount).
//   - money.go: the one place of rounding (PercentOf half-up, Split by
//     largest remainder, Ratio).
//   - Service: create (an upsert by id or source_id), get, update and list
//     over a ServiceStore, and Resolve: the order a validation or redemption
//     request names, the stored one when its id or source_id names one.
package order
