// Package order holds orders and their items, and the pure calculation that
// turns a requested order into the calculated order (amounts, discounts and
// totals) used by orders and by promotion validation.
package order
