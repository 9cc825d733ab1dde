package promo

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/rule"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// promotionServices are the promotion tier (and stack) services and the
// per-project cache of compiled validation snapshots.
type promotionServices struct {
	tiers  *campaign.TierService
	stacks *campaign.StackService

	// version counts the writes through this engine that can change a
	// snapshot (tiers, campaigns, rules, assignments); a cached snapshot
	// built at another version is rebuilt.
	version atomic.Uint64
	mu      sync.Mutex
	cache   map[string]*snapshotEntry
}

func (e *Engine) wirePromotions() {
	p := &e.promotions
	p.cache = map[string]*snapshotEntry{}
	rules := rule.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) rule.Store { return s }), e.env, e.resolveRelated)
	p.tiers = campaign.NewTierService(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.TierServiceStore { return s }),
		e.env, e.promos.campaigns, rules)
	p.stacks = campaign.NewStackService(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.StackServiceStore { return s }),
		e.env, e.promos.campaigns)
}

// PromotionStacks is the promotion stacks API.
func (e *Engine) PromotionStacks() *campaign.StackService { return e.promotions.stacks }

// StackEvaluation is a stack applied to an order: one step per tier id, in
// the stack's order, and the order after the last.
type StackEvaluation struct {
	StackID string
	Steps   []promotion.StackStep
	Order   *order.Order
}

// EvaluateStack applies the tiers of stack stackID in order to the
// request's order with running totals (reference E10): each tier's rules
// read the order the tiers before it left; a tier that is closed, disabled,
// fails its rules or cannot be priced is skipped (its step is not valid).
// Nothing is stored.
func (e *Engine) EvaluateStack(ctx context.Context, projectID, stackID string, in PromotionValidationParams) (*StackEvaluation, error) {
	ps, err := e.store.GetPromotionStack(ctx, projectID, stackID)
	if err != nil {
		return nil, err
	}
	req, _, err := e.promotionRequest(ctx, projectID, in, PromotionValidationQuery{})
	if err != nil {
		return nil, err
	}
	snap, err := e.promotionSnapshot(ctx, projectID)
	if err != nil {
		return nil, err
	}
	steps, o := snap.Stack(ps.Tiers.IDs, req)
	return &StackEvaluation{StackID: ps.ID, Steps: steps, Order: o}, nil
}

// promotionsChanged drops the cached snapshots: a write through this engine
// changed what validation reads.
func (e *Engine) promotionsChanged(string) { e.promotions.version.Add(1) }

// PromotionTiers is the promotion tiers API.
func (e *Engine) PromotionTiers() *campaign.TierService { return e.promotions.tiers }

// fillTiers sets the promotion.tiers list of a PROMOTION campaign.
func (e *Engine) fillTiers(ctx context.Context, c *campaign.Campaign) (*campaign.Campaign, error) {
	return campaign.FillTiers(ctx, e.store, c)
}

// snapshotEntry is a project's cached snapshot.
type snapshotEntry struct {
	version    uint64
	built      time.Time
	snap       *promotion.Snapshot
	refreshing atomic.Bool // a background rebuild is under way
}

// Snapshot freshness. Writes through this engine rebuild the snapshot
// before the next validation reads it (read your writes). Writes through
// another engine (another replica) are seen after snapshotTTL: an older
// snapshot is still served while one request's background rebuild runs,
// so no validation waits for a rebuild of a big project; past
// snapshotMaxAge (a rebuild kept failing) validations wait for one.
const (
	snapshotTTL    = time.Second
	snapshotMaxAge = 10 * time.Second
)

// PromotionValidationParams is the body of POST /v1/promotions/validation.
type PromotionValidationParams struct {
	Customer *customer.Params   `json:"customer"`
	Order    *order.Params      `json:"order"`
	Metadata promotype.Metadata `json:"metadata"`
	Options  *struct {
		Expand []string `json:"expand"`
	} `json:"options"`
}

// PromotionValidationQuery is the query of POST /v1/promotions/validation.
type PromotionValidationQuery struct {
	AudienceRulesOnly bool     // audienceRulesOnly: only customer rules are checked
	PromotionIDs      []string // filters[promotion_id]: the tiers to keep (all when empty)
}

// PromotionValidation is the answer of POST /v1/promotions/validation.
type PromotionValidation struct {
	Valid      bool              `json:"valid"`
	TrackingID string            `json:"tracking_id"`
	Promotions []*TierValidation `json:"promotions"`
}

// TierValidation is one valid tier with the order it prices. Order is a
// view of the request's order (what the tier changed in it): it encodes as
// the full order, and Order.Order() builds it as an *order.Order.
type TierValidation struct {
	Valid                 bool                             `json:"valid"`
	ApplicableTo          *promotype.List[discount.Target] `json:"applicable_to"`
	InapplicableTo        *promotype.List[discount.Target] `json:"inapplicable_to"`
	TrackingID            string                           `json:"tracking_id"`
	Order                 order.View                       `json:"order"`
	ID                    string                           `json:"id"`
	Name                  string                           `json:"name"`
	Banner                *string                          `json:"banner,omitempty"`
	Discount              *discount.Discount               `json:"discount"`
	StartDate             *promotype.Time                  `json:"start_date,omitempty"`
	ExpirationDate        *promotype.Time                  `json:"expiration_date,omitempty"`
	Campaign              TierValidationCampaign           `json:"campaign"`
	Hierarchy             int                              `json:"hierarchy"`
	DiscountAmount        int64                            `json:"discount_amount"`
	AppliedDiscountAmount int64                            `json:"applied_discount_amount"`
	Metadata              promotype.Metadata               `json:"metadata"`
	Object                string                           `json:"object"`
	CategoryID            *string                          `json:"category_id"`
	Categories            []*campaign.Category             `json:"categories"`
}

// TierValidationCampaign is the campaign of a validated tier.
type TierValidationCampaign struct {
	ID             string          `json:"id"`
	StartDate      *promotype.Time `json:"start_date"`
	ExpirationDate *promotype.Time `json:"expiration_date"`
	Active         bool            `json:"active"`
	Object         string          `json:"object"`
}

// ValidatePromotions validates every active tier of the project's active
// PROMOTION campaigns against the request's customer, order and metadata
// (POST /v1/promotions/validation) and returns the valid ones, newest tier
// first, each priced on its own copy of the order. Nothing is stored.
func (e *Engine) ValidatePromotions(ctx context.Context, projectID string, in PromotionValidationParams, q PromotionValidationQuery) (*PromotionValidation, error) {
	req, sourceID, err := e.promotionRequest(ctx, projectID, in, q)
	if err != nil {
		return nil, err
	}
	snap, err := e.promotionSnapshot(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if len(q.PromotionIDs) > 0 {
		keep := map[string]bool{}
		for _, id := range q.PromotionIDs {
			keep[id] = true
		}
		req.Only = func(t *promotion.Tier) bool { return keep[t.ID] }
	}
	out := &PromotionValidation{TrackingID: trackingID(projectID, sourceID), Promotions: []*TierValidation{}}
	var cats map[string]*campaign.Category // tier categories, with options.expand ["category"]
	if in.Options != nil && slices.Contains(in.Options.Expand, "category") {
		cats = map[string]*campaign.Category{}
	}
	for _, r := range snap.Validate(req) {
		tv, err := e.tierValidation(ctx, projectID, r, out.TrackingID, cats)
		if err != nil {
			return nil, err
		}
		out.Promotions = append(out.Promotions, tv)
	}
	out.Valid = len(out.Promotions) > 0
	return out, nil
}

// promotionRequest resolves the request's order and customer. It returns
// the customer's source id ("" without one) for the tracking id.
func (e *Engine) promotionRequest(ctx context.Context, projectID string, in PromotionValidationParams, q PromotionValidationQuery) (promotion.Request, string, error) {
	var op order.Params
	if in.Order != nil {
		op = *in.Order
	}
	o, _, err := e.Orders().Resolve(ctx, projectID, op)
	if err != nil {
		return promotion.Request{}, "", err
	}
	req := promotion.Request{Order: o, Redemption: in.Metadata, Now: e.env.Clock.Now().Time, AudienceOnly: q.AudienceRulesOnly}
	sourceID := ""
	if c := in.Customer; c != nil {
		req.Customer = c.Metadata
		if c.SourceID != nil {
			sourceID = *c.SourceID
		}
		ref := ""
		switch {
		case c.ID != nil:
			ref = *c.ID
		case c.SourceID != nil && c.Metadata == nil:
			ref = *c.SourceID
		}
		if ref != "" {
			stored, err := e.Customers().Get(ctx, projectID, ref)
			switch {
			case err == nil:
				req.Customer = stored.Metadata
				if stored.SourceID != nil {
					sourceID = *stored.SourceID
				}
			case c.ID != nil || !errors.Is(err, promotype.ErrNotFound):
				return promotion.Request{}, "", err
			}
		}
	}
	return req, sourceID, nil
}

// trackingID is "track_" and a keyed hash of the customer's source id,
// stable per project; random without a customer.
func trackingID(projectID, sourceID string) string {
	var sum []byte
	if sourceID == "" {
		sum = make([]byte, 16)
		_, _ = rand.Read(sum)
	} else {
		m := hmac.New(sha256.New, []byte(projectID))
		m.Write([]byte(sourceID))
		sum = m.Sum(nil)
	}
	return "track_" + base64.RawURLEncoding.EncodeToString(sum)[:20]
}

// tierValidation presents a valid tier; cats, when not nil, caches the
// categories looked up to fill the tiers' categories (expand=category).
func (e *Engine) tierValidation(ctx context.Context, projectID string, r promotion.Result, tracking string, cats map[string]*campaign.Category) (*TierValidation, error) {
	t := r.Tier
	tv := &TierValidation{Valid: true, TrackingID: tracking, Order: r.Order, ID: t.ID, Name: t.Name,
		Banner: t.Banner, Discount: t.Discount, StartDate: t.Validity.StartDate, ExpirationDate: t.Validity.ExpirationDate,
		Campaign: TierValidationCampaign{ID: t.Campaign.ID, StartDate: t.Campaign.Validity.StartDate,
			ExpirationDate: t.Campaign.Validity.ExpirationDate, Active: t.Campaign.Active, Object: "campaign"},
		Hierarchy: t.Hierarchy, DiscountAmount: r.DiscountAmount, AppliedDiscountAmount: r.DiscountAmount,
		Metadata: t.Metadata, Object: "promotion_tier", CategoryID: t.CategoryID, Categories: []*campaign.Category{}}
	var inc, exc []discount.Target
	if a := t.Applicability; a != nil {
		inc, exc = a.Included, a.Excluded
	}
	tv.ApplicableTo = promotype.NewList(inc, len(inc), promotype.Query{})
	tv.InapplicableTo = promotype.NewList(exc, len(exc), promotype.Query{})
	if tv.Metadata == nil {
		tv.Metadata = promotype.Metadata{}
	}
	if t.CategoryID != nil && cats != nil {
		cat, ok := cats[*t.CategoryID]
		if !ok {
			c, err := e.store.GetCategory(ctx, projectID, *t.CategoryID)
			if err != nil && !errors.Is(err, promotype.ErrNotFound) {
				return nil, err
			}
			if c != nil {
				c.Object = "category"
			}
			cats[*t.CategoryID], cat = c, c
		}
		if cat != nil {
			tv.Categories = []*campaign.Category{cat}
		}
	}
	return tv, nil
}

// promotionSnapshot returns the project's compiled tiers: from the cache
// when no write went through this engine since it was built, rebuilding in
// the background once it is older than snapshotTTL.
func (e *Engine) promotionSnapshot(ctx context.Context, projectID string) (*promotion.Snapshot, error) {
	p := &e.promotions
	v := p.version.Load()
	p.mu.Lock()
	ent := p.cache[projectID]
	p.mu.Unlock()
	if ent != nil && ent.version == v {
		age := time.Since(ent.built)
		if age < snapshotTTL {
			return ent.snap, nil
		}
		if age < snapshotMaxAge {
			if ent.refreshing.CompareAndSwap(false, true) {
				go e.refreshSnapshot(projectID, ent)
			}
			return ent.snap, nil
		}
	}
	return e.rebuildSnapshot(ctx, projectID, v)
}

// rebuildSnapshot builds the project's snapshot and caches it as of
// version v (the write counter read before building).
func (e *Engine) rebuildSnapshot(ctx context.Context, projectID string, v uint64) (*promotion.Snapshot, error) {
	built := time.Now()
	snap, err := e.buildSnapshot(ctx, projectID)
	if err != nil {
		return nil, err
	}
	p := &e.promotions
	p.mu.Lock()
	if cur := p.cache[projectID]; cur == nil || cur.version < v || (cur.version == v && cur.built.Before(built)) {
		p.cache[projectID] = &snapshotEntry{version: v, built: built, snap: snap}
	}
	p.mu.Unlock()
	return snap, nil
}

// refreshSnapshot rebuilds a stale snapshot in the background; on failure
// the next validation past snapshotTTL tries again.
func (e *Engine) refreshSnapshot(projectID string, stale *snapshotEntry) {
	defer stale.refreshing.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), snapshotMaxAge)
	defer cancel()
	if _, err := e.rebuildSnapshot(ctx, projectID, stale.version); err != nil {
		e.logger.LogAttrs(ctx, slog.LevelWarn, "promo: refreshing the promotion snapshot", slog.String("project_id", projectID), slog.Any("error", err))
	}
}

// buildSnapshot compiles the active tiers of the project's active
// PROMOTION campaigns with the rules assigned to them and to their campaign.
// A tier without a discount is left out: it has nothing to price.
func (e *Engine) buildSnapshot(ctx context.Context, projectID string) (*promotion.Snapshot, error) {
	proj, err := e.store.GetProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	cs, _, err := e.store.ListCampaigns(ctx, projectID, promotype.Query{Limit: 1 << 20, OrderBy: "created_at",
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
		return promotion.NewSnapshot(nil, nil, proj.Location()), nil
	}
	byCamp, err := e.promotions.tiers.OfCampaigns(ctx, e.store, projectID, campIDs)
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
		return promotion.NewSnapshot(nil, nil, proj.Location()), nil
	}
	tierRules, err := rule.AssignmentsByObject(ctx, e.store, projectID, rule.RelatedPromotionTier, tierIDs)
	if err != nil {
		return nil, err
	}
	campRules, err := rule.AssignmentsByObject(ctx, e.store, projectID, rule.RelatedCampaign, campIDs)
	if err != nil {
		return nil, err
	}
	rules, programs, err := e.assignedRules(ctx, projectID, tierRules, campRules)
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
	tiers := make([]promotion.Tier, 0, len(stored))
	for _, st := range stored {
		c := camps[st.CampaignID]
		t := promotion.Tier{ID: st.ID, Name: st.Name, Banner: st.Banner, Hierarchy: st.Hierarchy, Active: st.Active,
			Validity: st.Validity, Discount: st.Action.Discount, Metadata: st.Metadata, CategoryID: st.CategoryID,
			CreatedAt: st.CreatedAt, Campaign: promotion.CampaignInfo{ID: c.ID, Active: c.Active, Validity: c.Validity}}
		var rs []*rule.ValidationRule
		for _, a := range append(slices.Clone(campRules[c.ID]), tierRules[st.ID]...) {
			r, prog, err := ruleOf(a.RuleID)
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
			t.Programs = append(t.Programs, prog)
		}
		t.Applicability = promotion.MergeApplicability(rs...)
		if err := e.addUnits(ctx, projectID, cat, st.Action.Discount); err != nil {
			return nil, err
		}
		tiers = append(tiers, t)
	}
	return promotion.NewSnapshot(tiers, cat.lookup, proj.Location()), nil
}

// assignedRules reads, in one query, the rules the assignments name and
// compiles each once.
func (e *Engine) assignedRules(ctx context.Context, projectID string, by ...map[string][]*rule.Assignment) (map[string]*rule.ValidationRule, map[string]*rule.Program, error) {
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
	rs, _, err := e.store.ListValidationRules(ctx, projectID, promotype.Query{Limit: 1 << 20, OrderBy: "created_at",
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
func (e *Engine) addUnits(ctx context.Context, projectID string, cat *unitCatalog, d *discount.Discount) error {
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
		o, _, err := e.Orders().Resolve(ctx, projectID, order.Params{Items: []order.ItemParams{ip}})
		if err != nil {
			if errors.Is(err, promotype.ErrNotFound) {
				continue
			}
			return err
		}
		if len(o.Items) == 1 {
			cat.items[ut] = o.Items[0]
		}
	}
	return nil
}
