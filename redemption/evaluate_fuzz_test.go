package redemption

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/order"
)

// FuzzEvaluate drives the stacking evaluation alone with random stacking
// rules, redeemables (discounts of every type and effect, gift credits,
// loyalty points, unusable ones, categories, rules) and carts, and checks
// every invariant of an outcome (checkOutcome): no panic, the limits
// hold, no amount negative, total = amount − discount, each step's
// cumulative order is the previous one plus what it applied, and asking
// for explanations changes nothing else.
//
//	go test -run '^$' -fuzz FuzzEvaluate -fuzztime 60s ./redemption/
func FuzzEvaluate(f *testing.F) {
	rng := rand.New(rand.NewPCG(14, 60))
	for range 16 {
		f.Add(randomBytes(rng, 160))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := genScenario(&choices{data: data})
		checkOutcome(t, s)
	})
}

// TestEvaluateInvariants runs the fuzz target's checks over seeded
// scenarios, so they hold in every plain `go test`.
func TestEvaluateInvariants(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(14, 2027))
	for range 2000 {
		checkOutcome(t, genScenario(&choices{data: randomBytes(rng, 200)}))
	}
}

// stepView is what two evaluations of one scenario must agree on.
type stepView struct {
	Index           int
	Status          Status
	Details, Error  string
	Credits, Points int64
	Amounts         amounts
}

func viewOf(out *Outcome) (bool, []stepView, amounts) {
	var vs []stepView
	for _, st := range out.Steps {
		v := stepView{Index: st.Index, Status: st.Status, Credits: st.Credits, Points: st.Points}
		if st.Details != nil {
			v.Details = st.Details.Key
		}
		if st.Error != nil {
			v.Error = st.Error.Key
		}
		if st.Order != nil {
			v.Amounts = amountsOf(st.Order)
		}
		vs = append(vs, v)
	}
	return out.Valid, vs, amountsOf(out.Order)
}

// checkOutcome evaluates s with and without explanations and checks the
// outcome's invariants.
func checkOutcome(t *testing.T, s scenario) {
	t.Helper()
	baseAmounts := amountsOf(s.req.Order)
	req := s.req
	req.Explain = false
	out := Evaluate(s.rules, s.cands, req)
	req.Explain = true
	explainedOut := Evaluate(s.rules, s.cands, req)
	if diff := cmp.Diff(fmtView(viewOf(out)), fmtView(viewOf(explainedOut))); diff != "" {
		t.Fatalf("explaining changed the outcome (-off +on):\n%s", diff)
	}
	if amountsOf(s.req.Order) != baseAmounts {
		t.Fatalf("the request's order changed: %+v, was %+v", amountsOf(s.req.Order), baseAmounts)
	}
	if len(out.Steps) != len(s.cands) {
		t.Fatalf("%d steps for %d candidates", len(out.Steps), len(s.cands))
	}
	seen := make([]bool, len(s.cands))
	applicable, exclusives := 0, 0
	perCat := map[string]int{}
	commonApplied := false
	ev := &evaluator{rules: s.rules}
	prev := s.req.Order.TotalDiscountAmount
	var applied int64
	for i, st := range out.Steps {
		if seen[st.Index] || st.Candidate != &s.cands[st.Index] {
			t.Fatalf("step %d: index %d repeated or not its candidate", i, st.Index)
		}
		seen[st.Index] = true
		if out.Steps[i].Explanation != nil {
			t.Fatalf("step %d: an explanation without Request.Explain", i)
		}
		checkExplanation(t, s, explainedOut, i)
		c := st.Candidate
		switch st.Status {
		case Applicable:
			o := st.Order
			if o == nil || st.Details != nil || st.Error != nil {
				t.Fatalf("step %d: applicable with order %v, details %v, error %v", i, o != nil, st.Details, st.Error)
			}
			checkOrder(t, i, o)
			if o.TotalDiscountAmount != prev+o.TotalAppliedDiscountAmount {
				t.Fatalf("step %d: cumulative discount %d, previous %d + applied %d", i, o.TotalDiscountAmount, prev, o.TotalAppliedDiscountAmount)
			}
			prev = o.TotalDiscountAmount
			applied += o.TotalAppliedDiscountAmount
			if c.Gift != nil && (st.Credits < 0 || st.Credits > c.Gift.Balance || st.Credits != o.TotalAppliedDiscountAmount) {
				t.Fatalf("step %d: gift credits %d of balance %d, applied %d", i, st.Credits, c.Gift.Balance, o.TotalAppliedDiscountAmount)
			}
			if c.Loyalty != nil && (st.Points < 0 || st.Points > c.Loyalty.Balance) {
				t.Fatalf("step %d: points %d of balance %d", i, st.Points, c.Loyalty.Balance)
			}
			applicable++
			if c.CategoryID != "" {
				perCat[c.CategoryID]++
			}
			switch ev.kind(c) {
			case exclusive:
				exclusives++
			case common:
				commonApplied = true
			}
		case Inapplicable:
			if st.Error == nil || st.Details == nil || st.Order != nil || st.Credits != 0 || st.Points != 0 {
				t.Fatalf("step %d: inapplicable with error %v, details %v, order %v, credits %d, points %d", i, st.Error, st.Details, st.Order != nil, st.Credits, st.Points)
			}
		case Skipped:
			if st.Details == nil || st.Error != nil || st.Order != nil || st.Credits != 0 || st.Points != 0 {
				t.Fatalf("step %d: skipped with details %v, error %v, order %v", i, st.Details, st.Error, st.Order != nil)
			}
		default:
			t.Fatalf("step %d: status %q", i, st.Status)
		}
	}
	r := s.rules
	if applicable > r.ApplicableRedeemablesLimit || exclusives > r.ApplicableExclusiveRedeemablesLimit {
		t.Fatalf("%d applicable (limit %d), %d exclusive (limit %d)", applicable, r.ApplicableRedeemablesLimit, exclusives, r.ApplicableExclusiveRedeemablesLimit)
	}
	for cat, n := range perCat {
		lim, ok := r.ApplicableRedeemablesCategoryLimits[cat]
		if !ok {
			lim = r.ApplicableRedeemablesPerCategoryLimit
		}
		if n > lim {
			t.Fatalf("category %s: %d applicable, limit %d", cat, n, lim)
		}
	}
	if exclusives > 0 && commonApplied {
		t.Fatal("a common redeemable applied next to an exclusive one")
	}
	wantValid := applicable > 0
	if r.RedeemablesApplicationMode == ModeAll {
		wantValid = applicable > 0 && applicable == len(out.Steps)
	}
	if out.Valid != wantValid {
		t.Fatalf("valid %v with %d of %d applicable (%s)", out.Valid, applicable, len(out.Steps), r.RedeemablesApplicationMode)
	}
	f := out.Order
	checkOrder(t, -1, f)
	if f.TotalAppliedDiscountAmount != applied || f.TotalDiscountAmount != prev {
		t.Fatalf("final applied %d (Σ steps %d), discount %d (last step %d)", f.TotalAppliedDiscountAmount, applied, f.TotalDiscountAmount, prev)
	}
}

func fmtView(valid bool, steps []stepView, final amounts) any {
	return struct {
		Valid bool
		Steps []stepView
		Final amounts
	}{valid, steps, final}
}

// checkOrder: no amount negative, no discount above what it applies to,
// total = amount − discount.
func checkOrder(t *testing.T, step int, o *order.Order) {
	t.Helper()
	if o.TotalAmount != o.Amount-o.TotalDiscountAmount {
		t.Fatalf("step %d: total %d ≠ amount %d − discount %d", step, o.TotalAmount, o.Amount, o.TotalDiscountAmount)
	}
	if o.AppliedDiscountAmount < 0 || o.TotalAppliedDiscountAmount < 0 || o.ItemsAppliedDiscountAmount < 0 {
		t.Fatalf("step %d: negative applied discount %+v", step, amountsOf(o))
	}
	checkMoney(t, step, o)
}
