package redemption

import (
	"context"
	"slices"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// flush evaluates the batch (its history counters read first), keeps what
// qualifies among the best so far and drops the batch.
func (g *gathering) flush(ctx context.Context) error {
	if len(g.cands) > 0 {
		if err := g.q.v.history(ctx, g.projectID, g.vp, g.r, g.req); err != nil {
			return err
		}
		for _, q := range g.evaluate() {
			g.keep(q)
		}
	}
	// New arrays, not the old ones cut: the kept redeemables point into
	// the shows they were presented from.
	g.cands, g.r.cands, g.r.shows, g.r.assigned = nil, nil, nil, nil
	return nil
}

// keep adds q to the best window() so far (those at the cursor's instant
// wait in tied: the cursor skips the first of them).
func (g *gathering) keep(q *Qualified) {
	if g.opts.startingAfter.tied(q.CreatedAt) {
		g.tied = append(g.tied, q)
		return
	}
	g.insert(q)
}

// insert puts q in its place among the kept, at most window of them.
func (g *gathering) insert(q *Qualified) {
	i, found := slices.BinarySearchFunc(g.kept, q, func(a, b *Qualified) int { return compareQualified(a, b, g.opts.sorting) })
	if found && g.kept[i].Object == q.Object && g.kept[i].ID == q.ID {
		return // read twice (held and public in two batches)
	}
	w := g.window()
	if i >= w {
		return
	}
	g.kept = slices.Insert(g.kept, i, q)
	if len(g.kept) > w {
		g.kept = g.kept[:w]
	}
}

// window is how many of the best redeemables a page needs: those an
// offset cursor skips, the page, and one to tell has_more.
func (g *gathering) window() int { return g.opts.startingAfter.offset() + g.opts.limit + 1 }

// evaluate validates each candidate of the batch alone (a stack with its
// tiers, as a validation of the stack) and returns those that apply.
func (g *gathering) evaluate() []*Qualified {
	var out []*Qualified
	for i := range g.cands {
		c := &g.cands[i]
		ev := Evaluate(g.rules, g.r.cands[c.lo:c.hi], *g.req)
		if c.object == ObjectPromotionStack {
			if !ev.Valid {
				continue
			}
			q := &Qualified{ID: c.id, Object: c.object, CreatedAt: c.createdAt, Order: ev.Order,
				Name: &c.stack.Name, CampaignID: &c.stack.CampaignID, discounted: ev.Order.TotalAppliedDiscountAmount}
			for k := range ev.Steps {
				if ev.Steps[k].Status == Applicable {
					q.Redeemables = append(q.Redeemables, g.qualified(&ev.Steps[k], c.lo, nil))
				}
			}
			out = append(out, q)
			continue
		}
		if len(ev.Steps) == 1 && ev.Steps[0].Status == Applicable {
			out = append(out, g.qualified(&ev.Steps[0], c.lo, c))
		}
	}
	return out
}

// qualified presents an applicable step of the candidates starting at lo,
// as a validation would, in the qualification's shape.
func (g *gathering) qualified(st *Step, lo int, c *qcand) *Qualified {
	s := *st
	s.Index += lo
	sh := &g.r.shows[s.Index]
	res := g.r.present(&s)
	q := &Qualified{ID: res.ID, Object: res.Object, Order: res.Order, ApplicableTo: res.ApplicableTo,
		InapplicableTo: res.InapplicableTo, Categories: res.Categories, Name: res.Name,
		CampaignName: res.CampaignName, CampaignID: res.CampaignID}
	if res.Order != nil {
		q.discounted = res.Order.TotalAppliedDiscountAmount
	}
	// The redeemable's own rules come before its campaign's.
	if progs := g.r.cands[s.Index].Programs; len(progs) > 0 && progs[0].RuleID != "" {
		q.ValidationRuleID = &progs[0].RuleID
	}
	if g.r.expand["redeemable"] {
		q.Metadata = res.Metadata
	}
	switch {
	case res.Result.Gift != nil:
		gift := &QualifiedGift{Credits: res.Result.Gift.Credits}
		if sh.voucher != nil && sh.voucher.Gift != nil {
			gift.Balance = sh.voucher.Gift.Balance
		}
		if g.opts.lock {
			gift.LockedCredits = promotype.Ptr(sh.lockedCredits)
		}
		q.Result.Gift = gift
	case res.Result.LoyaltyCard != nil && c != nil && c.reward != nil:
		q.Result.LoyaltyCard = g.loyaltyResult(c)
	default:
		q.Result.Discount = res.Result.Discount
	}
	switch {
	case c == nil: // a stack's tier
		if t := g.r.snap.Tier(res.ID); t != nil {
			q.CreatedAt, q.Banner = t.CreatedAt, t.Banner
		}
		q.rules = [][2]string{{rule.RelatedPromotionTier, res.ID}}
	case c.object == ObjectCampaign:
		q.ID, q.Object, q.CreatedAt, q.Name = c.camp.ID, ObjectCampaign, c.createdAt, &c.camp.Name
		q.CampaignID, q.CampaignName = nil, nil // only on redeemables that are not campaigns (OpenAPI)
		q.rules = [][2]string{{rule.RelatedVoucher, c.offer.ID}, {rule.RelatedCampaign, c.camp.ID}}
	default:
		q.CreatedAt = c.createdAt
		switch c.object {
		case ObjectPromotionTier:
			q.Banner = c.tier.Banner
			q.rules = [][2]string{{rule.RelatedPromotionTier, c.id}, {rule.RelatedCampaign, c.tier.Campaign.ID}}
		case ObjectVoucher:
			q.rules = [][2]string{{rule.RelatedVoucher, c.resourceID}}
			if sh.campaignID != "" {
				q.rules = append(q.rules, [2]string{rule.RelatedCampaign, sh.campaignID})
			}
		}
	}
	return q
}

// page cuts the page from the best kept (the cursor's group first
// skipped), tells the next page's cursor, and with expand
// validation_rules reads the page's rule assignments.
func (g *gathering) page(ctx context.Context) (QualifiedList, error) {
	if len(g.tied) > 0 {
		slices.SortFunc(g.tied, func(a, b *Qualified) int { return compareKeys(a.CreatedAt, a.ID, b.CreatedAt, b.ID) })
		skip := min(g.opts.startingAfter.Skip, len(g.tied))
		rest := g.tied[skip:]
		g.tied = nil
		for _, q := range rest {
			g.insert(q)
		}
	}
	skip, limit := min(g.opts.startingAfter.offset(), len(g.kept)), g.opts.limit
	l := QualifiedList{Object: "list", DataRef: promotype.DataRefData, Data: g.kept[skip:min(len(g.kept), skip+limit)]}
	l.Total = len(l.Data)
	if len(g.kept) > skip+limit {
		l.HasMore = true
		l.MoreStartingAfter = g.next(l.Data, g.kept[skip+limit])
	}
	if l.Data == nil {
		l.Data = []*Qualified{}
	}
	if !slices.Contains(g.opts.expand, "validation_rules") {
		return l, nil
	}
	return l, g.assignments(ctx, l.Data)
}

// next is the cursor after data when next follows it: the last
// redeemable's created_at, with the count of the redeemables so far at that
// instant when next shares it; under BEST_DEAL and LEAST_DEAL the count of
// redeemables shown so far (an OffsetAt cursor).
func (g *gathering) next(data []*Qualified, next *Qualified) *Cursor {
	if g.opts.sorting != SortDefault {
		return &Cursor{At: OffsetAt, Skip: g.opts.startingAfter.offset() + len(data)}
	}
	last := data[len(data)-1]
	cur := &Cursor{At: last.CreatedAt}
	if !next.CreatedAt.Equal(last.CreatedAt) {
		return cur
	}
	for _, q := range data {
		if q.CreatedAt.Equal(last.CreatedAt) {
			cur.Skip++
		}
	}
	if sa := g.opts.startingAfter; sa != nil && sa.At.Equal(last.CreatedAt) {
		cur.Skip += sa.Skip
	}
	return cur
}

// assignments reads the rule assignments of the page's redeemables, one
// read per object type, and sets them with how their rules fared.
func (g *gathering) assignments(ctx context.Context, page []*Qualified) error {
	byType := map[string][]string{}
	for _, q := range page {
		for _, o := range q.rules {
			if !slices.Contains(byType[o[0]], o[1]) {
				byType[o[0]] = append(byType[o[0]], o[1])
			}
		}
	}
	found := map[[2]string][]*rule.Assignment{}
	for typ, ids := range byType {
		by, err := rule.AssignmentsByObject(ctx, g.q.store, g.projectID, typ, ids)
		if err != nil {
			return err
		}
		for id, as := range by {
			found[[2]string{typ, id}] = as
		}
	}
	for _, q := range page {
		as := []*QualifiedAssignment{}
		for _, o := range q.rules {
			for _, a := range found[o] {
				qa, err := g.fared(ctx, a)
				if err != nil {
					return err
				}
				as = append(as, qa)
			}
		}
		if q.Object != ObjectPromotionStack {
			q.ValidationRulesAssignments = promotype.NewList(as, len(as), promotype.Query{})
		}
	}
	return nil
}

// fared is assignment a of a qualified redeemable with how its rule fared:
// every rule of it held (the redeemable qualified), but under
// AUDIENCE_ONLY only its customer rules were checked.
func (g *gathering) fared(ctx context.Context, a *rule.Assignment) (*QualifiedAssignment, error) {
	qa := &QualifiedAssignment{Assignment: a, ValidationStatus: RulesValid, ValidationOmittedRules: []string{}}
	if !g.req.AudienceOnly {
		return qa, nil
	}
	vr, err := g.q.store.GetValidationRule(ctx, g.projectID, a.RuleID)
	if err != nil {
		return nil, err
	}
	prog, err := vr.Program()
	if err != nil {
		return nil, err
	}
	if omitted := prog.AudienceOmitted(); len(omitted) > 0 {
		qa.ValidationStatus, qa.ValidationOmittedRules = RulesPartiallyValid, omitted
	}
	return qa, nil
}
