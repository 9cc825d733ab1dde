package discount

import (
	"math"

	"github.com/shopspring/decimal"
)

// Every rounding of the engine is one of the functions in this file.

var hundred = decimal.NewFromInt(100)

// roundUnits rounds a decimal amount half-up to an integer unit (a
// fractional amount_off of 10.5 gives 11). Values beyond int64 saturate.
func roundUnits(d decimal.Decimal) int64 {
	r := d.Round(0)
	if !r.IsInteger() || r.GreaterThan(decimal.NewFromInt(math.MaxInt64)) {
		return math.MaxInt64
	}
	if r.LessThan(decimal.NewFromInt(math.MinInt64)) {
		return math.MinInt64
	}
	return r.IntPart()
}

// percentOf is pct% of amount, half-up to the unit: 10% of 1995 = 200.
func percentOf(pct decimal.Decimal, amount int64) int64 {
	return roundUnits(pct.Mul(decimal.NewFromInt(amount)).Div(hundred))
}

// split divides total over weights by largest remainder: each part is
// floor(total × w / Σw), and the units left go one by one to the largest
// remainders (ties: the earlier part). The parts sum to total when Σw > 0.
func split(total int64, weights []int64) []int64 {
	parts := make([]int64, len(weights))
	var sum int64
	for _, w := range weights {
		sum += w
	}
	if sum <= 0 || total <= 0 {
		return parts
	}
	T, S := decimal.NewFromInt(total), decimal.NewFromInt(sum)
	rems := make([]decimal.Decimal, len(weights))
	var given int64
	for i, w := range weights {
		exact := T.Mul(decimal.NewFromInt(w)).Div(S)
		parts[i] = exact.Floor().IntPart()
		rems[i] = exact.Sub(exact.Floor())
		given += parts[i]
	}
	for left := total - given; left > 0; left-- {
		best := -1
		for i := range rems {
			if weights[i] > 0 && (best < 0 || rems[i].GreaterThan(rems[best])) {
				best = i
			}
		}
		parts[best]++
		rems[best] = decimal.NewFromInt(-1) // each part takes at most one leftover unit
	}
	return parts
}

// satMul multiplies two non-negative int64 without overflow (saturating).
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}
