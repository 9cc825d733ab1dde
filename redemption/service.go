package redemption

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/voucher"
)

// ServiceStore is what stackable validation reads: the stacking rules, the
// vouchers, tiers, stacks, campaigns and categories a request names, the
// rules assigned to them, the rewards loyalty cards pay for, and the order
// and customer of the request.
type ServiceStore interface {
	Store
	voucher.Store
	campaign.CampaignStore
	campaign.TierStore
	campaign.StackStore
	rule.Store
	reward.Store
	order.Reader
	customer.Store
	segment.Reader
}

// Snapshots returns a project's compiled promotion tiers (the promotion
// validation cache).
type Snapshots func(ctx context.Context, projectID string) (*promotion.Snapshot, error)

// Service validates redeemables together (POST /v1/validations). Nothing
// it does is stored.
type Service struct {
	store     ServiceStore
	env       promotype.Env
	snapshots Snapshots
	rules     *rulesCache // the project's stacking rules (stacking_cache.go)
	cost      RewardCost  // what a tier makes of a reward's cost (SetRewardCost)
}

// RewardCost is what a reward assignment a costs the holder of loyalty
// card card, given what the assignment says it costs: the loyalty tiers
// map it. The loyalty service's tiers are such a cost (the wiring sets
// it).
type RewardCost func(ctx context.Context, card *voucher.Voucher, a *reward.Assignment, cost int64) (int64, error)

// SetRewardCost sets what a loyalty card pays for a reward, given its
// assignment's cost.
func (s *Service) SetRewardCost(f RewardCost) { s.cost = f }

// NewService returns the validation service over store; it reads the
// stacking rules through rules' cache, which rules' writes keep current.
func NewService(store ServiceStore, env promotype.Env, snapshots Snapshots, rules *StackingRulesService) *Service {
	return &Service{store: store, env: env, snapshots: snapshots, rules: rules.cache}
}

// Validate checks the request's redeemables together against its order
// and customer under the project's stacking rules and
// answers which apply, with the running totals. A malformed request is a
// 400 (invalid_payload, duplicated_redeemables, invalid_redeemables); a
// redeemable that cannot be used is reported in the answer, not as an
// error. Nothing is stored.
func (s *Service) Validate(ctx context.Context, projectID string, in ValidationParams) (*Validation, error) {
	if s.env.Step == nil {
		return s.validate(ctx, projectID, in)
	}
	ctx, end := s.env.Step(ctx, promotype.StepStackableValidate, slog.String("project_id", projectID))
	v, err := s.validate(ctx, projectID, in)
	end(promotype.ValidOutcome(v != nil && v.Valid, err), err)
	return v, err
}

func (s *Service) validate(ctx context.Context, projectID string, in ValidationParams) (*Validation, error) {
	rules, err := s.prepare(ctx, projectID, in)
	if err != nil {
		return nil, err
	}
	sess, err := checkSession(in.Session, newSessionKey(s.env.IDs))
	if err != nil {
		return nil, err
	}
	r, out, tracking, err := s.evaluateLocked(ctx, projectID, in, rules, sess)
	if err != nil {
		return nil, err
	}
	v := &Validation{ID: s.env.IDs.NewID(PrefixValidation), Valid: out.Valid, Redeemables: []*RedeemableResult{},
		TrackingID: tracking, StackingRules: rules.Effective(), Session: sess.echo()}
	if in.Order != nil {
		v.Order = out.Order
	}
	for i := range out.Steps {
		res := r.present(&out.Steps[i])
		switch out.Steps[i].Status {
		case Inapplicable:
			v.InapplicableRedeemables = append(v.InapplicableRedeemables, res)
		case Skipped:
			v.SkippedRedeemables = append(v.SkippedRedeemables, res)
		}
		if !out.Valid || res.Status == Applicable {
			v.Redeemables = append(v.Redeemables, res)
		}
	}
	return v, nil
}

// prepare makes the whole-request checks of a validation or redemption
// and returns the project's stacking rules.
func (s *Service) prepare(ctx context.Context, projectID string, in ValidationParams) (*StackingRules, error) {
	if err := checkRedeemables(in.Redeemables); err != nil {
		return nil, err
	}
	rules, err := s.rules.effective(ctx, s.store, projectID)
	if err != nil {
		return nil, err
	}
	if len(in.Redeemables) > rules.RedeemablesLimit {
		return nil, promotype.InvalidPayload("Property .redeemables must NOT have more than %d items (redeemables_limit of the stacking rules)", rules.RedeemablesLimit)
	}
	return rules, nil
}

// evaluate resolves the request's order, customer and redeemables and
// evaluates them under rules; it returns the resolver (what the answer
// shows of each redeemable), the outcome and the tracking id.
func (s *Service) evaluate(ctx context.Context, projectID string, in ValidationParams, rules *StackingRules) (*resolver, *Outcome, string, error) {
	if in.Metadata != nil { // the redemption metadata schema, when the project has one
		if err := s.env.CheckMeta(ctx, projectID, "redemption", in.Metadata); err != nil {
			return nil, nil, "", err
		}
	}
	pre, err := s.prefetch(ctx, projectID, in)
	if err != nil {
		return nil, nil, "", err
	}
	req, cust, err := s.request(ctx, projectID, in, pre)
	if err != nil {
		return nil, nil, "", err
	}
	snap, err := s.snapshots(ctx, projectID)
	if err != nil {
		return nil, nil, "", err
	}
	r := s.newResolver(projectID, snap, rules, in)
	r.pre = pre
	r.seen(cust)
	req.Explain = r.explain
	for _, p := range in.Redeemables {
		if err := r.add(ctx, p); err != nil {
			return nil, nil, "", err
		}
	}
	if err := s.history(ctx, projectID, in, r, &req); err != nil {
		return nil, nil, "", err
	}
	tracking := promotion.TrackingID(projectID, cust.SourceID)
	if in.TrackingID != nil && *in.TrackingID != "" && cust.SourceID == "" {
		tracking = *in.TrackingID
	}
	return r, Evaluate(rules, r.cands, req), tracking, nil
}

// history reads, in one batch, the redemption-history counters the
// candidates' rules need (nothing when none reads one).
func (s *Service) history(ctx context.Context, projectID string, in ValidationParams, r *resolver, req *Request) error {
	req.History = History{HasCustomer: in.Customer != nil, Periods: r.periods}
	r.amount = req.Order.Amount
	reads, segs := false, false
	for i := range r.cands {
		for _, p := range r.cands[i].Programs {
			reads = reads || len(p.Counters) > 0
			segs = segs || p.Segments
		}
	}
	if segs {
		if err := s.segments(ctx, projectID, r, req); err != nil {
			return err
		}
	}
	if !reads {
		return nil
	}
	id, err := r.customerID(ctx)
	if err != nil {
		return err
	}
	req.History.CustomerID = id
	return readHistory(ctx, s.store, projectID, r.cands, &req.History)
}

// segments reads the customer's segments into req, once per request (a
// qualification evaluates its candidates in batches).
func (s *Service) segments(ctx context.Context, projectID string, r *resolver, req *Request) error {
	if req.SegmentsRead {
		return nil
	}
	id, err := r.customerID(ctx)
	if err != nil || id == "" {
		req.SegmentsRead = err == nil
		return err
	}
	if req.Segments, err = s.store.CustomerSegmentIDs(ctx, projectID, id); err != nil {
		return err
	}
	req.SegmentsRead = true
	return nil
}

// checkRedeemables makes the whole-request checks (count, duplicates,
// objects), before any redeemable is resolved.
func checkRedeemables(rs []RedeemableParams) error {
	switch {
	case len(rs) == 0:
		return promotype.InvalidPayload("Property .redeemables must NOT have fewer than 1 items")
	case len(rs) > MaxRedeemables:
		return promotype.InvalidPayload("Property .redeemables must NOT have more than %d items", MaxRedeemables)
	}
	seen := map[[2]string]bool{}
	for i, r := range rs {
		switch {
		case r.Object == "":
			return promotype.InvalidPayload("Property .redeemables[%d] should have required property 'object'", i)
		case r.ID == "":
			return promotype.InvalidPayload("Property .redeemables[%d] should have required property 'id'", i)
		case r.Object != ObjectVoucher && r.Object != ObjectPromotionTier && r.Object != ObjectPromotionStack:
			return promotype.InvalidPayload("Property .redeemables[%d].object must be equal to one of the allowed values: voucher, promotion_tier, promotion_stack", i)
		case r.Gift != nil && r.Gift.Credits != nil && *r.Gift.Credits < 0:
			return promotype.InvalidPayload("Property .redeemables[%d].gift.credits must be >= 0", i)
		case r.Reward != nil && r.Reward.Points != nil && *r.Reward.Points < 0:
			return promotype.InvalidPayload("Property .redeemables[%d].reward.points must be >= 0", i)
		}
		k := [2]string{r.Object, r.ID}
		if seen[k] {
			return promotype.BadRequest("duplicated_redeemables", "Duplicated redeemables detected", "Duplicated redeemables detected in one redemption")
		}
		seen[k] = true
		if r.Object == ObjectPromotionStack && len(rs) > 1 {
			return promotype.BadRequest("invalid_redeemables", "Invalid redeemables", "Promotion Stack cannot be use with other redeemables")
		}
	}
	return nil
}

// request resolves the request's order and customer (neither is stored).
// It returns what it found of the customer: its source id ("" without
// one) for the tracking id, and the stored customer when it read it.
func (s *Service) request(ctx context.Context, projectID string, in ValidationParams, pre *prefetch) (Request, promotion.CustomerLookup, error) {
	var op order.Params
	if in.Order != nil {
		op = *in.Order
	}
	o, _, err := order.Resolve(ctx, s.store, projectID, &op)
	if err != nil {
		return Request{}, promotion.CustomerLookup{}, err
	}
	req := Request{Order: o, Redemption: in.Metadata}
	if in.Customer == nil {
		return req, promotion.CustomerLookup{}, nil
	}
	l, err := promotion.LookupCustomer(ctx, pre.customers(s.store), projectID, in.Customer)
	if err != nil {
		return Request{}, promotion.CustomerLookup{}, err
	}
	req.Customer = l.Metadata
	return req, l, nil
}

// newResolver returns the resolver of one request's redeemables.
func (s *Service) newResolver(projectID string, snap *promotion.Snapshot, rules *StackingRules, in ValidationParams) *resolver {
	r := &resolver{s: s, projectID: projectID, snap: snap, now: s.env.Clock.Now().Time, rules: rules,
		expand: expandOf(in.Options), cats: map[string]*campaign.Category{}, key: requestKey(in.Session),
		cands: make([]Candidate, 0, len(in.Redeemables)), shows: make([]show, 0, len(in.Redeemables))}
	r.explain = in.Options != nil && in.Options.Explain
	r.periods = PeriodsAt(r.now, snap.Location())
	r.customer = in.Customer
	return r
}

func expandOf(o *ValidationOptions) map[string]bool {
	m := map[string]bool{}
	if o == nil || len(o.Expand) == 0 {
		m["order"] = true
		return m
	}
	for _, e := range o.Expand {
		m[e] = true
	}
	return m
}

// resolver turns the request's redeemables into candidates, keeping what
// their answers show.
type resolver struct {
	s         *Service
	projectID string
	snap      *promotion.Snapshot
	now       time.Time
	rules     *StackingRules
	expand    map[string]bool
	cats      map[string]*campaign.Category
	camps     map[string]*campaign.Campaign // read once per request
	periods   Periods                       // of now, in the project's time zone
	amount    int64                         // the request's order amount (campaign.orders.amount)
	customer  *customer.Params
	pre       *prefetch          // the first voucher, read with the customer (nil: none)
	custID    *string            // the stored customer's id ("" when none), once looked up
	cust      *customer.Customer // the stored customer custID names (nil when none)
	explain   bool               // options.explain: candidates carry why they are not usable

	cands []Candidate
	shows []show

	key string // the request's session key: its reservations are its own

	// assigned holds the rule assignments of objects (type, id) read
	// ahead for many redeemables at once (a qualification); an object not
	// in it is looked up alone.
	assigned map[[2]string][]*rule.Assignment
}

// readAssignments reads, in one batch per object type, the rule
// assignments of the given vouchers and campaigns into r.assigned.
func (r *resolver) readAssignments(ctx context.Context, vouchers, campaigns []string) error {
	for _, group := range []struct {
		typ string
		ids []string
	}{{rule.RelatedVoucher, vouchers}, {rule.RelatedCampaign, campaigns}} {
		if len(group.ids) == 0 {
			continue
		}
		by, err := rule.AssignmentsByObject(ctx, r.s.store, r.projectID, group.typ, group.ids)
		if err != nil {
			return err
		}
		for _, id := range group.ids {
			r.knowAssigned([2]string{group.typ, id}, by[id])
		}
	}
	return nil
}

// knowAssigned records as the rule assignments of obj (type, id), read
// ahead (programs then reads none).
func (r *resolver) knowAssigned(obj [2]string, as []*rule.Assignment) {
	if r.assigned == nil {
		r.assigned = map[[2]string][]*rule.Assignment{}
	}
	r.assigned[obj] = as
}

// show is what an applicable redeemable's answer shows besides its order.
type show struct {
	object         string
	applicableTo   []discount.Target
	inapplicableTo []discount.Target
	discount       *discount.Discount
	metadata       promotype.Metadata
	categoryID     string
	voucher        *voucher.Voucher   // a voucher's stored state
	assignments    []*rule.Assignment // the voucher's own rule assignments (when it applies)
	rewardID       string             // the reward a loyalty card pays for
	campaignID     string
	campaignName   string
	name           string
	lockedCredits  int64  // a gift card's credits other sessions hold
	campaignType   string // a voucher's campaign's type
}

// add resolves one redeemable of the request (a stack becomes its
// tiers); only a store failure is an error.
func (r *resolver) add(ctx context.Context, p RedeemableParams) error {
	switch p.Object {
	case ObjectPromotionStack:
		ps, err := r.s.store.GetPromotionStack(ctx, r.projectID, p.ID)
		if errors.Is(err, promotype.ErrNotFound) {
			r.push(Candidate{Object: p.Object, ID: p.ID, Err: promotype.NotFound("promotion_stack", p.ID)}, show{object: p.Object})
			return nil
		}
		if err != nil {
			return err
		}
		for _, id := range ps.Tiers.IDs {
			if err := r.tier(ctx, id); err != nil {
				return err
			}
		}
		return nil
	case ObjectPromotionTier:
		return r.tier(ctx, p.ID)
	}
	return r.voucher(ctx, p)
}

// seen takes the customer the request's lookup read (when it read one)
// as the stored customer the request names, so customerID and the
// redemption's upsert do not read it again.
func (r *resolver) seen(l promotion.CustomerLookup) {
	if !l.Looked {
		return
	}
	id := ""
	if l.Stored != nil {
		id = l.Stored.ID
	}
	r.custID, r.cust = &id, l.Stored
}

// customerID is the id of the stored customer the request names ("" when
// it names none or one not stored yet), looked up once.
func (r *resolver) customerID(ctx context.Context) (string, error) {
	if r.custID != nil {
		return *r.custID, nil
	}
	id := ""
	if r.customer != nil {
		c, err := findCustomer(ctx, r.s.store, r.projectID, r.customer)
		if err != nil {
			return "", err
		}
		if c != nil {
			id = c.ID
		}
		r.cust = c
	}
	r.custID = &id
	return id, nil
}

// holderState is the first reason the request's customer cannot use v:
// a loyalty card held by another customer pays
// with points only for its holder (invalid_customer); a referral code
// cannot be redeemed by its referrer, the customer it was published to
// (referrer_not_permitted_to_redeem).
func (r *resolver) holderState(ctx context.Context, v *voucher.Voucher, camp *campaign.Campaign) (*promotype.Error, error) {
	holder, referrer := deref(v.HolderID), deref(v.ReferrerID)
	referral := v.IsReferralCode || (camp != nil && camp.CampaignType == campaign.ReferralProgram)
	if referrer == "" && referral {
		referrer = holder // a referral code is published to its referrer
	}
	if (v.Type != campaign.LoyaltyCard || holder == "") && (!referral || referrer == "") {
		return nil, nil
	}
	id, err := r.customerID(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case v.Type == campaign.LoyaltyCard && holder != "" && id != holder:
		return promotype.BadRequest("invalid_customer", "Customer must be a holder of a loyalty card.", "%s", v.Code), nil
	case referral && referrer != "" && id == referrer:
		return promotype.BadRequest("referrer_not_permitted_to_redeem", "voucher cannot be redeemed by referrer", "%s", v.Code), nil
	}
	return nil, nil
}

func (r *resolver) push(c Candidate, sh show) {
	r.cands = append(r.cands, c)
	r.shows = append(r.shows, sh)
}

// campaign returns the campaign with id (cached: many vouchers of one
// request may share it), nil without an id or when it is gone.
func (r *resolver) campaign(ctx context.Context, id *string) (*campaign.Campaign, error) {
	if id == nil {
		return nil, nil
	}
	if c, ok := r.camps[*id]; ok {
		return c, nil
	}
	c, err := r.s.store.GetCampaign(ctx, r.projectID, *id)
	if err != nil && !errors.Is(err, promotype.ErrNotFound) {
		return nil, err
	}
	if r.camps == nil {
		r.camps = map[string]*campaign.Campaign{}
	}
	r.camps[*id] = c
	return c, nil
}

// category returns the category with id (cached), nil when it is gone.
func (r *resolver) category(ctx context.Context, id string) (*campaign.Category, error) {
	if id == "" {
		return nil, nil
	}
	if c, ok := r.cats[id]; ok {
		return c, nil
	}
	c, err := r.s.store.GetCategory(ctx, r.projectID, id)
	if err != nil && !errors.Is(err, promotype.ErrNotFound) {
		return nil, err
	}
	if c != nil {
		c.Object = "category"
	}
	r.cats[id] = c
	return c, nil
}

// setCategory records the category of c (its hierarchy orders it under
// CATEGORY_HIERARCHY).
func (r *resolver) setCategory(ctx context.Context, c *Candidate, sh *show, id *string) error {
	if id == nil || *id == "" {
		return nil
	}
	cat, err := r.category(ctx, *id)
	if err != nil {
		return err
	}
	c.CategoryID, sh.categoryID = *id, *id
	if cat != nil {
		c.Hierarchy = cat.Hierarchy
	}
	return nil
}

// tier resolves a promotion tier: from the snapshot (active tiers of
// active campaigns); one missing from it is looked up to tell a disabled
// tier (promotion_inactive) from an unknown one (not_found).
func (r *resolver) tier(ctx context.Context, id string) error {
	c := Candidate{Object: ObjectPromotionTier, ID: id}
	sh := show{object: ObjectPromotionTier}
	t := r.snap.Tier(id)
	if t == nil {
		stored, err := r.s.store.GetPromotionTier(ctx, r.projectID, id)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			c.Err = promotype.NotFound("promotion_tier", id)
		case err != nil:
			return err
		default:
			// Not in the snapshot although stored: disabled (itself or its
			// campaign) or without a discount to price.
			c.Err = promotype.BadRequest("promotion_inactive", "Inactive Promotion", "Promotion Tier with id: %s is disabled.", id)
			if r.explain {
				if c.Explanation, err = r.explainInactiveTier(ctx, stored); err != nil {
					return err
				}
			}
			if err := r.setCategory(ctx, &c, &sh, stored.CategoryID); err != nil {
				return err
			}
		}
		r.push(c, sh)
		return nil
	}
	if err := r.setCategory(ctx, &c, &sh, t.CategoryID); err != nil {
		return err
	}
	loc := r.snap.Location()
	if !t.Campaign.Validity.OpenAt(r.now, loc) || (!t.Validity.IsZero() && !t.Validity.OpenAt(r.now, loc)) {
		c.Err = promotype.BadRequest("promotion_not_active_now", "Promotion not active now", "Promotion Tier with id: %s is not active now.", id)
		if r.explain {
			c.Explanation = explainTierWindow(t.Campaign.Validity, t.Validity, r.now, loc, c.Err.Key)
		}
	}
	c.Programs, c.Discount, c.Applicability, c.Catalog = t.Programs, t.Discount, t.Applicability, r.snap.Catalog()
	c.Collections = r.snap.Collections()
	c.scopes = newScopes(ObjectPromotionTier, id, t.Campaign.ID)
	sh.discount, sh.metadata, sh.name, sh.campaignID = t.Discount, t.Metadata, t.Name, t.Campaign.ID
	sh.applicableTo, sh.inapplicableTo = targets(t.Applicability)
	if r.expand["redeemable"] {
		camp, err := r.campaign(ctx, &t.Campaign.ID)
		if err != nil {
			return err
		}
		if camp != nil {
			sh.campaignName = camp.Name
		}
	}
	r.push(c, sh)
	return nil
}

func targets(a *discount.Applicability) (inc, exc []discount.Target) {
	if a == nil {
		return nil, nil
	}
	return a.Included, a.Excluded
}

// voucher resolves a voucher by code (or by id, v_…) and checks, in the
// hosted service's order, what does not depend on the order: disabled,
// before its start, expired, outside its windows, quantity used up, and
// the reward a loyalty card needs. Its rules run against the running order.
func (r *resolver) voucher(ctx context.Context, p RedeemableParams) error {
	c := Candidate{Object: ObjectVoucher, ID: p.ID}
	sh := show{object: ObjectVoucher}
	v, err := r.findVoucher(ctx, p.ID)
	if errors.Is(err, promotype.ErrNotFound) && strings.HasPrefix(p.ID, promotype.PrefixVoucher) {
		v, err = r.s.store.GetVoucher(ctx, r.projectID, p.ID)
	}
	if errors.Is(err, promotype.ErrNotFound) {
		c.Err = promotype.NotFound("voucher", p.ID)
		r.push(c, sh)
		return nil
	}
	if err != nil {
		return err
	}
	return r.resolveVoucher(ctx, v, p)
}

// resolveVoucher resolves voucher v, as stored, for redeemable p.
func (r *resolver) resolveVoucher(ctx context.Context, v *voucher.Voucher, p RedeemableParams) error {
	c := Candidate{Object: ObjectVoucher, ID: p.ID}
	sh := show{object: ObjectVoucher}
	camp, err := r.campaign(ctx, v.CampaignID)
	if err != nil {
		return err
	}
	catID := v.CategoryID
	if catID == nil && camp != nil {
		catID = camp.CategoryID
	}
	if err := r.setCategory(ctx, &c, &sh, catID); err != nil {
		return err
	}
	sh.metadata, sh.discount, sh.voucher = v.Metadata, v.Discount, v
	if p.Reward != nil {
		sh.rewardID = p.Reward.ID
	}
	if camp != nil {
		sh.campaignID, sh.campaignName, sh.campaignType = camp.ID, camp.Name, string(camp.CampaignType)
	}
	campID := ""
	if camp != nil {
		campID = camp.ID
	} else if v.CampaignID != nil {
		campID = *v.CampaignID
	}
	c.scopes = newScopes(ObjectVoucher, v.ID, campID)
	left, err := r.unreserved(ctx, v) // what other sessions' reservations leave
	if err != nil {
		return err
	}
	if v.Gift != nil && left.Gift != nil {
		sh.lockedCredits = v.Gift.Balance - left.Gift.Balance
	}
	c.Err = r.voucherState(left, camp)
	if c.Err != nil && r.explain {
		c.Explanation = explainVoucherState(left, camp, c.Err, r.now, r.snap.Location())
	}
	if c.Err == nil {
		if c.Err, err = r.holderState(ctx, v, camp); err != nil {
			return err
		}
	}
	if c.Err == nil {
		c.Err, err = r.effect(ctx, &c, left, p)
		if err != nil {
			return err
		}
	}
	if c.Err == nil {
		var rs []*rule.ValidationRule
		if c.Programs, rs, sh.assignments, err = r.programs(ctx, v, camp); err != nil {
			return err
		}
		c.Applicability = promotion.MergeApplicability(rs...).WithCollections(r.snap.Collections())
		c.Collections = r.snap.Collections()
		sh.applicableTo, sh.inapplicableTo = targets(c.Applicability)
	}
	r.push(c, sh)
	return nil
}

// voucherState is the first reason v cannot be used now, or nil.
func (r *resolver) voucherState(v *voucher.Voucher, camp *campaign.Campaign) *promotype.Error {
	loc := r.snap.Location()
	validities := []campaign.Validity{v.Validity}
	if camp != nil {
		validities = append(validities, camp.Validity)
	}
	switch {
	case !v.Active || (camp != nil && !camp.Active):
		return promotype.BadRequest("voucher_disabled", "voucher is disabled", "%s", v.Code)
	}
	for _, val := range validities {
		switch {
		case val.StartDate != nil && r.now.Before(val.StartDate.Time):
			return promotype.BadRequest("voucher_not_active", "voucher not active", "%s", v.Code)
		case val.ExpirationDate != nil && r.now.After(val.ExpirationDate.Time):
			return promotype.BadRequest("voucher_expired", "voucher expired", "%s", v.Code)
		case !val.OpenAt(r.now, loc):
			return promotype.BadRequest("voucher_not_active_now", "voucher not active now", "%s", v.Code)
		}
	}
	if v.RedemptionQuantity != nil && v.RedeemedQuantity >= *v.RedemptionQuantity {
		return promotype.BadRequest("quantity_exceeded", "quantity exceeded", "%s", v.Code)
	}
	return nil
}

// effect sets what v does: its discount, its gift credits or the points
// its loyalty card pays for a reward (missing_reward without one).
func (r *resolver) effect(ctx context.Context, c *Candidate, v *voucher.Voucher, p RedeemableParams) (*promotype.Error, error) {
	switch v.Type {
	case campaign.GiftVoucher:
		g := &GiftCard{Effect: discount.ApplyToOrder}
		if v.Gift != nil {
			g.Balance = v.Gift.Balance
			if v.Gift.Effect != nil {
				g.Effect = *v.Gift.Effect
			}
		}
		if p.Gift != nil {
			g.Credits = p.Gift.Credits
		}
		c.Gift = g
	case campaign.LoyaltyCard:
		if p.Reward == nil || p.Reward.ID == "" {
			return promotype.BadRequest("missing_reward", "Missing reward", "A reward is required when redeeming a LOYALTY_CARD"), nil
		}
		rw, err := r.s.store.GetReward(ctx, r.projectID, p.Reward.ID)
		if errors.Is(err, promotype.ErrNotFound) {
			return promotype.NotFound("reward", p.Reward.ID), nil
		}
		if err != nil {
			return nil, err
		}
		l := &LoyaltyCard{Coin: rw.Parameters.Coin}
		if v.LoyaltyCard != nil {
			l.Balance = v.LoyaltyCard.Balance
		}
		if p.Reward.Points != nil {
			l.Points = *p.Reward.Points
		}
		if rw.Parameters.Coin == nil {
			// Any other reward costs what its assignment to the card's
			// program says, whatever points the request names.
			a, e, err := r.rewardAssignment(ctx, v, rw.ID)
			if e != nil || err != nil {
				return e, err
			}
			l.Points, l.AssignmentID = *a.Parameters.Loyalty.Points, a.ID
			if r.s.cost != nil {
				if l.Points, err = r.s.cost(ctx, v, a, l.Points); err != nil {
					return nil, err
				}
			}
		}
		c.Loyalty = l
	default:
		c.Discount = v.Discount
		if v.Discount != nil && v.Discount.Type == discount.Unit {
			c.Catalog = r.unitCatalog(ctx)
		}
	}
	return nil, nil
}

// rewardAssignment is the assignment of reward rewardID to v's program,
// which says what it costs (404 reward_assignment when it is not assigned
// there, or without a cost).
func (r *resolver) rewardAssignment(ctx context.Context, v *voucher.Voucher, rewardID string) (*reward.Assignment, *promotype.Error, error) {
	as, _, err := r.s.store.ListRewardAssignments(ctx, r.projectID, promotype.Query{Limit: 1, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "reward_id", Op: promotype.OpIs, Values: []string{rewardID}},
			{Field: "related_object_id", Op: promotype.OpIs, Values: []string{deref(v.CampaignID)}}}})
	if err != nil {
		return nil, nil, err
	}
	if len(as) == 0 || as[0].Parameters == nil || as[0].Parameters.Loyalty == nil || as[0].Parameters.Loyalty.Points == nil {
		return nil, promotype.NotFound("reward_assignment", rewardID), nil
	}
	return as[0], nil, nil
}

// unitCatalog resolves the product or SKU a voucher's unit discount gives,
// as an order line with its catalog data.
func (r *resolver) unitCatalog(ctx context.Context) discount.Catalog {
	return func(unitType string) (order.Item, bool) {
		ip := order.ItemParams{ProductID: &unitType}
		if strings.HasPrefix(unitType, promotype.PrefixSKU) {
			ip = order.ItemParams{SKUID: &unitType}
		}
		o, _, err := order.Resolve(ctx, r.s.store, r.projectID, &order.Params{Items: []order.ItemParams{ip}})
		if err != nil || len(o.Items) != 1 {
			return order.Item{}, false
		}
		return o.Items[0], true
	}
}

// programs compiles the rules assigned to v and to its campaign.
// It returns also v's own assignments (oldest first).
func (r *resolver) programs(ctx context.Context, v *voucher.Voucher, camp *campaign.Campaign) ([]*rule.Program, []*rule.ValidationRule, []*rule.Assignment, error) {
	var as, own []*rule.Assignment
	objects := [][2]string{{rule.RelatedVoucher, v.ID}}
	if camp != nil {
		objects = append(objects, [2]string{rule.RelatedCampaign, camp.ID})
	}
	for i, obj := range objects {
		if known, ok := r.assigned[obj]; ok { // read ahead in one batch
			if i == 0 {
				own = known
			}
			as = append(as, known...)
			continue
		}
		by, err := rule.AssignmentsByObject(ctx, r.s.store, r.projectID, obj[0], []string{obj[1]})
		if err != nil {
			return nil, nil, nil, err
		}
		if i == 0 {
			own = by[obj[1]]
		}
		as = append(as, by[obj[1]]...)
	}
	var progs []*rule.Program
	var rs []*rule.ValidationRule
	for _, a := range as {
		vr, err := r.s.store.GetValidationRule(ctx, r.projectID, a.RuleID)
		if err != nil {
			return nil, nil, nil, err
		}
		prog, err := vr.Program()
		if err != nil {
			return nil, nil, nil, err
		}
		progs, rs = append(progs, prog), append(rs, vr)
	}
	return progs, rs, own, nil
}

// present is the answer entry of one step.
func (r *resolver) present(st *Step) *RedeemableResult {
	sh := &r.shows[st.Index]
	c := st.Candidate
	out := &RedeemableResult{Status: st.Status, ID: c.ID, Object: sh.object}
	switch st.Status {
	case Inapplicable:
		out.Result = Result{Error: st.Error, Details: st.Details}
		out.Explanation = st.Explanation
		return out
	case Skipped:
		out.Result = Result{Details: st.Details}
		out.Explanation = st.Explanation
		return out
	}
	if r.expand["order"] {
		out.Order = st.Order
	}
	// A tier's discount, metadata and targets belong to the cached
	// snapshot: the answer gets copies.
	out.ApplicableTo = promotype.NewList(slices.Clone(sh.applicableTo), len(sh.applicableTo), promotype.Query{})
	out.InapplicableTo = promotype.NewList(slices.Clone(sh.inapplicableTo), len(sh.inapplicableTo), promotype.Query{})
	switch {
	case c.Gift != nil:
		out.Result.Gift = &GiftResult{Credits: st.Credits}
	case c.Loyalty != nil:
		out.Result.LoyaltyCard = &LoyaltyResult{Points: st.Points}
	default:
		out.Result.Discount = sh.discount.Clone()
	}
	out.Metadata = sh.metadata.Clone()
	if out.Metadata == nil {
		out.Metadata = promotype.Metadata{}
	}
	out.Categories = []*Category{}
	if cat := r.cats[sh.categoryID]; cat != nil && r.expand["category"] {
		kind := ""
		switch {
		case slices.Contains(r.rules.ExclusiveCategories, cat.ID):
			kind = "EXCLUSIVE"
		case slices.Contains(r.rules.JointCategories, cat.ID):
			kind = "JOINT"
		}
		out.Categories = append(out.Categories, &Category{Category: cat, StackingRulesType: kind})
	}
	if r.expand["redeemable"] {
		if sh.campaignID != "" {
			out.CampaignID, out.CampaignName = &sh.campaignID, &sh.campaignName
		}
		if sh.name != "" {
			out.Name = &sh.name
		}
	}
	return out
}
