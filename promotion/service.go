package promotion

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
)

// Store is the storage port validation reads: the request's order and
// customer, the project's PROMOTION campaigns with their tiers, rules and
// categories, the products unit discounts add, and stacks. It only reads.
type Store interface {
	order.Reader
	customer.Reader
	segment.Reader
	campaign.TierLister
	rule.AssignmentLister
	ListCampaigns(ctx context.Context, projectID string, q promotype.Query) ([]*campaign.Campaign, int, error)
	GetCategory(ctx context.Context, projectID, id string) (*campaign.Category, error)
	ListValidationRules(ctx context.Context, projectID string, q promotype.Query) ([]*rule.ValidationRule, int, error)
	GetPromotionStack(ctx context.Context, projectID, id string) (*campaign.PromotionStack, error)
	ListCollections(ctx context.Context, projectID string, q promotype.Query) ([]*catalog.Collection, int, error)
}

// TimeZoneFunc returns a project's time zone, in which tier and campaign
// validity windows (days of the week, hours) are read. An error (the
// project does not exist) fails the validation.
type TimeZoneFunc func(ctx context.Context, projectID string) (*time.Location, error)

// Service is promotion tier validation (POST /v1/promotions/validation)
// and stack evaluation over a [Store]. It compiles each project's tiers
// into a [Snapshot] and caches it per project; tell it of every write that
// can change a validation with Changed (the engine points
// promotype.Env.Changed at it). It is safe for concurrent use.
type Service struct {
	store Store
	env   promotype.Env
	cache *snapshotCache
}

// Option configures a Service.
type Option func(*options)

type options struct {
	zone   TimeZoneFunc
	logger *slog.Logger
}

// WithTimeZone sets how the service finds a project's time zone; without
// it every project is in UTC.
func WithTimeZone(f TimeZoneFunc) Option { return func(o *options) { o.zone = f } }

// WithLogger sets the logger of the background snapshot rebuilds'
// failures (slog.Default() by default).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// NewService returns a validation service reading through store, with
// env's clock as the time of each validation.
func NewService(store Store, env promotype.Env, opts ...Option) *Service {
	o := options{logger: slog.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	if o.zone == nil {
		o.zone = func(context.Context, string) (*time.Location, error) { return time.UTC, nil }
	}
	return &Service{store: store, env: env, cache: newSnapshotCache(&builder{store: store, zone: o.zone}, o.logger)}
}

// Changed tells the service that something validation reads changed in the
// project (after the commit): the project's next validation rebuilds its
// snapshot. Other projects keep theirs.
func (s *Service) Changed(projectID string) { s.cache.Changed(projectID) }

// Stats reports what the snapshot cache did since the service was made.
func (s *Service) Stats() Stats { return s.cache.stats() }

// Validate validates every active tier of the project's active PROMOTION
// campaigns against the request's customer, order and metadata (POST
// /v1/promotions/validation) and returns the valid ones, newest tier first,
// each priced on its own copy of the order. Nothing is stored.
func (s *Service) Validate(ctx context.Context, projectID string, in ValidationParams, q ValidationQuery) (*Validation, error) {
	if s.env.Step == nil {
		return s.validate(ctx, projectID, in, q)
	}
	ctx, end := s.env.Step(ctx, promotype.StepPromotionValidate, slog.String("project_id", projectID))
	v, err := s.validate(ctx, projectID, in, q)
	end(promotype.ValidOutcome(v != nil && v.Valid, err), err)
	return v, err
}

func (s *Service) validate(ctx context.Context, projectID string, in ValidationParams, q ValidationQuery) (*Validation, error) {
	req, l, err := s.request(ctx, projectID, &in, q)
	if err != nil {
		return nil, err
	}
	snap, err := s.cache.Snapshot(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if snap.NeedsSegments() {
		if req.Segments, err = CustomerSegments(ctx, s.store, projectID, l); err != nil {
			return nil, err
		}
	}
	sourceID := l.SourceID
	if len(q.PromotionIDs) > 0 {
		keep := map[string]bool{}
		for _, id := range q.PromotionIDs {
			keep[id] = true
		}
		req.Only = func(t *Tier) bool { return keep[t.ID] }
	}
	out := &Validation{TrackingID: trackingID(projectID, sourceID), Promotions: []*TierValidation{}}
	var cats map[string]*campaign.Category // tier categories, with options.expand ["category"]
	if slices.Contains(in.Options.Expand, "category") {
		cats = map[string]*campaign.Category{}
	}
	for _, r := range snap.Validate(req) {
		tv, err := s.tierValidation(ctx, projectID, r, out.TrackingID, cats)
		if err != nil {
			return nil, err
		}
		out.Promotions = append(out.Promotions, tv)
	}
	out.Valid = len(out.Promotions) > 0
	return out, nil
}

// EvaluateStack applies the tiers of stack stackID in order to the
// request's order with running totals: each tier's rules
// read the order the tiers before it left; a tier that is closed, disabled,
// fails its rules or cannot be priced is skipped (its step is not valid).
// Nothing is stored.
func (s *Service) EvaluateStack(ctx context.Context, projectID, stackID string, in ValidationParams) (*StackEvaluation, error) {
	ps, err := s.store.GetPromotionStack(ctx, projectID, stackID)
	if err != nil {
		return nil, err
	}
	req, l, err := s.request(ctx, projectID, &in, ValidationQuery{})
	if err != nil {
		return nil, err
	}
	if req.Segments, err = CustomerSegments(ctx, s.store, projectID, l); err != nil {
		return nil, err
	}
	snap, err := s.cache.Snapshot(ctx, projectID)
	if err != nil {
		return nil, err
	}
	steps, o := snap.Stack(ps.Tiers.IDs, req)
	return &StackEvaluation{StackID: ps.ID, Steps: steps, Order: o}, nil
}

// request resolves the request's order and customer. It returns what it
// found of the customer (its source id, "" without one, makes the
// tracking id).
func (s *Service) request(ctx context.Context, projectID string, in *ValidationParams, q ValidationQuery) (Request, CustomerLookup, error) {
	o, _, err := order.Resolve(ctx, s.store, projectID, &in.Order)
	if err != nil {
		return Request{}, CustomerLookup{}, err
	}
	req := Request{Order: o, Redemption: in.Metadata, Now: s.env.Clock.Now().Time, AudienceOnly: q.AudienceRulesOnly}
	l, err := LookupCustomer(ctx, s.store, projectID, &in.Customer)
	if err != nil {
		return Request{}, CustomerLookup{}, err
	}
	req.Customer = l.Metadata
	return req, l, nil
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
func (s *Service) tierValidation(ctx context.Context, projectID string, r Result, tracking string, cats map[string]*campaign.Category) (*TierValidation, error) {
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
			c, err := s.store.GetCategory(ctx, projectID, *t.CategoryID)
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
