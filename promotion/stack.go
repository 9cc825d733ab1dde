package promotion

import (
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
)

// StackStep is one tier of an evaluated stack: whether it applied and the
// order as it stood after it (cumulative discounts, its own applied_*).
type StackStep struct {
	TierID         string
	Tier           *Tier // nil when the id names no tier of the snapshot
	Valid          bool
	Order          *order.Order
	DiscountAmount int64
}

// Stack applies the tiers ids names in that order to one copy of the
// request's order, with running totals: each tier's rules read the order as
// the tiers before it left it (order.amount stays the cart's value,
// order.total_amount the total after the tier), and a tier that is closed,
// fails its rules or cannot be priced is skipped. It returns one step per id
// and the final order.
func (s *Snapshot) Stack(ids []string, req Request) ([]StackStep, *order.Order) {
	o := req.Order.Fork()
	steps := make([]StackStep, 0, len(ids))
	for _, id := range ids {
		step := StackStep{TierID: id, Tier: s.Tier(id)}
		if t := step.Tier; t != nil && s.Open(t, req.Now) {
			in := ruleInput(o, req.Customer, req.Redemption, req.Segments, s.collections)
			if s.rulesPass(t, req, in, false) {
				next := o.Fork()
				next.ResetApplied()
				got, err := discount.ApplyWith(next, t.Discount, t.Applicability, s.catalog, nil, t.facts(req))
				in.TotalAmount = next.TotalAmount
				if err == nil && (!s.needsTotal(t) || s.rulesPass(t, req, in, true)) {
					o, step.Valid, step.DiscountAmount = next, true, got
				}
			}
		}
		step.Order = o.Fork()
		if !step.Valid {
			step.Order.ResetApplied()
		}
		steps = append(steps, step)
	}
	return steps, o
}
