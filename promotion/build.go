package promotion

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// builder compiles a project's snapshot from the store (no cache).
type builder struct {
	store Store
	zone  TimeZoneFunc
}

// Snapshot compiles the active tiers of the project's active PROMOTION
// campaigns with the rules assigned to them and to their campaign. A tier
// without a discount is left out: it has nothing to price. The products
// unit discounts add are read now, with their catalog prices: a catalog
// change must be told (Service.Changed) like a tier change. The project's
// product collections are compiled too (rules and applicable_to entries
// naming one read them), so a collection create or delete is told as well.
func (b *builder) Snapshot(ctx context.Context, projectID string) (*Snapshot, error) {
	loc, err := b.zone(ctx, projectID)
	if err != nil {
		return nil, err
	}
	colls, _, err := b.store.ListCollections(ctx, projectID, promotype.Query{Limit: maxCollections, OrderBy: "created_at"})
	if err != nil {
		return nil, err
	}
	cols := catalog.CompileCollections(colls)
	snap, err := b.tiers(ctx, projectID, loc, cols)
	if err != nil {
		return nil, err
	}
	snap.collections = cols
	return snap, nil
}

// maxCollections bounds the product collections a snapshot compiles.
const maxCollections = 1 << 16

// tiers compiles the tiers of the snapshot; cols resolves the collections
// their applicable_to names.
func (b *builder) tiers(ctx context.Context, projectID string, loc *time.Location, cols *catalog.Collections) (*Snapshot, error) {
	cs, _, err := b.store.ListCampaigns(ctx, projectID, promotype.Query{Limit: 1 << 20, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "campaign_type", Op: promotype.OpIs, Values: []string{string(campaign.Promotion)}}}})
	if err != nil {
		return nil, err
	}
	camps := map[string]*campaign.Campaign{}
	var campIDs []string
	for _, c := range cs {
		if c.Active {
			camps[c.ID] = c
			campIDs = append(campIDs, c.ID)
		}
	}
	if len(campIDs) == 0 {
		return NewSnapshot(nil, nil, loc), nil
	}
	byCamp, err := campaign.TiersOfCampaigns(ctx, b.store, projectID, campIDs)
	if err != nil {
		return nil, err
	}
	var stored []*campaign.PromotionTier
	var tierIDs []string
	for _, id := range campIDs {
		for _, t := range byCamp[id] {
			if t.Active && t.Action.Discount != nil {
				stored = append(stored, t)
				tierIDs = append(tierIDs, t.ID)
			}
		}
	}
	if len(stored) == 0 {
		return NewSnapshot(nil, nil, loc), nil
	}
	tierRules, err := rule.AssignmentsByObject(ctx, b.store, projectID, rule.RelatedPromotionTier, tierIDs)
	if err != nil {
		return nil, err
	}
	campRules, err := rule.AssignmentsByObject(ctx, b.store, projectID, rule.RelatedCampaign, campIDs)
	if err != nil {
		return nil, err
	}
	rules, programs, err := b.assignedRules(ctx, projectID, tierRules, campRules)
	if err != nil {
		return nil, err
	}
	ruleOf := func(id string) (*rule.ValidationRule, *rule.Program, error) {
		r, ok := rules[id]
		if !ok {
			return nil, nil, promotype.NotFound("validation_rules", id)
		}
		return r, programs[id], nil
	}
	cat := &unitCatalog{items: map[string]order.Item{}}
	tiers := make([]Tier, 0, len(stored))
	for _, st := range stored {
		c := camps[st.CampaignID]
		t := Tier{ID: st.ID, Name: st.Name, Banner: st.Banner, Hierarchy: st.Hierarchy, Active: st.Active,
			Validity: st.Validity, Discount: st.Action.Discount, Metadata: st.Metadata, CategoryID: st.CategoryID,
			CreatedAt: st.CreatedAt, Campaign: CampaignInfo{ID: c.ID, Active: c.Active, Validity: c.Validity}}
		var rs []*rule.ValidationRule
		for _, a := range append(slices.Clone(campRules[c.ID]), tierRules[st.ID]...) {
			r, prog, err := ruleOf(a.RuleID)
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
			t.Programs = append(t.Programs, prog)
		}
		t.Applicability = MergeApplicability(rs...).WithCollections(cols)
		if err := b.addUnits(ctx, projectID, cat, st.Action.Discount); err != nil {
			return nil, err
		}
		tiers = append(tiers, t)
	}
	return NewSnapshot(tiers, cat.lookup, loc), nil
}

// assignedRules reads, in one query, the rules the assignments name and
// compiles each once.
func (b *builder) assignedRules(ctx context.Context, projectID string, by ...map[string][]*rule.Assignment) (map[string]*rule.ValidationRule, map[string]*rule.Program, error) {
	var ids []string
	for _, m := range by {
		for _, as := range m {
			for _, a := range as {
				ids = append(ids, a.RuleID)
			}
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	rules := make(map[string]*rule.ValidationRule, len(ids))
	programs := make(map[string]*rule.Program, len(ids))
	if len(ids) == 0 {
		return rules, programs, nil
	}
	rs, _, err := b.store.ListValidationRules(ctx, projectID, promotype.Query{Limit: 1 << 20, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "id", Op: promotype.OpIn, Values: ids}}})
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rs {
		prog, err := r.Program()
		if err != nil {
			return nil, nil, err
		}
		rules[r.ID], programs[r.ID] = r, prog
	}
	return rules, programs, nil
}

// unitCatalog holds the lines a unit discount adds, by unit_type.
type unitCatalog struct{ items map[string]order.Item }

func (c *unitCatalog) lookup(unitType string) (order.Item, bool) {
	it, ok := c.items[unitType]
	return it, ok
}

// addUnits resolves the unit types of d (a product or SKU id, or source id)
// to catalog lines with their price and product (and SKU) data. A unit type
// naming nothing is left out: the tier then fails to price.
func (b *builder) addUnits(ctx context.Context, projectID string, cat *unitCatalog, d *discount.Discount) error {
	if d == nil || d.Type != discount.Unit {
		return nil
	}
	types := []string{d.UnitType}
	for _, u := range d.Units {
		types = append(types, u.UnitType)
	}
	for _, ut := range types {
		if _, done := cat.items[ut]; done || ut == "" {
			continue
		}
		ip := order.ItemParams{ProductID: &ut}
		if strings.HasPrefix(ut, promotype.PrefixSKU) {
			ip = order.ItemParams{SKUID: &ut}
		}
		o, _, err := order.Resolve(ctx, b.store, projectID, &order.Params{Items: []order.ItemParams{ip}})
		if err != nil {
			if errors.Is(err, promotype.ErrNotFound) {
				continue
			}
			return err
		}
		// An order keeps an item the catalog lacks as sent (no product or
		// SKU joined); a unit to add must come from the catalog.
		if len(o.Items) == 1 && (o.Items[0].Product != nil || o.Items[0].SKU != nil) {
			cat.items[ut] = o.Items[0]
		}
	}
	return nil
}
