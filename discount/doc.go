// Package discount holds the discount object of campaigns, vouchers and
// promotion tiers, the applicable_to / inapplicable_to restrictions of
// validation rules, and the pure calculation that applies one discount to
// a cart with running totals.
//
// Money is int64 minor units. Percentages and shares use decimal; every
// rounding goes through order/money.go: a percentage rounds half-up to the unit,
// a split over lines uses largest remainder (ties to the earlier line), so
// parts always sum to the whole. No discount exceeds what it applies to.
package discount
