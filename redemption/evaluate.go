package redemption

import (
	"cmp"
	"slices"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/shopspring/decimal"
)

// Status is what became of a redeemable in a validation.
type Status string

// Statuses of a redeemable in a validation.
const (
	Applicable   Status = "APPLICABLE"
	Inapplicable Status = "INAPPLICABLE"
	Skipped      Status = "SKIPPED"
)

// Objects a redeemable result names.
const (
	ObjectVoucher        = "voucher"
	ObjectPromotionTier  = "promotion_tier"
	ObjectPromotionStack = "promotion_stack"
)

// DefaultHierarchy is the hierarchy of a redeemable without a category
// under CATEGORY_HIERARCHY sorting.
const DefaultHierarchy = 1

// Candidate is a redeemable resolved for evaluation: what it is, whether
// it was found usable (Err: INAPPLICABLE before anything else is checked),
// its category, the rules it must pass against the running order and its
// effect (a discount, gift credits or loyalty points).
type Candidate struct {
	Object string // ObjectVoucher or ObjectPromotionTier
	ID     string // as sent

	Err *promotype.Error

	CategoryID string // "" without a category
	Hierarchy  int    // its category's hierarchy (unused without one: DefaultHierarchy)

	Programs      []*rule.Program
	Discount      *discount.Discount
	Applicability *discount.Applicability
	Catalog       discount.Catalog     // the lines unit discounts add
	Collections   *catalog.Collections // the project's product collections its rules may name
	Gift          *GiftCard
	Loyalty       *LoyaltyCard

	scopes scopes // where its history counters live
	// Explanation says why Err, when the caller explains (Request.Explain);
	// nil otherwise, and then the evaluation gives Err's key alone.
	Explanation *Explanation
}

// GiftCard is the effect of a gift card: Credits asked (nil: as much of
// the balance as the running total takes).
type GiftCard struct {
	Balance int64
	Credits *int64
	Effect  discount.Effect // APPLY_TO_ORDER (default) or APPLY_TO_ITEMS
}

// LoyaltyCard is the effect of a loyalty card paying with points for a
// reward: a COIN reward turns Points into an order discount, another
// reward only costs them.
type LoyaltyCard struct {
	Balance int64
	Points  int64
	Coin    *reward.CoinParams
	// AssignmentID is the assignment a reward that is not COIN is bought
	// through (its cost), "" for a COIN reward.
	AssignmentID string
}

// Request is what an evaluation reads besides its candidates: the
// calculated order of the request and the metadata rules read.
type Request struct {
	Order      *order.Order
	Customer   promotype.Metadata
	Redemption promotype.Metadata
	// History is what the redemption-history rules read.
	History History
	// Segments are the ids of the customer's segments, ascending, read
	// once per request when a candidate's rules read them
	// (SegmentsRead).
	Segments     []string
	SegmentsRead bool
	// Explain asks for an explanation of every redeemable that is not
	// applicable (Step.Explanation); off, the evaluation builds none.
	Explain bool
	// AudienceOnly checks the customer rules alone (the qualification
	// scenario AUDIENCE_ONLY); the other rules pass.
	AudienceOnly bool
}

// Details is the reason a redeemable was skipped.
type Details struct {
	Key     string `json:"key"`
	Message string `json:"message"`
}

// Step is one redeemable of an evaluation, in application order.
type Step struct {
	Candidate *Candidate
	Index     int // in the candidates given
	Status    Status
	// Order is the running order after an APPLICABLE redeemable: its
	// cumulative amounts and its own applied_* amounts. Nil otherwise.
	Order   *order.Order
	Error   *promotype.Error // INAPPLICABLE
	Details *Details         // INAPPLICABLE (from Error) and SKIPPED
	// Credits and Points are what a gift or loyalty card took.
	Credits, Points int64
	// Explanation says what decided an INAPPLICABLE or SKIPPED step, when
	// Request.Explain; nil otherwise.
	Explanation *Explanation
}

// Outcome is an evaluation: its validity, the steps in application order
// and the final order, whose applied_* amounts sum every redeemable's.
type Outcome struct {
	Valid bool
	Steps []Step
	Order *order.Order
}

// Skip reasons: why an applicable redeemable was not applied.
var (
	skipLimit             = &Details{"applicable_redeemables_limit_exceeded", "Applicable redeemables limit exceeded"}
	skipCategoryLimit     = &Details{"applicable_redeemables_per_category_limit_exceeded", "Applicable redeemables limit per category exceeded"}
	skipExclusiveLimit    = &Details{"applicable_exclusive_redeemables_limit_exceeded", "Applicable exclusive redeemables limit exceeded"}
	skipExclusiveCatLimit = &Details{"applicable_exclusive_redeemables_per_category_limit_exceeded", "Applicable exclusive redeemables limit per category exceeded"}
	skipExclusion         = &Details{"exclusion_rules_not_met", "Redeemable cannot be applied due to exclusion rules"}
	skipPreceding         = &Details{"preceding_validation_failed", "Redeemable cannot be applied due to preceding validation failure"}
	skipNoEffect          = &Details{"no_effect", "Redeemable cannot be applied due to no effect"}
)

// Evaluate walks the candidates under the stacking rules with one running
// order that starts as the request's: sorted by the
// sorting rule, each is checked (its resolution error, its rules against
// the running order, its card's balance), counted against the limits and
// applied; an exclusive redeemable that applies withdraws every common one
// (the walk is then redone without them). A redeemable that does not apply
// leaves the running order untouched. Nothing is stored; req.Order is not
// changed.
func Evaluate(rules *StackingRules, cands []Candidate, req Request) *Outcome {
	ev := &evaluator{rules: rules, cands: cands, req: req}
	sorted := ev.sort()
	excluded := make([]bool, len(cands))
	steps, o := ev.walk(sorted, excluded, nil)
	if ev.exclusiveApplied(steps) {
		first := steps
		redo := false
		kept := make([]*Step, len(cands))
		for k, st := range steps {
			// Common ones are withdrawn; those that failed their checks
			// keep their error (and are not tried again: on the order
			// without the withdrawn ones they could pass).
			if ev.kind(st.Candidate) == common {
				if st.Status == Inapplicable {
					kept[st.Index] = &steps[k]
				} else {
					excluded[st.Index] = true
					redo = true
				}
			}
		}
		if redo {
			steps, o = ev.walk(sorted, excluded, kept)
			if req.Explain {
				ev.explainExclusions(first, steps)
			}
		}
	}
	out := &Outcome{Steps: steps, Order: final(req.Order, o)}
	applicable := 0
	for _, st := range steps {
		if st.Status == Applicable {
			applicable++
		}
	}
	if rules.RedeemablesApplicationMode == ModeAll {
		out.Valid = applicable > 0 && applicable == len(steps)
	} else {
		out.Valid = applicable > 0
	}
	return out
}

type evaluator struct {
	rules *StackingRules
	cands []Candidate
	req   Request
	// discounted is the discount of the redeemable being tried, once
	// priced (0 before).
	discounted int64
}

// category kinds under the stacking rules.
type catKind int

const (
	common catKind = iota
	exclusive
	joint
)

func (ev *evaluator) kind(c *Candidate) catKind {
	switch {
	case c.CategoryID == "":
		return common
	case slices.Contains(ev.rules.ExclusiveCategories, c.CategoryID):
		return exclusive
	case slices.Contains(ev.rules.JointCategories, c.CategoryID):
		return joint
	}
	return common
}

func (ev *evaluator) exclusiveApplied(steps []Step) bool {
	for _, st := range steps {
		if st.Status == Applicable && ev.kind(st.Candidate) == exclusive {
			return true
		}
	}
	return false
}

// sort returns the candidates' indexes in application order: request
// order or ascending category hierarchy (ties in request order), joint
// ones last (JOINT_ALWAYS_LAST).
func (ev *evaluator) sort() []int {
	idx := make([]int, len(ev.cands))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ca, cb := &ev.cands[a], &ev.cands[b]
		if ev.rules.GroupedRedeemablesSortingRule == GroupedJointAlwaysLast {
			if c := cmp.Compare(boolInt(ev.kind(ca) == joint), boolInt(ev.kind(cb) == joint)); c != 0 {
				return c
			}
		}
		if ev.rules.RedeemablesSortingRule == SortCategoryHierarchy {
			return cmp.Compare(hierarchy(ca), hierarchy(cb))
		}
		return 0
	})
	return idx
}

// hierarchy is c's category hierarchy; DefaultHierarchy without a category.
func hierarchy(c *Candidate) int {
	if c.CategoryID == "" {
		return DefaultHierarchy
	}
	return c.Hierarchy
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// counts are the applicable redeemables of a walk so far.
type counts struct {
	total, exclusive int
	perCat, exclCat  map[string]int
}

// walk applies the candidates in order to one running order; excluded
// ones are skipped, kept ones (when kept is not nil) keep the step given.
func (ev *evaluator) walk(sorted []int, excluded []bool, kept []*Step) ([]Step, *order.Order) {
	// The running order is only read (each redeemable applies to a fork
	// of it): the request's order serves as it is unless it carries
	// applied amounts to reset.
	o := ev.req.Order
	if hasApplied(o) {
		o = o.Fork()
		o.ResetApplied()
	}
	steps := make([]Step, 0, len(sorted))
	n := counts{perCat: map[string]int{}, exclCat: map[string]int{}}
	failed := false
	failedID := ""
	for _, i := range sorted {
		c := &ev.cands[i]
		st := Step{Candidate: c, Index: i}
		switch {
		case excluded[i]:
			st.Status, st.Details = Skipped, skipExclusion
		case kept != nil && kept[i] != nil:
			st = *kept[i]
			if !failed {
				failed, failedID = true, c.ID
			}
		case failed && ev.rules.RedeemablesApplicationMode == ModeAll:
			st.Status, st.Details = Skipped, skipPreceding
			if ev.req.Explain {
				st.Explanation = explainPreceding(failedID)
			}
		default:
			if next, err := ev.try(c, o, &st); err != nil {
				st.Status, st.Error, st.Details = Inapplicable, err, &Details{Key: err.Key, Message: err.Message}
				if !failed {
					failed, failedID = true, c.ID
				}
				if ev.req.Explain && st.Explanation == nil {
					st.Explanation = explainEffect(c, o, err)
				}
			} else if d := ev.limit(c, &n); d != nil {
				st.Status, st.Details = Skipped, d
				if ev.req.Explain {
					st.Explanation = ev.explainLimit(c, d, &n)
				}
			} else if d := ev.noEffect(c, o, next); d != nil {
				st.Status, st.Details = Skipped, d
				if ev.req.Explain {
					st.Explanation = explainNoEffect()
				}
			} else {
				st.Status, st.Order, o = Applicable, next, next
				ev.count(c, &n)
			}
		}
		if st.Status != Applicable {
			st.Credits, st.Points = 0, 0
		}
		steps = append(steps, st)
	}
	return steps, o
}

// hasApplied reports whether o or a line of it carries applied amounts
// (or totals not derived from its amounts) that ResetApplied would change.
func hasApplied(o *order.Order) bool {
	if o.AppliedDiscountAmount != 0 || o.ItemsAppliedDiscountAmount != 0 || o.TotalAppliedDiscountAmount != 0 ||
		o.TotalDiscountAmount != o.DiscountAmount+o.ItemsDiscountAmount || o.TotalAmount != o.Amount-o.TotalDiscountAmount {
		return true
	}
	for i := range o.Items {
		it := &o.Items[i]
		if it.AppliedDiscountAmount != 0 || it.AppliedDiscountQuantity != 0 || it.AppliedQuantity != 0 || it.AppliedQuantityAmount != 0 {
			return true
		}
	}
	return false
}

// limit returns why c would pass a limit of the stacking rules, or nil.
func (ev *evaluator) limit(c *Candidate, n *counts) *Details {
	r := ev.rules
	if n.total >= r.ApplicableRedeemablesLimit {
		return skipLimit
	}
	if ev.kind(c) == exclusive {
		if n.exclusive >= r.ApplicableExclusiveRedeemablesLimit {
			return skipExclusiveLimit
		}
		if n.exclCat[c.CategoryID] >= r.ApplicableExclusiveRedeemablesPerCategoryLimit {
			return skipExclusiveCatLimit
		}
	}
	if c.CategoryID != "" {
		lim, ok := r.ApplicableRedeemablesCategoryLimits[c.CategoryID]
		if !ok {
			lim = r.ApplicableRedeemablesPerCategoryLimit
		}
		if n.perCat[c.CategoryID] >= lim {
			return skipCategoryLimit
		}
	}
	return nil
}

func (ev *evaluator) count(c *Candidate, n *counts) {
	n.total++
	if c.CategoryID != "" {
		n.perCat[c.CategoryID]++
	}
	if ev.kind(c) == exclusive {
		n.exclusive++
		n.exclCat[c.CategoryID]++
	}
}

// noEffect returns the no_effect skip when c changed nothing in the order
// and the no-effect rule (or its category's override) says SKIP.
func (ev *evaluator) noEffect(c *Candidate, before, after *order.Order) *Details {
	if after.TotalAppliedDiscountAmount != 0 || after.Amount != before.Amount || len(after.Items) != len(before.Items) {
		return nil
	}
	for i := range after.Items {
		if after.Items[i].AppliedDiscountQuantity != 0 || after.Items[i].AppliedQuantity != 0 {
			return nil
		}
	}
	r := ev.rules
	skip := r.RedeemablesNoEffectRule == NoEffectSkip
	if c.CategoryID != "" {
		switch {
		case slices.Contains(r.NoEffectSkipCategories, c.CategoryID):
			skip = true
		case slices.Contains(r.NoEffectRedeemAnywayCategories, c.CategoryID):
			skip = false
		}
	}
	if skip {
		return skipNoEffect
	}
	return nil
}

// try checks c against the running order o and applies it to a copy of o,
// which it returns; an error makes c INAPPLICABLE.
func (ev *evaluator) try(c *Candidate, o *order.Order, st *Step) (*order.Order, *promotype.Error) {
	if c.Err != nil {
		if ev.req.Explain {
			st.Explanation = c.Explanation
		}
		return nil, c.Err
	}
	ev.discounted = 0
	if err := ev.customerNeeded(c); err != nil {
		return nil, err
	}
	var in *rule.Input // what the rules read; nil without rules
	if len(c.Programs) > 0 {
		in = promotion.RuleInputIn(o, ev.req.Customer, ev.req.Redemption, ev.req.Segments, c.Collections)
		defer promotion.ReleaseInput(in)
		in.Amount = o.TotalAmount // order.amount: the running total before this redeemable
		if err := ev.rulesPass(c, in, false); err != nil {
			if ev.req.Explain {
				st.Explanation = explainRules(c, in, false, err.Key)
			}
			return nil, err
		}
	}
	next := o.Fork()
	next.ResetApplied()
	var err *promotype.Error
	switch {
	case c.Gift != nil:
		st.Credits, err = applyGift(next, c)
	case c.Loyalty != nil:
		st.Points, err = applyLoyalty(next, c)
	case c.Discount != nil:
		err = ev.applyDiscount(next, c)
	}
	if err != nil {
		return nil, err
	}
	if in != nil {
		in.TotalAmount = next.TotalAmount
		ev.discounted = next.TotalAppliedDiscountAmount // this redeemable's part of campaign.orders.amount_discounted
		if err := ev.rulesPass(c, in, true); err != nil {
			if ev.req.Explain {
				st.Explanation = explainRules(c, in, true, err.Key)
			}
			return nil, err
		}
	}
	return next, nil
}

// rulesPass runs c's programs that do not read order.total_amount, or
// (totals) those that do, after pricing. A failure is
// customer_rules_violated when the customer rules alone fail,
// redemption_rules_violated when the first failing rule reads the
// redemption history, else order_rules_violated; a rule's own message
// goes to error.message.
func (ev *evaluator) rulesPass(c *Candidate, in *rule.Input, totals bool) *promotype.Error {
	for _, p := range c.Programs {
		if p.NeedsTotal != totals {
			continue
		}
		ev.fillHistory(c, p, in)
		if ev.req.AudienceOnly {
			if aok, _ := p.EvalAudience(in); !aok {
				return promotype.BadRequest("customer_rules_violated", "customer does not match validation rules", "%s", c.ID)
			}
			continue
		}
		ok, msg, history := p.EvalHistory(in)
		if ok {
			continue
		}
		var e *promotype.Error
		if aok, _ := p.EvalAudience(in); !aok {
			e = promotype.BadRequest("customer_rules_violated", "customer does not match validation rules", "%s", c.ID)
		} else if history {
			e = promotype.BadRequest("redemption_rules_violated", "redemption does not match validation rules", "%s", c.ID)
		} else {
			e = promotype.BadRequest("order_rules_violated", "order does not match validation rules", "%s", c.ID)
		}
		if msg != "" {
			e.Err = &promotype.ErrorMessage{Message: msg}
		}
		return e
	}
	return nil
}

// applyDiscount applies c's discount to o (reset, a copy of the running
// order). DISCOUNTED_AMOUNT with products mode STACK applies it straight;
// otherwise it is priced on a scratch order (the request's order for
// INITIAL_AMOUNT, the running one else) and moved onto o line by line,
// leaving out lines an earlier redeemable discounted under ONCE. Unit
// discounts add or free units whatever the mode.
func (ev *evaluator) applyDiscount(o *order.Order, c *Candidate) *promotype.Error {
	initial := ev.initialMode(c)
	once := ev.rules.RedeemablesProductsApplicationMode == ProductsOnce
	if c.Discount.Type == discount.Unit || (!initial && !once) {
		if _, err := discount.Apply(o, c.Discount, c.Applicability, c.Catalog); err != nil {
			return promotype.BadRequest("invalid_order", "Invalid order", "%s cannot be priced: %v", c.ID, err)
		}
		return nil
	}
	src := o
	if initial {
		src = ev.req.Order
	}
	work := src.Fork()
	work.ResetApplied()
	if _, err := discount.Apply(work, c.Discount, c.Applicability, c.Catalog); err != nil {
		return promotype.BadRequest("invalid_order", "Invalid order", "%s cannot be priced: %v", c.ID, err)
	}
	// Under INITIAL_AMOUNT the scratch order is the request's: lines an
	// earlier unit discount added are not in it and take nothing.
	for i := range min(len(o.Items), len(work.Items)) {
		if once && o.Items[i].DiscountAmount > 0 {
			continue
		}
		if a := work.Items[i].AppliedDiscountAmount; a > 0 {
			o.ApplyItemDiscount(i, a)
		}
	}
	o.ApplyOrderDiscount(work.AppliedDiscountAmount)
	return nil
}

// initialMode reports whether c's percentages read the initial amount.
func (ev *evaluator) initialMode(c *Candidate) bool {
	r := ev.rules
	if c.CategoryID != "" {
		switch {
		case slices.Contains(r.InitialAmountModeCategories, c.CategoryID):
			return true
		case slices.Contains(r.DiscountedAmountModeCategories, c.CategoryID):
			return false
		}
	}
	return r.DiscountCalculationMode == CalcInitialAmount
}

// applyGift spends a gift card's credits on o: the credits asked (at most
// its balance, else gift_amount_exceeded) or, when none are asked, as much
// of the balance as the running total takes, capped by the running total
// APPLY_TO_ITEMS spreads them over the lines the card applies to in
// proportion to their subtotals (largest remainder). It returns the credits used.
func applyGift(o *order.Order, c *Candidate) (int64, *promotype.Error) {
	g := c.Gift
	if o.Amount <= 0 {
		return 0, promotype.BadRequest("missing_amount", "Missing amount", "Amount is required when redeeming a GIFT_VOUCHER")
	}
	credits := g.Balance
	if g.Credits != nil {
		if *g.Credits > g.Balance {
			return 0, promotype.BadRequest("gift_amount_exceeded", "gift amount exceeded", "%s", c.ID)
		}
		credits = *g.Credits
	}
	if g.Effect != discount.ApplyToItems {
		return o.ApplyOrderDiscount(credits), nil
	}
	lines, weights := giftLines(o, c.Applicability)
	if len(lines) == 0 {
		return 0, promotype.BadRequest("missing_order_items_amount", "Missing applicable order items",
			"At least one applicable order item with amount is required to redeem this GIFT_VOUCHER")
	}
	var used int64
	for k, part := range order.Split(min(credits, o.TotalAmount), weights) {
		used += o.ApplyItemDiscount(lines[k], part)
	}
	return used, nil
}

// giftLines are the lines a gift card applies to (all without an
// applicable_to) with a subtotal left, and those subtotals.
func giftLines(o *order.Order, app *discount.Applicability) ([]int, []int64) {
	var lines []int
	var weights []int64
	allowed := map[int]bool{}
	if app.Restricts() {
		// The lines an item discount under app would touch: price a 100%
		// discount on a scratch copy and see which lines it reached.
		scratch := o.Fork()
		scratch.ResetApplied()
		full := promotype.NewDecimal("100")
		probe := &discount.Discount{Type: discount.Percent, PercentOff: &full, Effect: discount.ApplyToItems}
		_, _ = discount.Apply(scratch, probe, app, nil)
		for i := range scratch.Items {
			if scratch.Items[i].AppliedDiscountAmount > 0 {
				allowed[i] = true
			}
		}
	}
	for i := range o.Items {
		if sub := o.Items[i].SubtotalAmount; sub > 0 && (!app.Restricts() || allowed[i]) {
			lines, weights = append(lines, i), append(weights, sub)
		}
	}
	return lines, weights
}

// applyLoyalty pays with a loyalty card's points: more than its balance is
// loyalty_card_points_exceeded; a COIN reward turns them into an order
// discount (points × exchange_ratio / points_ratio currency units, half-up
// to the minor unit). It returns the points used.
func applyLoyalty(o *order.Order, c *Candidate) (int64, *promotype.Error) {
	l := c.Loyalty
	if l.Points > l.Balance {
		return 0, promotype.BadRequest("loyalty_card_points_exceeded", "loyalty card points exceeded", "%s", c.ID)
	}
	if l.Coin != nil {
		ratio := int64(1)
		if l.Coin.PointsRatio != nil {
			ratio = *l.Coin.PointsRatio
		}
		cents := decimal.NewFromInt(l.Points).Mul(l.Coin.ExchangeRatio.Decimal).Mul(decimal.NewFromInt(100)).Div(decimal.NewFromInt(ratio))
		o.ApplyOrderDiscount(order.RoundUnits(cents))
	}
	return l.Points, nil
}

// final is the order after the walk with applied_* amounts summing every
// redeemable's: what the walk added to the request's order.
func final(base, o *order.Order) *order.Order {
	f := o.Fork()
	f.AppliedDiscountAmount = o.DiscountAmount - base.DiscountAmount
	for i := range f.Items {
		it := &f.Items[i]
		if i < len(base.Items) {
			b := &base.Items[i]
			it.AppliedDiscountAmount = it.DiscountAmount - b.DiscountAmount
			it.AppliedDiscountQuantity = it.DiscountQuantity - b.DiscountQuantity
			it.AppliedQuantity = it.Quantity - b.Quantity
			it.AppliedQuantityAmount = it.Amount - b.Amount
		} else {
			it.AppliedDiscountAmount, it.AppliedDiscountQuantity = it.DiscountAmount, it.DiscountQuantity
			it.AppliedQuantity, it.AppliedQuantityAmount = it.Quantity, it.Amount
		}
	}
	f.Recompute()
	return f
}
