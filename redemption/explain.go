package redemption

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// Explanation says what decided an INAPPLICABLE or SKIPPED redeemable
// (options.explain, an extension beyond the hosted service): the reason
// (the key of its result's error or details) and the checks that failed.
// An explanation is only built when asked for: without it a validation
// does no extra work.
type Explanation struct {
	Reason string  `json:"reason"`
	Checks []Check `json:"checks"`
}

// Check is one check that failed: a validation rule's condition (RuleID,
// Rule: its key in the rule set, Subject: the rule's name, Property for
// metadata) or a check of the engine (Subject: what was checked —
// voucher.redemption.quantity, applicable_redeemables_limit…). Actual
// fails Condition against Expected: for a limit, position 3 is not
// $less_than_or_equal limit 2.
type Check struct {
	RuleID    string `json:"rule_id,omitempty"`
	Rule      string `json:"rule,omitempty"`
	Subject   string `json:"subject"`
	Property  string `json:"property,omitempty"`
	Condition string `json:"condition,omitempty"`
	Expected  any    `json:"expected"`
	Actual    any    `json:"actual"`
}

// explained returns an explanation with reason and checks.
func explained(reason string, checks ...Check) *Explanation {
	if checks == nil {
		checks = []Check{}
	}
	return &Explanation{Reason: reason, Checks: checks}
}

// explainRules explains c's failed rules (those reading order.total_amount
// or the others, as totals says) on in: the first program that fails, as
// rulesPass found it.
func explainRules(c *Candidate, in *rule.Input, totals bool, reason string) *Explanation {
	for _, p := range c.Programs {
		if p.NeedsTotal != totals {
			continue
		}
		if ok, _ := p.Eval(in); ok {
			continue
		}
		fs := p.Explain(in)
		if reason == "customer_rules_violated" { // as rulesPass tells them: the customer rules alone fail
			fs = p.ExplainAudience(in)
		}
		if fs == nil {
			continue
		}
		checks := make([]Check, len(fs))
		for i, f := range fs {
			checks[i] = Check{RuleID: p.RuleID, Rule: f.Rule, Subject: f.Name, Property: f.Property,
				Condition: f.Condition, Expected: f.Expected, Actual: f.Actual}
		}
		return explained(reason, checks...)
	}
	return explained(reason)
}

// explainEffect explains an error of applying c's effect to the running
// order o.
func explainEffect(c *Candidate, o *order.Order, err *promotype.Error) *Explanation {
	if c.Err != nil { // the resolver's error, without its explanation
		return explained(err.Key)
	}
	switch err.Key {
	case "gift_amount_exceeded":
		return explained(err.Key, Check{Subject: "gift.credits", Condition: "$less_than_or_equal", Expected: c.Gift.Balance, Actual: *c.Gift.Credits})
	case "missing_amount":
		return explained(err.Key, Check{Subject: "order.amount", Condition: "$more_than", Expected: int64(0), Actual: o.Amount})
	case "missing_order_items_amount":
		return explained(err.Key, Check{Subject: "order.items.amount", Condition: "$more_than", Expected: int64(0), Actual: int64(0)})
	case "loyalty_card_points_exceeded":
		return explained(err.Key, Check{Subject: "reward.points", Condition: "$less_than_or_equal", Expected: c.Loyalty.Balance, Actual: c.Loyalty.Points})
	}
	return explained(err.Key)
}

// explainLimit explains a limit skip d of c, counts n being the
// redeemables applied before it: the limit and c's position.
func (ev *evaluator) explainLimit(c *Candidate, d *Details, n *counts) *Explanation {
	r := ev.rules
	ch := Check{Condition: "$less_than_or_equal"}
	switch d {
	case skipLimit:
		ch.Subject, ch.Expected, ch.Actual = "applicable_redeemables_limit", r.ApplicableRedeemablesLimit, n.total+1
	case skipExclusiveLimit:
		ch.Subject, ch.Expected, ch.Actual = "applicable_exclusive_redeemables_limit", r.ApplicableExclusiveRedeemablesLimit, n.exclusive+1
	case skipExclusiveCatLimit:
		ch.Subject, ch.Property = "applicable_exclusive_redeemables_per_category_limit", c.CategoryID
		ch.Expected, ch.Actual = r.ApplicableExclusiveRedeemablesPerCategoryLimit, n.exclCat[c.CategoryID]+1
	case skipCategoryLimit:
		lim, ok := r.ApplicableRedeemablesCategoryLimits[c.CategoryID]
		ch.Subject = "applicable_redeemables_category_limits"
		if !ok {
			lim, ch.Subject = r.ApplicableRedeemablesPerCategoryLimit, "applicable_redeemables_per_category_limit"
		}
		ch.Property, ch.Expected, ch.Actual = c.CategoryID, lim, n.perCat[c.CategoryID]+1
	}
	return explained(d.Key, ch)
}

// explainNoEffect explains a no_effect skip.
func explainNoEffect() *Explanation {
	return explained(skipNoEffect.Key, Check{Subject: "applied_discount_amount", Condition: "$more_than", Expected: int64(0), Actual: int64(0)})
}

// explainPreceding explains a skip under redeemables_application_mode ALL:
// the redeemable before it that was not applicable.
func explainPreceding(failedID string) *Explanation {
	return explained(skipPreceding.Key, Check{Subject: "preceding_redeemable", Property: failedID, Condition: "$is",
		Expected: string(Applicable), Actual: string(Inapplicable)})
}

// explainExclusions explains the exclusion_rules_not_met skips of steps:
// the exclusive redeemables that applied in the first walk.
func (ev *evaluator) explainExclusions(first, steps []Step) {
	var ids []string
	for _, st := range first {
		if st.Status == Applicable && ev.kind(st.Candidate) == exclusive {
			ids = append(ids, st.Candidate.ID)
		}
	}
	for i := range steps {
		if steps[i].Details == skipExclusion {
			steps[i].Explanation = explained(skipExclusion.Key, Check{Subject: "exclusive_redeemables_applied", Condition: "$is",
				Expected: []string{}, Actual: ids})
		}
	}
}

// explainVoucherState explains a voucher's state error err (from
// voucherState): the first flag, date, window or quantity that failed.
func explainVoucherState(v *voucher.Voucher, camp *campaign.Campaign, err *promotype.Error, now time.Time, loc *time.Location) *Explanation {
	type owned struct {
		who string
		val campaign.Validity
	}
	vals := []owned{{"voucher", v.Validity}}
	if camp != nil {
		vals = append(vals, owned{"campaign", camp.Validity})
	}
	switch err.Key {
	case "voucher_disabled":
		if !v.Active {
			return explained(err.Key, Check{Subject: "voucher.active", Condition: "$is", Expected: true, Actual: false})
		}
		return explained(err.Key, Check{Subject: "campaign.active", Condition: "$is", Expected: true, Actual: false})
	case "quantity_exceeded":
		return explained(err.Key, Check{Subject: "voucher.redemption.redeemed_quantity", Condition: "$less_than",
			Expected: *v.RedemptionQuantity, Actual: v.RedeemedQuantity})
	case "voucher_not_active", "voucher_expired", "voucher_not_active_now":
		for _, o := range vals {
			if ch, ok := validityCheck(o.who, o.val, now, loc); ok {
				return explained(err.Key, ch)
			}
		}
	}
	return explained(err.Key)
}

// explainTierWindow explains promotion_not_active_now: the tier's or its
// campaign's validity.
func explainTierWindow(camp, tier campaign.Validity, now time.Time, loc *time.Location, key string) *Explanation {
	if ch, ok := validityCheck("campaign", camp, now, loc); ok {
		return explained(key, ch)
	}
	if ch, ok := validityCheck("promotion_tier", tier, now, loc); ok {
		return explained(key, ch)
	}
	return explained(key)
}

// explainInactiveTier explains promotion_inactive of a stored tier the
// snapshot lacks: the tier disabled, its campaign disabled, or no discount.
func (r *resolver) explainInactiveTier(ctx context.Context, t *campaign.PromotionTier) (*Explanation, error) {
	const key = "promotion_inactive"
	if !t.Active {
		return explained(key, Check{Subject: "promotion_tier.active", Condition: "$is", Expected: true, Actual: false}), nil
	}
	camp, err := r.s.store.GetCampaign(ctx, r.projectID, t.CampaignID)
	if err != nil && !errors.Is(err, promotype.ErrNotFound) {
		return nil, err
	}
	if camp != nil && !camp.Active {
		return explained(key, Check{Subject: "campaign.active", Condition: "$is", Expected: true, Actual: false}), nil
	}
	if t.Action.Discount == nil {
		return explained(key, Check{Subject: "promotion_tier.action.discount", Condition: "$is_not", Expected: nil, Actual: nil}), nil
	}
	return explained(key), nil
}

// validityCheck is the check of val that now fails, if one does: before
// the start date, after the expiration date, or outside the recurring
// windows.
func validityCheck(who string, val campaign.Validity, now time.Time, loc *time.Location) (Check, bool) {
	at := promotype.Time{Time: now}
	switch {
	case val.StartDate != nil && now.Before(val.StartDate.Time):
		return Check{Subject: who + ".start_date", Condition: "$after", Expected: val.StartDate, Actual: at}, true
	case val.ExpirationDate != nil && now.After(val.ExpirationDate.Time):
		return Check{Subject: who + ".expiration_date", Condition: "$before", Expected: val.ExpirationDate, Actual: at}, true
	case !val.OpenAt(now, loc):
		windows := campaign.Validity{ValidityTimeframe: val.ValidityTimeframe, ValidityDayOfWeek: slices.Clone(val.ValidityDayOfWeek),
			ValidityHours: val.ValidityHours}
		return Check{Subject: who + ".validity", Condition: "open_at", Expected: windows, Actual: at}, true
	}
	return Check{}, false
}
