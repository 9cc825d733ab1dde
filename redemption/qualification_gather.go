package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// gathering is one qualification's candidates, resolved into r.
type gathering struct {
	q         *QualificationService
	projectID string
	r         *resolver
	req       *Request
	opts      *qualificationOptions
	cands     []qcand
}

// scenario sources: which candidates a scenario reads.
func (g *gathering) sources() (tiers, held, public, stacks bool) {
	switch g.opts.scenario {
	case ScenarioCustomerWallet:
		return false, true, false, false
	case ScenarioPromotionStacks:
		return false, false, false, true
	case ScenarioProductsByCustomer, ScenarioProductsDiscountByCustomer:
		return true, true, false, false
	}
	return true, true, true, false
}

// gather resolves the scenario's candidates that pass the filters known
// before resolution and the cursor.
func (g *gathering) gather(ctx context.Context) error {
	tiers, held, public, stacks := g.sources()
	if tiers {
		req := promotion.Request{Order: g.req.Order, Customer: g.req.Customer, Redemption: g.req.Redemption,
			Now: g.r.now, AudienceOnly: g.req.AudienceOnly}
		for _, t := range g.r.snap.Candidates(req) {
			c := qcand{object: ObjectPromotionTier, id: t.ID, resourceID: t.ID, createdAt: t.CreatedAt, tier: t}
			if err := g.add(ctx, c); err != nil {
				return err
			}
		}
	}
	var vs []*HeldVoucher
	if held {
		id, err := g.r.customerID(ctx)
		if err != nil {
			return err
		}
		if id != "" {
			hs, err := g.q.store.HeldVouchers(ctx, g.projectID, id, MaxQualificationSource)
			if err != nil {
				return err
			}
			vs = append(vs, hs...)
		}
	}
	if public {
		pv, err := g.q.store.PublicVouchers(ctx, g.projectID, MaxQualificationSource)
		if err != nil {
			return err
		}
		for _, v := range pv {
			vs = append(vs, &HeldVoucher{Voucher: v})
		}
	}
	if err := g.vouchers(ctx, vs); err != nil {
		return err
	}
	if stacks {
		ss, _, err := g.q.store.ListPromotionStacks(ctx, g.projectID, promotype.Query{Limit: MaxQualificationSource, OrderBy: "created_at"})
		if err != nil {
			return err
		}
		for _, st := range ss {
			if len(st.Tiers.IDs) == 0 {
				continue
			}
			c := qcand{object: ObjectPromotionStack, id: st.ID, resourceID: st.ID, createdAt: st.CreatedAt, stack: st}
			if err := g.add(ctx, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// vouchers resolves the candidate vouchers (a voucher both held and
// public once), their rule assignments read in one batch.
func (g *gathering) vouchers(ctx context.Context, vs []*HeldVoucher) error {
	seen := map[string]bool{}
	var ids, camps []string
	keep := vs[:0:0]
	for _, h := range vs {
		v := h.Voucher
		if seen[v.ID] {
			continue
		}
		seen[v.ID] = true
		keep = append(keep, h)
		ids = append(ids, v.ID)
		if v.CampaignID != nil && !seen[*v.CampaignID] {
			seen[*v.CampaignID] = true
			camps = append(camps, *v.CampaignID)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	if err := g.r.readAssignments(ctx, ids, camps); err != nil {
		return err
	}
	if len(camps) > 0 {
		cs, err := g.q.store.CampaignsByID(ctx, g.projectID, camps)
		if err != nil {
			return err
		}
		if g.r.camps == nil {
			g.r.camps = map[string]*campaign.Campaign{}
		}
		for _, id := range camps {
			g.r.camps[id] = nil // gone unless read
		}
		for _, c := range cs {
			g.r.camps[c.ID] = c
		}
	}
	for _, h := range keep {
		if err := g.addVoucher(ctx, h); err != nil {
			return err
		}
	}
	return nil
}

func (g *gathering) addVoucher(ctx context.Context, h *HeldVoucher) error {
	v := h.Voucher
	if v.Type == campaign.LoyaltyCard {
		return nil // a validation needs the reward a card pays for
	}
	return g.add(ctx, qcand{object: ObjectVoucher, id: v.Code, resourceID: v.ID, createdAt: v.CreatedAt,
		holderRole: h.Role, voucherTyp: string(v.Type)}, h)
}

// add resolves candidate c unless the cursor or a filter known before
// resolution leaves it out.
func (g *gathering) add(ctx context.Context, c qcand, held ...*HeldVoucher) error {
	if g.opts.startingAfter != nil && !c.createdAt.Before(g.opts.startingAfter.Time) {
		return nil
	}
	if f := g.opts.filters; f != nil && !f.early(c.attrs(nil)) {
		return nil
	}
	c.lo = len(g.r.cands)
	var err error
	switch c.object {
	case ObjectPromotionTier:
		err = g.r.tier(ctx, c.id)
	case ObjectVoucher:
		err = g.r.resolveVoucher(ctx, held[0].Voucher, RedeemableParams{Object: ObjectVoucher, ID: c.id})
	case ObjectPromotionStack:
		for _, id := range c.stack.Tiers.IDs {
			if err = g.r.tier(ctx, id); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	c.hi = len(g.r.cands)
	if !g.fits(&c) {
		g.r.cands, g.r.shows = g.r.cands[:c.lo], g.r.shows[:c.lo]
		return nil
	}
	g.cands = append(g.cands, c)
	return nil
}

// fits reports whether resolved candidate c passes the filters and the
// scenario's product condition.
func (g *gathering) fits(c *qcand) bool {
	if f := g.opts.filters; f != nil && !f.match(c.attrs(&g.r.shows[c.lo])) {
		return false
	}
	switch g.opts.scenario {
	case ScenarioProducts, ScenarioProductsByCustomer:
		cd := &g.r.cands[c.lo]
		return targetsCart(cd.Applicability, g.req.Order) || rulesNameCart(cd.Programs, g.req.Order)
	case ScenarioProductsDiscount, ScenarioProductsDiscountByCustomer:
		return targetsCart(g.r.cands[c.lo].Applicability, g.req.Order)
	}
	return true
}

// attrs are c's values for the filters; sh (nil before resolution) adds
// what resolution tells (campaign, category).
func (c *qcand) attrs(sh *show) map[string]string {
	a := map[string]string{"resource_type": c.object, "resource_id": c.resourceID}
	switch c.object {
	case ObjectVoucher:
		a["code"], a["voucher_type"], a["holder_role"] = c.id, c.voucherTyp, c.holderRole
	case ObjectPromotionTier:
		a["campaign_id"], a["campaign_type"] = c.tier.Campaign.ID, string(campaign.Promotion)
	case ObjectPromotionStack:
		a["campaign_id"], a["campaign_type"] = c.stack.CampaignID, string(campaign.Promotion)
		if c.stack.CategoryID != nil {
			a["category_id"] = *c.stack.CategoryID
		}
	}
	if sh != nil {
		if sh.campaignID != "" {
			a["campaign_id"] = sh.campaignID
		}
		if sh.campaignType != "" {
			a["campaign_type"] = sh.campaignType
		}
		if sh.categoryID != "" {
			a["category_id"] = sh.categoryID
		}
	}
	return a
}

// evaluate validates each candidate alone (a stack with its tiers, as a
// validation of the stack) and returns those that apply.
func (g *gathering) evaluate(rules *StackingRules, req Request) []*Qualified {
	var out []*Qualified
	for i := range g.cands {
		c := &g.cands[i]
		ev := Evaluate(rules, g.r.cands[c.lo:c.hi], req)
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
	default:
		q.Result.Discount = res.Result.Discount
	}
	if c != nil {
		q.CreatedAt = c.createdAt
		if c.tier != nil {
			q.Banner = c.tier.Banner
		}
	} else if t := g.r.snap.Tier(res.ID); t != nil { // a stack's tier
		q.CreatedAt, q.Banner = t.CreatedAt, t.Banner
	}
	return q
}

// page sorts what qualified, cuts the page and, with expand
// validation_rules, reads the page's rule assignments.
func (g *gathering) page(ctx context.Context, found []*Qualified) (QualifiedList, error) {
	sortQualified(found, g.opts.sorting)
	l := QualifiedList{Object: "list", DataRef: promotype.DataRefData, Data: found[:min(len(found), g.opts.limit)]}
	l.Total = len(l.Data)
	if len(found) > g.opts.limit {
		l.HasMore = true
		last := l.Data[len(l.Data)-1].CreatedAt
		l.MoreStartingAfter = &last
	}
	if l.Data == nil {
		l.Data = []*Qualified{}
	}
	for _, e := range g.opts.expand {
		if e != "validation_rules" {
			continue
		}
		for _, q := range l.Data {
			if err := g.assignments(ctx, q); err != nil {
				return QualifiedList{}, err
			}
		}
	}
	return l, nil
}

// assignments sets q's validation rule assignments: those of the
// redeemable and of its campaign.
func (g *gathering) assignments(ctx context.Context, q *Qualified) error {
	var objs [][2]string
	switch q.Object {
	case ObjectVoucher:
		for _, c := range g.cands {
			if c.object == ObjectVoucher && c.id == q.ID {
				objs = append(objs, [2]string{rule.RelatedVoucher, c.resourceID})
			}
		}
	case ObjectPromotionTier:
		objs = append(objs, [2]string{rule.RelatedPromotionTier, q.ID})
	}
	if q.CampaignID != nil && q.Object != ObjectPromotionStack {
		objs = append(objs, [2]string{rule.RelatedCampaign, *q.CampaignID})
	}
	var as []*rule.Assignment
	for _, o := range objs {
		by, err := rule.AssignmentsByObject(ctx, g.q.store, g.projectID, o[0], []string{o[1]})
		if err != nil {
			return err
		}
		as = append(as, by[o[1]]...)
	}
	q.ValidationRulesAssignments = promotype.NewList(as, len(as), promotype.Query{})
	return nil
}

// targetsCart reports whether a's included targets name a line of o.
func targetsCart(a *discount.Applicability, o *order.Order) bool {
	if a == nil {
		return false
	}
	for _, t := range a.Included {
		for i := range o.Items {
			if lineIs(&o.Items[i], t.Object, t.ID, t.SourceID) {
				return true
			}
		}
	}
	return false
}

// rulesNameCart reports whether an item rule of progs names a line of o.
func rulesNameCart(progs []*rule.Program, o *order.Order) bool {
	for _, ref := range rule.ItemRefs(progs...) {
		var src *string
		if ref.SourceID != "" {
			src = &ref.SourceID
		}
		for i := range o.Items {
			if lineIs(&o.Items[i], ref.Object, ref.ID, src) {
				return true
			}
		}
	}
	return false
}

// lineIs reports whether line it is the product or SKU (by id or source
// id) named; a product names its SKUs' lines too.
func lineIs(it *order.Item, object, id string, sourceID *string) bool {
	switch object {
	case "sku":
		return (id != "" && it.SKUID == id) ||
			(sourceID != nil && it.SKU != nil && it.SKU.SourceID != nil && *it.SKU.SourceID == *sourceID)
	case "product":
		return (id != "" && it.ProductID == id) ||
			(sourceID != nil && it.Product != nil && it.Product.SourceID != nil && *it.Product.SourceID == *sourceID)
	}
	return false
}
