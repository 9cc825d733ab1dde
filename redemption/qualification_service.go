package redemption

import (
	"cmp"
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// QualificationStore is what a qualification reads besides what a
// validation reads: its candidate vouchers, each source from an index (a
// qualification never walks every voucher of a project).
type QualificationStore interface {
	// HeldVouchers returns up to limit live vouchers of customerID's
	// wallet with the role it holds them in, in the wallet's order (its
	// rows' ids, HeldVoucher.Key), after the row with id after ("" from
	// the start).
	HeldVouchers(ctx context.Context, projectID, customerID, after string, limit int) ([]*HeldVoucher, error)
	// PublicVouchers returns up to limit live, active vouchers without a
	// holder that belong to no campaign or to a STANDALONE campaign (the
	// generic codes anyone may use), newest first (created_at descending,
	// then code ascending: the DEFAULT sorting of a qualification, whose
	// key of a voucher is its code), after the
	// voucher at after (nil: from the newest) and before the key until
	// (nil: to the oldest), so that a page reads only what can make it.
	PublicVouchers(ctx context.Context, projectID string, after, until *OfferKey, limit int) ([]*voucher.Voucher, error)
	// CampaignOffers returns up to limit live, active campaigns of type
	// DISCOUNT_COUPONS or GIFT_VOUCHERS (not STANDALONE) that hold a free
	// voucher, each with its first free one (the live, active voucher
	// without a holder of lowest id: the one a publication gives next),
	// newest first (created_at descending, then id ascending), after the
	// campaign at after (nil: from the newest) and before the key until
	// (nil: to the oldest).
	CampaignOffers(ctx context.Context, projectID string, after, until *OfferKey, limit int) ([]*CampaignOffer, error)
	// CampaignsByID returns the live campaigns among ids (in no order;
	// missing ones left out): the candidate vouchers' campaigns in one read.
	CampaignsByID(ctx context.Context, projectID string, ids []string) ([]*campaign.Campaign, error)
}

// HeldVoucher is a voucher of a customer's wallet and the customer's role
// (OWNER, REFERRER, ...); Key is the wallet row's id (the read's cursor).
type HeldVoucher struct {
	Key     string
	Role    string
	Voucher *voucher.Voucher
}

// CampaignOffer is a campaign a customer could be given a code of and the
// code it would be given.
type CampaignOffer struct {
	Campaign *campaign.Campaign
	Voucher  *voucher.Voucher
}

// OfferKey is the position of a campaign in CampaignOffers' order, or of a
// voucher in PublicVouchers' (ID is then its code).
type OfferKey struct {
	CreatedAt promotype.Time
	ID        string
}

// QualificationServiceStore is what the qualification service reads.
type QualificationServiceStore interface {
	ServiceStore
	QualificationStore
}

// QualificationService answers which redeemables a customer and an order
// qualify for (POST /v1/qualifications). Unlike the hosted service, which
// ignores budgets and per-customer counts, every redeemable
// it returns is one a validation of the same order and customer with that
// redeemable alone answers APPLICABLE: each candidate goes through the
// validation's own resolution and evaluation. Nothing is stored or locked.
type QualificationService struct {
	v     *Service
	store QualificationServiceStore
}

// NewQualificationService returns the qualification service over store,
// evaluating with the validation service v.
func NewQualificationService(store QualificationServiceStore, v *Service) *QualificationService {
	return &QualificationService{v: v, store: store}
}

// Qualify returns the redeemables the request's customer and order
// qualify for under its scenario, one page of them.
// Candidates come from indexes: the promotion tiers the tier index finds
// for the order and customer, the customer's wallet (its loyalty cards
// when their campaign pays with points), the public vouchers (no holder;
// no campaign or a STANDALONE one), the campaigns with a free code to
// give (object campaign: evaluated through the code a publication gives
// next) and the project's promotion stacks (PROMOTION_STACKS). Each source
// is read in batches; nothing that qualifies is left out. The cursor
// (starting_after) keeps the redeemables created before it, whatever the
// sorting rule, as the hosted service documents; see Cursor for a page
// ending among redeemables sharing one created_at.
func (q *QualificationService) Qualify(ctx context.Context, projectID string, in QualificationParams) (*Qualification, error) {
	opts, err := checkQualification(in)
	if err != nil {
		return nil, err
	}
	s := q.v
	rules, err := s.rules.effective(ctx, s.store, projectID)
	if err != nil {
		return nil, err
	}
	vp := ValidationParams{Order: in.Order, Customer: in.Customer, TrackingID: in.TrackingID, Metadata: in.Metadata,
		Options: &ValidationOptions{Expand: append([]string{"order"}, opts.expand...)}}
	if in.Metadata != nil {
		if err := s.env.CheckMeta(ctx, projectID, "redemption", in.Metadata); err != nil {
			return nil, err
		}
	}
	req, cust, err := s.request(ctx, projectID, vp, nil)
	if err != nil {
		return nil, err
	}
	snap, err := s.snapshots(ctx, projectID)
	if err != nil {
		return nil, err
	}
	r := s.newResolver(projectID, snap, rules, vp)
	r.seen(cust)
	req.AudienceOnly = opts.scenario == ScenarioAudienceOnly
	g := &gathering{q: q, projectID: projectID, r: r, req: &req, vp: vp, rules: rules, opts: opts}
	if err := g.gather(ctx); err != nil {
		return nil, err
	}
	page, err := g.page(ctx)
	if err != nil {
		return nil, err
	}
	out := &Qualification{Redeemables: page, StackingRules: rules.Effective(),
		TrackingID: promotion.TrackingID(projectID, cust.SourceID)}
	if in.TrackingID != nil && *in.TrackingID != "" && cust.SourceID == "" {
		out.TrackingID = *in.TrackingID
	}
	if in.Order != nil {
		out.Order = req.Order
	}
	return out, nil
}

// qualificationOptions are a request's checked options.
type qualificationOptions struct {
	scenario      string
	limit         int
	startingAfter *Cursor
	filters       *filterSet
	expand        []string
	sorting       string
	lock          bool // session LOCK: show locked credits
}

// checkQualification checks the request's scenario and options; a value
// outside the documented ones is a 400 invalid_payload.
func checkQualification(in QualificationParams) (*qualificationOptions, error) {
	o := &qualificationOptions{scenario: ScenarioAll, limit: DefaultQualificationLimit, sorting: SortDefault}
	if in.Scenario != nil && *in.Scenario != "" {
		switch *in.Scenario {
		case ScenarioAll, ScenarioCustomerWallet, ScenarioAudienceOnly, ScenarioProducts, ScenarioProductsDiscount,
			ScenarioPromotionStacks, ScenarioProductsByCustomer, ScenarioProductsDiscountByCustomer:
			o.scenario = *in.Scenario
		default:
			return nil, promotype.InvalidPayload("Property .scenario must be equal to one of the allowed values: ALL, CUSTOMER_WALLET, AUDIENCE_ONLY, PRODUCTS, PRODUCTS_DISCOUNT, PROMOTION_STACKS, PRODUCTS_BY_CUSTOMER, PRODUCTS_DISCOUNT_BY_CUSTOMER")
		}
	}
	if in.Session != nil && in.Session.Type != "" {
		if in.Session.Type != SessionLock {
			return nil, promotype.InvalidPayload("Property .session.type must be equal to one of the allowed values: LOCK")
		}
		o.lock = true
	}
	p := in.Options
	if p == nil {
		return o, nil
	}
	if p.Limit != nil {
		switch {
		case *p.Limit < 1:
			return nil, promotype.InvalidPayload("Property .options.limit must be >= 1")
		case *p.Limit > MaxQualificationLimit:
			return nil, promotype.InvalidPayload("Property .options.limit must be <= %d", MaxQualificationLimit)
		}
		o.limit = *p.Limit
	}
	o.startingAfter = p.StartingAfter
	if p.SortingRule != nil && *p.SortingRule != "" {
		switch *p.SortingRule {
		case SortDefault, SortBestDeal, SortLeastDeal:
			o.sorting = *p.SortingRule
		default:
			return nil, promotype.InvalidPayload("Property .options.sorting_rule must be equal to one of the allowed values: BEST_DEAL, LEAST_DEAL, DEFAULT")
		}
	}
	for i, e := range p.Expand {
		if e != "redeemable" && e != "category" && e != "validation_rules" {
			return nil, promotype.InvalidPayload("Property .options.expand[%d] must be equal to one of the allowed values: redeemable, category, validation_rules", i)
		}
	}
	o.expand = p.Expand
	if p.Filters != nil {
		f, err := compileFilters(p.Filters)
		if err != nil {
			return nil, err
		}
		o.filters = f
	}
	return o, nil
}

// qcand is one candidate of a qualification: what it is, and where its
// resolved candidates lie in the resolver (a stack's tiers are several).
type qcand struct {
	object     string // voucher, promotion_tier, promotion_stack, campaign
	id         string // a voucher's code
	resourceID string // a voucher's id
	createdAt  promotype.Time
	holderRole string
	voucherTyp string
	tier       *promotion.Tier
	stack      *campaign.PromotionStack
	camp       *campaign.Campaign // a campaign offer's
	offer      *voucher.Voucher   // a campaign offer's next code, or the voucher
	reward     *RewardParams      // a loyalty card's pay-with-points reward
	lo, hi     int
}

// compareQualified orders by the sorting rule: created_at descending
// (ties by id), or the discount the redeemable gives alone, then
// created_at descending.
func compareQualified(a, b *Qualified, rule string) int {
	switch rule {
	case SortBestDeal:
		if c := cmp.Compare(b.discounted, a.discounted); c != 0 {
			return c
		}
	case SortLeastDeal:
		if c := cmp.Compare(a.discounted, b.discounted); c != 0 {
			return c
		}
	}
	return compareKeys(a.CreatedAt, a.ID, b.CreatedAt, b.ID)
}

// compareKeys orders (created_at, id) keys: created_at descending, then
// id ascending.
func compareKeys(at promotype.Time, id string, bt promotype.Time, bid string) int {
	if c := bt.Compare(at.Time); c != 0 {
		return c
	}
	return cmp.Compare(id, bid)
}
