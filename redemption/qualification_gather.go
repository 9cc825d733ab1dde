package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
)

// gathering is one qualification's candidates, read source by source in
// batches, each batch resolved into r, evaluated and dropped, keeping only
// the best page so far.
type gathering struct {
	q         *QualificationService
	projectID string
	r         *resolver
	req       *Request
	vp        ValidationParams
	rules     *StackingRules
	opts      *qualificationOptions
	cands     []qcand        // the batch
	pending   []*HeldVoucher // wallet and public vouchers read, not resolved yet
	kept      []*Qualified   // the best window() so far, in the page's order
	tied      []*Qualified   // created at the cursor's instant (Cursor.Skip)
	// coins: a loyalty campaign's pay-with-points (COIN) reward, nil when
	// it has none; read once per campaign.
	coins map[string]*reward.Reward
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

// gather reads the scenario's sources, each in batches of
// MaxQualificationSource; a batch is evaluated before the next is read.
func (g *gathering) gather(ctx context.Context) error {
	tiers, held, public, stacks := g.sources()
	if tiers {
		if g.r.snap.NeedsSegments() { // the tier index reads them among the request's facts
			if err := g.q.v.segments(ctx, g.projectID, g.r, g.req); err != nil {
				return err
			}
		}
		req := promotion.Request{Order: g.req.Order, Customer: g.req.Customer, Redemption: g.req.Redemption,
			Segments: g.req.Segments, Now: g.r.now, AudienceOnly: g.req.AudienceOnly}
		for _, t := range g.r.snap.Candidates(req) {
			c := qcand{object: ObjectPromotionTier, id: t.ID, resourceID: t.ID, createdAt: t.CreatedAt, tier: t}
			if _, err := g.add(ctx, c); err != nil {
				return err
			}
			if len(g.cands) == MaxQualificationSource {
				if err := g.flush(ctx); err != nil {
					return err
				}
			}
		}
		if err := g.flush(ctx); err != nil {
			return err
		}
	}
	if held {
		if err := g.wallet(ctx); err != nil {
			return err
		}
	}
	if public {
		if err := g.public(ctx); err != nil {
			return err
		}
	}
	if err := g.vouchers(ctx); err != nil { // what is left of the wallet and the public vouchers
		return err
	}
	if public {
		if err := g.campaigns(ctx); err != nil {
			return err
		}
	}
	if stacks {
		return g.stacks(ctx)
	}
	return nil
}

// wallet reads the customer's wallet.
func (g *gathering) wallet(ctx context.Context) error {
	id, err := g.r.customerID(ctx)
	if err != nil || id == "" {
		return err
	}
	after := ""
	for {
		hs, err := g.q.store.HeldVouchers(ctx, g.projectID, id, after, MaxQualificationSource)
		if err != nil {
			return err
		}
		if err := g.queue(ctx, hs...); err != nil {
			return err
		}
		if len(hs) < MaxQualificationSource {
			return nil
		}
		after = hs[len(hs)-1].Key
	}
}

// public reads the public vouchers newest first, as campaigns reads the
// campaigns: under the DEFAULT sorting the first one that cannot make the
// page ends the read, so a page over a million public codes reads about a
// page of them; the batches start at a page and double. Under another
// sorting every public voucher is read (the request's deadline bounds it).
func (g *gathering) public(ctx context.Context) error {
	var after *OfferKey // from the cursor's instant (its group included: any id sorts after "")
	if sa := g.opts.startingAfter; sa != nil && sa.offset() == 0 {
		after = &OfferKey{CreatedAt: sa.At}
	}
	batch := g.opts.limit + 1
	for {
		pv, err := g.q.store.PublicVouchers(ctx, g.projectID, after, g.bound(), batch)
		if err != nil {
			return err
		}
		for _, v := range pv {
			g.pending = append(g.pending, &HeldVoucher{Voucher: v})
		}
		if err := g.vouchers(ctx); err != nil { // resolved and evaluated: the page so far bounds the next read
			return err
		}
		if len(pv) < batch {
			return nil
		}
		last := pv[len(pv)-1]
		if g.pruned(last.CreatedAt, last.Code) {
			return nil // the public vouchers still unread sort after the last one read
		}
		after = &OfferKey{CreatedAt: last.CreatedAt, ID: last.Code}
		batch = min(2*batch, MaxQualificationSource)
	}
}

// campaigns reads the campaigns with a free code, newest first: under the
// DEFAULT sorting the first one that cannot make the page ends the read
// (every later one sorts after it), so the batches start at a page and
// double.
func (g *gathering) campaigns(ctx context.Context) error {
	var after *OfferKey // from the cursor's instant (its group included: any id sorts after "")
	if sa := g.opts.startingAfter; sa != nil && sa.offset() == 0 {
		after = &OfferKey{CreatedAt: sa.At}
	}
	batch := g.opts.limit + 1
	for {
		offers, err := g.q.store.CampaignOffers(ctx, g.projectID, after, g.bound(), batch)
		if err != nil {
			return err
		}
		var ids, camps []string
		for _, o := range offers {
			ids, camps = append(ids, o.Voucher.ID), append(camps, o.Campaign.ID)
			g.r.cacheCampaign(o.Campaign)
		}
		if err := g.r.readAssignments(ctx, ids, camps); err != nil {
			return err
		}
		for _, o := range offers {
			c := qcand{object: ObjectCampaign, id: o.Campaign.ID, resourceID: o.Campaign.ID, createdAt: o.Campaign.CreatedAt,
				camp: o.Campaign, offer: o.Voucher, voucherTyp: string(o.Voucher.Type)}
			more, err := g.add(ctx, c)
			if err != nil {
				return err
			}
			if !more {
				return g.flush(ctx)
			}
		}
		if err := g.flush(ctx); err != nil {
			return err
		}
		if len(offers) < batch {
			return nil
		}
		last := offers[len(offers)-1].Campaign
		if g.pruned(last.CreatedAt, last.ID) {
			return nil // the campaigns still unread sort after the last one read
		}
		after = &OfferKey{CreatedAt: last.CreatedAt, ID: last.ID}
		batch = min(2*batch, MaxQualificationSource)
	}
}

// stacks reads the project's promotion stacks.
func (g *gathering) stacks(ctx context.Context) error {
	for offset := 0; ; offset += MaxQualificationSource {
		ss, _, err := g.q.store.ListPromotionStacks(ctx, g.projectID,
			promotype.Query{Limit: MaxQualificationSource, Offset: offset, OrderBy: "created_at"})
		if err != nil {
			return err
		}
		for _, st := range ss {
			if len(st.Tiers.IDs) == 0 {
				continue
			}
			c := qcand{object: ObjectPromotionStack, id: st.ID, resourceID: st.ID, createdAt: st.CreatedAt, stack: st}
			if _, err := g.add(ctx, c); err != nil {
				return err
			}
		}
		if err := g.flush(ctx); err != nil {
			return err
		}
		if len(ss) < MaxQualificationSource {
			return nil
		}
	}
}

// queue adds vouchers read from the wallet or the public ones; a full
// batch is resolved and evaluated.
func (g *gathering) queue(ctx context.Context, hs ...*HeldVoucher) error {
	g.pending = append(g.pending, hs...)
	if len(g.pending) < MaxQualificationSource {
		return nil
	}
	return g.vouchers(ctx)
}

// vouchers resolves the pending vouchers (a voucher both held and public
// once), their rule assignments, campaigns and loyalty rewards read in one
// batch each, and evaluates them.
func (g *gathering) vouchers(ctx context.Context) error {
	vs := g.pending
	g.pending = nil
	seen := map[string]bool{}
	var ids, camps, loyalty []string
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
			if _, known := g.coins[*v.CampaignID]; v.Type == campaign.LoyaltyCard && !known {
				loyalty = append(loyalty, *v.CampaignID)
			}
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
	if err := g.readCoins(ctx, loyalty); err != nil {
		return err
	}
	for _, h := range keep {
		if err := g.addVoucher(ctx, h); err != nil {
			return err
		}
	}
	return g.flush(ctx)
}

func (g *gathering) addVoucher(ctx context.Context, h *HeldVoucher) error {
	v := h.Voucher
	c := qcand{object: ObjectVoucher, id: v.Code, resourceID: v.ID, createdAt: v.CreatedAt,
		holderRole: h.Role, voucherTyp: string(v.Type), offer: v}
	if v.Type == campaign.LoyaltyCard {
		c.reward = g.payWithPoints(v)
		if c.reward == nil {
			return nil // a card pays only for a reward: without a COIN one it gives this order nothing
		}
	}
	_, err := g.add(ctx, c)
	return err
}

// add resolves candidate c unless the cursor or a filter known before
// resolution leaves it out. Under the DEFAULT sorting, a candidate sorting
// after a full page is not resolved: more is false.
func (g *gathering) add(ctx context.Context, c qcand) (more bool, err error) {
	if o := g.opts; o.startingAfter != nil && !o.startingAfter.admits(c.createdAt) {
		return true, nil
	}
	if g.pruned(c.createdAt, c.id) {
		return false, nil
	}
	if f := g.opts.filters; f != nil && !f.early(c.attrs(nil)) {
		return true, nil
	}
	c.lo = len(g.r.cands)
	switch c.object {
	case ObjectPromotionTier:
		err = g.r.tier(ctx, c.id)
	case ObjectVoucher:
		err = g.r.resolveVoucher(ctx, c.offer, RedeemableParams{Object: ObjectVoucher, ID: c.id, Reward: c.reward})
	case ObjectCampaign:
		err = g.r.resolveVoucher(ctx, c.offer, RedeemableParams{Object: ObjectVoucher, ID: c.offer.Code})
	case ObjectPromotionStack:
		for _, id := range c.stack.Tiers.IDs {
			if err = g.r.tier(ctx, id); err != nil {
				break
			}
		}
	}
	if err != nil {
		return false, err
	}
	c.hi = len(g.r.cands)
	if !g.fits(&c) {
		g.r.cands, g.r.shows = g.r.cands[:c.lo], g.r.shows[:c.lo]
		return true, nil
	}
	g.cands = append(g.cands, c)
	return true, nil
}

// bound is the key a candidate must sort before to make the page: under
// the DEFAULT sorting with a full page kept, its last; nil otherwise.
func (g *gathering) bound() *OfferKey {
	if g.opts.sorting != SortDefault || len(g.kept) < g.window() || g.opts.startingAfter != nil && g.opts.startingAfter.Skip > 0 {
		return nil
	}
	last := g.kept[len(g.kept)-1]
	return &OfferKey{CreatedAt: last.CreatedAt, ID: last.ID}
}

// pruned reports whether, under the DEFAULT sorting, a redeemable of key
// (at, id) sorts after a full page kept (not one of the cursor's tied
// group, which are sorted out at the end).
func (g *gathering) pruned(at promotype.Time, id string) bool {
	if g.opts.sorting != SortDefault || len(g.kept) < g.window() || g.opts.startingAfter.tied(at) {
		return false
	}
	last := g.kept[len(g.kept)-1]
	return compareKeys(at, id, last.CreatedAt, last.ID) > 0
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
	case ObjectCampaign:
		a["campaign_id"], a["campaign_type"], a["voucher_type"] = c.camp.ID, string(c.camp.CampaignType), c.voucherTyp
		if c.camp.CategoryID != nil {
			a["category_id"] = *c.camp.CategoryID
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
