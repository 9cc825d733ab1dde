package campaign

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// TierParams is the body of a tier create (PromotionTierCreate) and of a
// tier update (all optional there; active is refused: enable and disable
// change it).
type TierParams struct {
	Name            *string            `json:"name" validate:"omitempty,min=1,max=300"`
	Banner          *string            `json:"banner"`
	Action          *TierAction        `json:"action"`
	Metadata        promotype.Metadata `json:"metadata"`
	ValidationRules []string           `json:"validation_rules"`
	Active          *bool              `json:"active"`
	Hierarchy       *int               `json:"hierarchy" validate:"omitempty,gte=0,lte=2147483647"` // ≤ MaxHierarchy
	ValidityParams
	Category   *string `json:"category" validate:"omitempty,min=1,max=300"`
	CategoryID *string `json:"category_id"`
}

// TierService is the promotion tier use cases.
type TierService struct {
	store     Store
	tx        promotype.TxFunc[Store]
	env       promotype.Env
	campaigns *Service
	rules     *rule.Service
	summary   TierSummaryFunc
}

// NewTierService returns a tier service; campaigns resolves campaigns and
// categories, rules assigns validation rules; env.Change is told
// of every successful write.
func NewTierService(store Store, tx promotype.TxFunc[Store], env promotype.Env, campaigns *Service, rules *rule.Service) *TierService {
	return &TierService{store: store, tx: tx, env: env, campaigns: campaigns, rules: rules}
}

// TierListParams are the parameters of the tier lists.
type TierListParams struct {
	promotype.ListParams
	IsAvailable *bool // only active tiers of active campaigns, not expired
}

// Create adds a tier to the PROMOTION campaign ref (id or name). Without a
// hierarchy the tier gets the campaign's highest plus one.
func (s *TierService) Create(ctx context.Context, projectID, campaignRef string, in TierParams) (*PromotionTier, error) {
	if err := LocalizeValidity(ctx, s.env, projectID, &in.ValidityParams); err != nil {
		return nil, err
	}
	if err := s.checkTier(ctx, projectID, in, true); err != nil {
		return nil, err
	}
	var out *PromotionTier
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := s.campaigns.Resolve(ctx, st, projectID, campaignRef)
		if err != nil {
			return err
		}
		ts, err := s.CreateIn(ctx, st, c, []TierParams{in})
		if err != nil {
			return err
		}
		out = ts[0]
		return s.EmitTier(ctx, st, EventTierCreated, out)
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(projectID)
	return s.summarized(ctx, s.store, out)
}

// CreateIn creates tiers under campaign c through st (the caller's
// transaction), in order; tiers without a hierarchy get the highest so far
// plus one. The returned tiers are not presented, and their
// campaign.promotion_tier.created events are the caller's (EmitTier).
func (s *TierService) CreateIn(ctx context.Context, st Store, c *Campaign, ins []TierParams) ([]*PromotionTier, error) {
	if c.CampaignType != Promotion {
		return nil, InvalidCampaign("Campaign %s is not a PROMOTION campaign: it cannot hold promotion tiers", c.ID)
	}
	existing, _, err := st.ListPromotionTiers(ctx, c.ProjectID, tiersOf(c.ID))
	if err != nil {
		return nil, err
	}
	high := 0
	for _, t := range existing {
		high = max(high, t.Hierarchy)
	}
	out := make([]*PromotionTier, 0, len(ins))
	for _, in := range ins {
		if in.Name == nil {
			return nil, promotype.InvalidPayload("Payload must have required property 'name'")
		}
		t := &PromotionTier{ID: s.env.IDs.NewID(PrefixPromotionTier), ProjectID: c.ProjectID, CampaignID: c.ID,
			CreatedAt: s.env.Clock.Now(), Active: true}
		if in.Active != nil {
			t.Active = *in.Active
		}
		if err := s.apply(ctx, st, t, in); err != nil {
			return nil, err
		}
		if in.Hierarchy == nil {
			if high >= MaxHierarchy {
				return nil, promotype.InvalidPayload("Property .hierarchy is required: the campaign's tiers already reach the largest hierarchy %d", MaxHierarchy)
			}
			t.Hierarchy = high + 1
		}
		high = max(high, t.Hierarchy)
		if err := st.InsertPromotionTier(ctx, t); err != nil {
			return nil, err
		}
		if err := s.assign(ctx, st, t, in.ValidationRules); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// tiersOf is the query of every tier of campaign id, oldest first.
func tiersOf(id string) promotype.Query {
	return promotype.Query{Limit: 1 << 20, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "campaign_id", Op: promotype.OpIs, Values: []string{id}}}}
}

func (s *TierService) assign(ctx context.Context, st Store, t *PromotionTier, ruleIDs []string) error {
	if len(ruleIDs) == 0 {
		return nil
	}
	to, err := s.related(ctx, st, t)
	if err != nil {
		return err
	}
	for _, id := range ruleIDs {
		if _, err := s.rules.AssignIn(ctx, st, t.ProjectID, id, to, false); err != nil {
			return err
		}
	}
	return nil
}

// related is tier t as the related object of its rule assignments, shown
// as the API shows it.
func (s *TierService) related(ctx context.Context, st Store, t *PromotionTier) (rule.Related, error) {
	pt, err := presentTier(ctx, st, t.Clone())
	return rule.Related{Type: rule.RelatedPromotionTier, ID: t.ID, Object: pt}, err
}

// apply checks in and copies it onto t (not active, not the rules).
func (s *TierService) apply(ctx context.Context, st Store, t *PromotionTier, in TierParams) error {
	if err := validate.Struct(in); err != nil {
		return err
	}
	if err := in.ValidityParams.Check(); err != nil {
		return err
	}
	if in.Action != nil && in.Action.Discount != nil {
		d := in.Action.Discount.Clone()
		if err := d.Validate(".action.discount"); err != nil {
			return err
		}
		t.Action.Discount = d
	}
	v := t.Validity.Clone()
	in.ValidityParams.Apply(&v)
	if err := CheckValidity(v); err != nil {
		return err
	}
	t.Validity = v
	if in.Name != nil {
		t.Name = *in.Name
	}
	if in.Banner != nil {
		t.Banner = promotype.ClonePtr(in.Banner)
	}
	if in.Metadata != nil {
		t.Metadata = in.Metadata.Clone()
	}
	if in.Hierarchy != nil {
		t.Hierarchy = *in.Hierarchy
	}
	if in.Category != nil || in.CategoryID != nil {
		cat, err := s.campaigns.ResolveCategory(ctx, st, t.ProjectID, in.CategoryID, in.Category)
		if err != nil {
			return err
		}
		t.CategoryID = &cat.ID
	}
	return nil
}

// Get returns a tier by id.
func (s *TierService) Get(ctx context.Context, projectID, id string) (*PromotionTier, error) {
	t, err := s.store.GetPromotionTier(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return s.summarized(ctx, s.store, t)
}

// List lists the tiers of campaign ref, or of the project when ref is "".
func (s *TierService) List(ctx context.Context, projectID, campaignRef string, p TierListParams) (*promotype.List[*PromotionTier], error) {
	q, err := p.Query(TierListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	if campaignRef != "" {
		c, err := s.campaigns.Resolve(ctx, s.store, projectID, campaignRef)
		if err != nil {
			return nil, err
		}
		q.Must = append(q.Must, promotype.Condition{Field: "campaign_id", Op: promotype.OpIs, Values: []string{c.ID}})
	}
	var items []*PromotionTier
	var total int
	if p.IsAvailable != nil {
		// Availability reads the campaign too: filter every match, then page.
		all := q
		all.Offset, all.Limit = 0, 1<<20
		ts, _, err := s.store.ListPromotionTiers(ctx, projectID, all)
		if err != nil {
			return nil, err
		}
		now := s.env.Clock.Now()
		for _, t := range ts {
			if s.available(ctx, t, now) == *p.IsAvailable {
				items = append(items, t)
			}
		}
		total = len(items)
		items = items[min(q.Offset, len(items)):min(q.Offset+q.Limit, len(items))]
	} else if items, total, err = s.store.ListPromotionTiers(ctx, projectID, q); err != nil {
		return nil, err
	}
	for i, t := range items {
		if items[i], err = presentTier(ctx, s.store, t); err != nil {
			return nil, err
		}
	}
	if err := s.withSummary(ctx, projectID, items...); err != nil {
		return nil, err
	}
	return promotype.NewList(items, total, q), nil
}

// available: the tier and its campaign active, neither expired.
func (s *TierService) available(ctx context.Context, t *PromotionTier, now promotype.Time) bool {
	if !t.Active || (t.ExpirationDate != nil && !t.ExpirationDate.After(now.Time)) {
		return false
	}
	c, err := s.store.GetCampaign(ctx, t.ProjectID, t.CampaignID)
	return err == nil && c.Active && (c.ExpirationDate == nil || c.ExpirationDate.After(now.Time))
}

// Update changes the fields given. active cannot change here (the enable and
// disable endpoints do that), but the tier's current value is accepted, so
// that an application may send back the tier it read with a field changed.
func (s *TierService) Update(ctx context.Context, projectID, id string, in TierParams) (*PromotionTier, error) {
	if err := LocalizeValidity(ctx, s.env, projectID, &in.ValidityParams); err != nil {
		return nil, err
	}
	if err := s.checkTier(ctx, projectID, in, false); err != nil {
		return nil, err
	}
	var out *PromotionTier
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		t, err := st.GetPromotionTier(ctx, projectID, id)
		if err != nil {
			return err
		}
		if in.Active != nil && *in.Active != t.Active {
			return promotype.InvalidPayload("Property .active is not allowed: use the enable and disable endpoints")
		}
		if err := s.apply(ctx, st, t, in); err != nil {
			return err
		}
		t.UpdatedAt = s.env.Clock.Now().Ptr()
		if err := st.UpdatePromotionTier(ctx, t); err != nil {
			return err
		}
		if in.ValidationRules != nil {
			to, err := s.related(ctx, st, t)
			if err != nil {
				return err
			}
			if err := s.rules.UnassignObject(ctx, st, projectID, to); err != nil {
				return err
			}
			if err := s.assign(ctx, st, t, in.ValidationRules); err != nil {
				return err
			}
		}
		out = t
		return s.EmitTier(ctx, st, EventTierUpdated, t)
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(projectID)
	return s.summarized(ctx, s.store, out)
}

// SetActive enables or disables a tier.
func (s *TierService) SetActive(ctx context.Context, projectID, id string, active bool) (*PromotionTier, error) {
	var out *PromotionTier
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		t, err := st.GetPromotionTier(ctx, projectID, id)
		if err != nil {
			return err
		}
		t.Active = active
		t.UpdatedAt = s.env.Clock.Now().Ptr()
		out = t
		if err := st.UpdatePromotionTier(ctx, t); err != nil {
			return err
		}
		return s.EmitTier(ctx, st, pick(active, EventTierEnabled, EventTierDisabled), t)
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(projectID)
	return s.summarized(ctx, s.store, out)
}

// Delete removes a tier and its validation rule assignments.
func (s *TierService) Delete(ctx context.Context, projectID, id string) error {
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		t, err := st.GetPromotionTier(ctx, projectID, id)
		if err != nil {
			return err
		}
		// The event shows the tier (and its campaign) as before the delete.
		if err := s.EmitTier(ctx, st, EventTierDeleted, t); err != nil {
			return err
		}
		if err := dropFromStacks(ctx, st, t, s.env.Clock.Now()); err != nil {
			return err
		}
		return s.deleteTier(ctx, st, t)
	})
	if err == nil {
		s.env.Change(projectID)
	}
	return err
}

// DeleteOfCampaign removes every tier of campaign campaignID and their
// validation rule assignments, through st (the campaign delete's
// transaction, whose campaign.deleted event tells of its tiers too).
func (s *TierService) DeleteOfCampaign(ctx context.Context, st Store, projectID, campaignID string) error {
	ts, _, err := st.ListPromotionTiers(ctx, projectID, tiersOf(campaignID))
	if err != nil {
		return err
	}
	for _, t := range ts {
		if err := s.deleteTier(ctx, st, t); err != nil {
			return err
		}
	}
	return nil
}

// deleteTier removes tier t and its rule assignments through st.
func (s *TierService) deleteTier(ctx context.Context, st Store, t *PromotionTier) error {
	to, err := s.related(ctx, st, t)
	if err != nil {
		return err
	}
	if err := s.rules.UnassignObject(ctx, st, t.ProjectID, to); err != nil {
		return err
	}
	return st.DeletePromotionTier(ctx, t.ProjectID, t.ID)
}

// Resolve returns the tier id names, through st.
func (s *TierService) Resolve(ctx context.Context, st TierStore, projectID, id string) (*PromotionTier, error) {
	return st.GetPromotionTier(ctx, projectID, id)
}

// TierLister is what TiersOfCampaigns reads (a TierStore).
type TierLister interface {
	ListPromotionTiers(ctx context.Context, projectID string, q promotype.Query) ([]*PromotionTier, int, error)
}

// TiersOfCampaigns returns the stored tiers of the campaigns, by campaign
// id, in creation order.
func TiersOfCampaigns(ctx context.Context, st TierLister, projectID string, ids []string) (map[string][]*PromotionTier, error) {
	q := promotype.Query{Limit: 1 << 20, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "campaign_id", Op: promotype.OpIn, Values: ids}}}
	ts, _, err := st.ListPromotionTiers(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	out := map[string][]*PromotionTier{}
	for _, t := range ts {
		out[t.CampaignID] = append(out[t.CampaignID], t)
	}
	return out, nil
}

// Present fills the derived fields of a stored tier read through st.
func (s *TierService) Present(ctx context.Context, st Store, t *PromotionTier) (*PromotionTier, error) {
	return presentTier(ctx, st, t)
}

// presentTier fills the derived fields of tier t (its campaign, rule
// assignments and categories) read through st, and returns t.
func presentTier(ctx context.Context, st Store, t *PromotionTier) (*PromotionTier, error) {
	t.Campaign = nil
	c, err := st.GetCampaign(ctx, t.ProjectID, t.CampaignID)
	switch {
	case err == nil:
		t.Campaign = &TierCampaign{ID: c.ID, Validity: c.Validity.Clone(), Active: c.Active,
			CategoryID: promotype.ClonePtr(c.CategoryID), Object: "campaign"}
	case !errors.Is(err, promotype.ErrNotFound):
		return nil, err
	}
	as, err := rule.AssignmentsByObject(ctx, st, t.ProjectID, rule.RelatedPromotionTier, []string{t.ID})
	if err != nil {
		return nil, err
	}
	list := as[t.ID]
	t.ValidationRuleAssignments = promotype.NewList(list, len(list), promotype.Query{})
	t.Categories = nil
	if t.CategoryID != nil {
		cat, err := st.GetCategory(ctx, t.ProjectID, *t.CategoryID)
		if err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return nil, err
		}
		if cat != nil {
			t.Categories = []*Category{cat.Clone().normalize()}
		}
	}
	return t.normalize(), nil
}

// sortTiers orders tiers by hierarchy, then creation (a campaign's
// promotion.tiers list).
func sortTiers(ts []*PromotionTier) {
	slices.SortStableFunc(ts, func(a, b *PromotionTier) int {
		if a.Hierarchy != b.Hierarchy {
			return cmp.Compare(a.Hierarchy, b.Hierarchy)
		}
		return a.CreatedAt.Compare(b.CreatedAt.Time)
	})
}
