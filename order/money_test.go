package order_test

import (
	"math/rand/v2"
	"testing"
	"testing/quick"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/order"
)

func TestPercentOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		amount int64
		pct    string
		want   int64
	}{
		{1995, "10", 200},   // 199.5 rounds half-up
		{20050, "10", 2005}, // E6 (DE "Apply to order")
		{46500, "10", 4650}, // E6 (VAL "Percentage")
		{900, "40", 360},    // E10, fourth redeemable
		{4500, "10", 450},   // E8, 10% of the poster line ($4.50)
		{5, "10", 1},        // 0.5 → 1
		{4, "10", 0},        // 0.4 → 0
		{15, "10", 2},       // 1.5 → 2 (not to even)
		{25, "10", 3},       // 2.5 → 3 (not to even)
		{1, "0.5", 0},       // 0.005 → 0
		{100, "12.345", 12}, // 12.345 → 12
		{999, "33.35", 333}, // 333.1665 → 333
		{1000, "100", 1000}, // all of it
		{0, "50", 0},        // nothing of nothing
		{order.MaxAmount, "100", order.MaxAmount},
	}
	for _, tc := range tests {
		if got := order.PercentOf(tc.amount, decimal.RequireFromString(tc.pct)); got != tc.want {
			t.Errorf("PercentOf(%d, %s) = %d, want %d", tc.amount, tc.pct, got, tc.want)
		}
	}
}

func TestRatio(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ amount, num, den, want int64 }{
		{1000, 2000, 10000, 200}, // E7: 1000 × 2000/10000
		{1000, 1, 3, 333},
		{1000, 2, 3, 667},
		{5, 1, 2, 3}, // 2.5 → 3
		{order.MaxAmount, order.MaxAmount, order.MaxAmount, order.MaxAmount},
	} {
		if got := order.Ratio(tc.amount, tc.num, tc.den); got != tc.want {
			t.Errorf("Ratio(%d, %d, %d) = %d, want %d", tc.amount, tc.num, tc.den, got, tc.want)
		}
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		total   int64
		weights []int64
		want    []int64
	}{
		{"E7 proportionally by amount", 1000, []int64{2000, 8000}, []int64{200, 800}},
		{"E8 proportionally by amount", 1000, []int64{2000, 4500, 6000}, []int64{160, 360, 480}},
		{"E8 proportionally by quantity", 1000, []int64{2, 3, 3}, []int64{250, 375, 375}},
		{"ties go to the earlier line", 10, []int64{1, 1, 1}, []int64{4, 3, 3}},
		{"largest remainder first", 100, []int64{1, 2}, []int64{33, 67}},
		{"two leftovers", 11, []int64{1, 1, 1}, []int64{4, 4, 3}},
		{"a zero weight gets nothing", 7, []int64{0, 1, 0, 1}, []int64{0, 4, 0, 3}},
		{"nothing to split over", 7, []int64{0, 0}, []int64{0, 0}},
		{"nothing to split", 0, []int64{3, 4}, []int64{0, 0}},
		{"no lines", 5, nil, []int64{}},
		{"huge values stay exact", order.MaxAmount, []int64{order.MaxAmount, order.MaxAmount}, []int64{order.MaxAmount/2 + 1, order.MaxAmount / 2}},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, order.Split(tc.total, tc.weights), cmpOpts...); d != "" {
			t.Errorf("%s: Split(%d, %v) (-want +got):\n%s", tc.name, tc.total, tc.weights, d)
		}
	}
}

// Split's parts always sum to the whole, and each part is within one unit
// of its exact share.
func TestSplitProperties(t *testing.T) {
	t.Parallel()
	f := func(total uint32, raw []uint16) bool {
		weights := make([]int64, len(raw))
		var sum int64
		for i, w := range raw {
			weights[i] = int64(w)
			sum += int64(w)
		}
		parts := order.Split(int64(total), weights)
		if len(parts) != len(weights) {
			return false
		}
		var got int64
		for i, p := range parts {
			got += p
			if sum == 0 {
				if p != 0 {
					return false
				}
				continue
			}
			exact := float64(total) * float64(weights[i]) / float64(sum)
			if p < 0 || float64(p) < exact-1 || float64(p) > exact+1 {
				return false
			}
		}
		return sum == 0 || got == int64(total)
	}
	cfg := &quick.Config{MaxCount: 5000, Rand: nil}
	if err := quick.Check(f, cfg); err != nil {
		t.Error(err)
	}
}

// PercentOf stays within [0, amount] and within half a unit of the exact value.
func TestPercentOfProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		amount := r.Int64N(order.MaxAmount)
		pct := decimal.New(r.Int64N(10001), -2) // 0.00 .. 100.00
		got := order.PercentOf(amount, pct)
		exact := decimal.NewFromInt(amount).Mul(pct).Div(decimal.NewFromInt(100))
		if got < 0 || got > amount || exact.Sub(decimal.NewFromInt(got)).Abs().GreaterThan(decimal.New(5, -1)) {
			t.Fatalf("PercentOf(%d, %s) = %d, exact %s", amount, pct, got, exact)
		}
	}
}

// TestPercentOfAgreesWithDecimal checks the integer fast path of PercentOf
// against decimal arithmetic over percentages of every precision it takes
// or leaves to decimals (exponents 2 … −20, values above 100 too).
func TestPercentOfAgreesWithDecimal(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		amount := r.Int64N(order.MaxAmount)
		if r.IntN(2) == 0 {
			amount = r.Int64N(100000)
		}
		pct := decimal.New(r.Int64N(1<<62), -int32(r.IntN(23))+2)
		if r.IntN(2) == 0 {
			pct = decimal.New(r.Int64N(10001), -int32(r.IntN(6)))
		}
		if pct.GreaterThan(decimal.NewFromInt(100)) && r.IntN(4) > 0 {
			continue // mostly valid percentages; a few above 100 check the guard
		}
		want := decimal.NewFromInt(amount).Mul(pct).Shift(-2).Round(0).IntPart()
		if got := order.PercentOf(amount, pct); got != want {
			t.Fatalf("PercentOf(%d, %s) = %d, want %d", amount, pct, got, want)
		}
	}
}
