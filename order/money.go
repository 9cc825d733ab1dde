package order

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/shopspring/decimal"
)

// Money arithmetic: the one place where the rounding rules live (half-up
// for percentages, largest remainder for splits). Amounts are int64 minor units, ratios are
// decimals, and nothing goes through float64.
//
//   - A percentage of an amount rounds half-up to the integer unit
//     (PercentOf: 10% of 1995 = 200).
//   - A split of one amount over lines uses largest remainder (Split): floor
//     each share, then hand the leftover units one by one to the largest
//     remainders, ties to the earlier line; the parts always sum to the whole.
//   - No discount exceeds what it applies to (ApplyItemDiscount,
//     ApplyOrderDiscount cap it), so no amount is ever negative.

// PercentOf returns pct percent of amount, rounded half-up to the integer
// unit. amount ≥ 0 and 0 ≤ pct ≤ 100 keep the result in [0, amount].
func PercentOf(amount int64, pct decimal.Decimal) int64 {
	if amount == 0 || pct.Sign() == 0 {
		return 0
	}
	// Fast path without big numbers: pct = c × 10^exp with a small c, so
	// pct% of amount = amount × c / (100 × 10^-exp), rounded half-up by Ratio.
	if exp := pct.Exponent(); amount > 0 && pct.Sign() > 0 && exp <= 0 && exp >= -16 && pct.NumDigits() <= 18 {
		den := int64(100)
		for range -exp {
			den *= 10
		}
		if c := pct.CoefficientInt64(); c <= den {
			return Ratio(amount, c, den)
		}
	}
	// Shift(-2) divides by 100 exactly; Round(0) rounds half away from zero,
	// which is half-up for the non-negative values money takes.
	return decimal.NewFromInt(amount).Mul(pct).Shift(-2).Round(0).IntPart()
}

// Ratio returns amount × num / den rounded half-up, for a share computed
// with integers (num ≤ den keeps it within amount). den must be positive.
func Ratio(amount, num, den int64) int64 {
	q, r := mulDiv(uint64(amount), uint64(num), uint64(den))
	if 2*r >= uint64(den) {
		q++
	}
	return int64(q)
}

// Split divides total (≥ 0) over lines in proportion to weights (each ≥ 0)
// by largest remainder: each part is ⌊total × w / Σw⌋, and the units left
// over go one each to the parts with the largest remainders, the earlier
// line first on a tie. The parts sum to total. When every weight is 0 there
// is nothing to split over and every part is 0.
func Split(total int64, weights []int64) []int64 {
	parts := make([]int64, len(weights))
	var sum uint64
	for _, w := range weights {
		sum += uint64(w)
	}
	if sum == 0 || total == 0 {
		return parts
	}
	rems := make([]uint64, len(weights))
	left := total
	for i, w := range weights {
		q, r := mulDiv(uint64(total), uint64(w), sum)
		parts[i], rems[i] = int64(q), r
		left -= int64(q)
	}
	if left == 0 {
		return parts
	}
	// left < the number of lines with a remainder: each floor loses less
	// than one unit. Hand them out in remainder order, earlier line first.
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rems[b], rems[a]) })
	for _, i := range order[:left] {
		parts[i]++
	}
	return parts
}

// mulDiv returns ⌊a × b / d⌋ and the remainder, exactly (128-bit product).
// The quotient must fit 64 bits, as it does when b ≤ d.
func mulDiv(a, b, d uint64) (q, r uint64) {
	hi, lo := bits.Mul64(a, b)
	return bits.Div64(hi, lo, d)
}

// lineAmount is price × quantity, or false when it would exceed MaxAmount.
func lineAmount(price, quantity int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(price), uint64(quantity))
	if hi != 0 || lo > uint64(MaxAmount) {
		return 0, false
	}
	return int64(lo), true
}

// RoundUnits rounds a decimal amount (a discount's amount_off, say)
// half-up to the integer unit, saturating at 0 and MaxAmount.
func RoundUnits(d decimal.Decimal) int64 {
	r := d.Round(0)
	switch {
	case r.Sign() <= 0:
		return 0
	case r.GreaterThan(decimal.NewFromInt(MaxAmount)):
		return MaxAmount
	}
	return r.IntPart()
}
