package campaign

import (
	"context"
	"errors"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// Service is the campaign and category use cases. Methods that take a
// CampaignStore run on it, so that the engine can join them with other
// writes (a campaign and its generation action) in one transaction; the
// others read through the service's store or open their own transaction.
type Service struct {
	store Store
	tx    promotype.TxFunc[Store]
	env   promotype.Env
	rules *rule.Service
}

// Store is the storage port of the campaign services: campaigns and
// categories, promotion tiers and stacks, the validation rules assigned to
// them, and (through rule.Store) the outbox.
type Store interface {
	CampaignStore
	TierStore
	StackStore
	rule.Store
}

// NewService returns a campaign service; rules assigns the validation_rules
// a campaign is created with.
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env, rules *rule.Service) *Service {
	return &Service{store: store, tx: tx, env: env, rules: rules}
}

// ListParams are the parameters of a campaign list: the common ones and the
// query parameters of GET /v1/campaigns.
type ListParams struct {
	promotype.ListParams
	CampaignType   *CampaignType // campaign_type
	Status         *Status       // campaign_status: the creation_status
	IsReferralCode *bool         // is_referral_code
	ExpandCategory bool          // expand=category fills categories
}

// MaxHierarchy bounds the hierarchy of categories and promotion tiers:
// the largest value of PostgreSQL's integer column (2^31 − 1), so that both
// stores keep every accepted value and the next tier's hierarchy (the
// highest plus one) cannot overflow.
const MaxHierarchy = 1<<31 - 1

// CategoryParams is the body of a category create.
type CategoryParams struct {
	Name      *string `json:"name" validate:"omitempty,min=1,max=300"`
	Hierarchy *int    `json:"hierarchy" validate:"omitempty,gte=0,lte=2147483647"` // ≤ MaxHierarchy
}

// Create checks in, resolves its category (a `category` naming no category
// creates one) and stores the campaign through st. It returns the stored
// campaign and the number of vouchers to generate for it. The caller
// records campaign.created (EmitCampaign) once the campaign is complete
// (its tiers), and checks the metadata first (CheckCreate).
func (s *Service) Create(ctx context.Context, st Store, projectID string, in Params) (*Campaign, int64, error) {
	c, count, err := in.build(s.env, projectID)
	if err != nil {
		return nil, 0, err
	}
	if err := s.checkReferralRewards(ctx, st, c); err != nil {
		return nil, 0, err
	}
	cat, err := s.ResolveCategory(ctx, st, projectID, in.CategoryID, in.Category)
	if err != nil {
		return nil, 0, err
	}
	if cat != nil {
		c.CategoryID = &cat.ID
	}
	if err := st.InsertCampaign(ctx, c); err != nil {
		return nil, 0, err
	}
	if len(in.ValidationRules) > 0 {
		pc, err := s.Present(ctx, st, c.Clone(), true)
		if err != nil {
			return nil, 0, err
		}
		for _, id := range in.ValidationRules {
			if _, err := s.rules.AssignIn(ctx, st, projectID, id, rule.Related{Type: rule.RelatedCampaign, ID: c.ID, Object: pc}, false); err != nil {
				return nil, 0, err
			}
		}
	}
	return c.Clone(), count, nil
}

// Resolve returns the live campaign with id or name ref, as stored.
func (s *Service) Resolve(ctx context.Context, st CampaignStore, projectID, ref string) (*Campaign, error) {
	return promotype.Resolve(ctx, "campaign", ref, projectID, st.GetCampaign, st.FindCampaignByName)
}

// Get returns a campaign by id or name.
func (s *Service) Get(ctx context.Context, projectID, ref string) (*Campaign, error) {
	c, err := s.Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.Present(ctx, s.store, c, true)
}

// List lists the live campaigns of a project.
func (s *Service) List(ctx context.Context, projectID string, p ListParams) (*promotype.List[*Campaign], error) {
	q, err := p.ListParams.Query(ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	is := func(field, v string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
	}
	if p.CampaignType != nil {
		q.Must = append(q.Must, is("campaign_type", string(*p.CampaignType)))
	}
	if p.Status != nil {
		q.Must = append(q.Must, is("creation_status", string(*p.Status)))
	}
	if p.IsReferralCode != nil {
		q.Must = append(q.Must, is("is_referral_code", boolString(*p.IsReferralCode)))
	}
	items, total, err := s.store.ListCampaigns(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	if err := s.fillAssignments(ctx, s.store, projectID, items); err != nil {
		return nil, err
	}
	cats := map[string]*Category{}
	for _, c := range items {
		if _, err := s.present(ctx, s.store, c, p.ExpandCategory, cats); err != nil {
			return nil, err
		}
	}
	return promotype.NewList(items, total, q), nil
}

// Update applies an update body to the campaign with id or name ref through
// st: the campaign is MODIFYING (both statuses), its Revision goes up and
// updated_at is set. A campaign still generating its vouchers cannot be
// changed. The caller schedules the CAMPAIGN.VOUCHERS_UPDATE action that
// takes the campaign back to DONE.
func (s *Service) Update(ctx context.Context, st Store, projectID, ref string, in UpdateParams) (*Campaign, error) {
	c, err := s.Resolve(ctx, st, projectID, ref)
	if err != nil {
		return nil, err
	}
	before := c.Clone()
	if err := in.apply(c); err != nil {
		return nil, err
	}
	if in.ReferralProgram != nil {
		if err := c.ReferralProgram.check(s.env.IDs); err != nil {
			return nil, err
		}
		if err := s.checkReferralRewards(ctx, st, c); err != nil {
			return nil, err
		}
	}
	if in.Category != nil || in.CategoryID != nil {
		cat, err := s.ResolveCategory(ctx, st, projectID, in.CategoryID, in.Category)
		if err != nil {
			return nil, err
		}
		c.CategoryID = &cat.ID
	}
	c.CreationStatus, c.VouchersGenerationStatus = StatusModifying, StatusModifying
	c.Revision++
	c.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := st.UpdateCampaign(ctx, c); err != nil {
		return nil, err
	}
	if err := s.EmitCampaign(ctx, st, EventCampaignUpdated, c, nil); err != nil {
		return nil, err
	}
	if err := s.emitReferralTiers(ctx, st, before, c); err != nil {
		return nil, err
	}
	return c.Clone(), nil
}

// SetActive enables or disables the campaign with id or name ref.
func (s *Service) SetActive(ctx context.Context, projectID, ref string, active bool) (*Campaign, error) {
	var out *Campaign
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := s.Resolve(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		c.Active = active
		c.UpdatedAt = s.env.Clock.Now().Ptr()
		out = c
		if err := st.UpdateCampaign(ctx, c); err != nil {
			return err
		}
		return s.EmitCampaign(ctx, st, pick(active, EventCampaignEnabled, EventCampaignDisabled), c, nil)
	})
	if err != nil {
		return nil, err
	}
	return s.Present(ctx, s.store, out, true)
}

// Remove moves the campaign with id or name ref to the bin through st (its
// name is free at once) and returns it; the caller schedules the
// CAMPAIGN.VOUCHERS_DELETE action that removes its vouchers (and, with
// force, the campaign for good). A campaign still generating its vouchers
// is deleted too: the action waits for the generation (SerialKey).
func (s *Service) Remove(ctx context.Context, st Store, projectID, ref string) (*Campaign, error) {
	c, err := s.Resolve(ctx, st, projectID, ref)
	if err != nil {
		return nil, err
	}
	if c.Protected {
		return nil, promotype.Newf(400, "resource_protected", "Resource protected", "Resource campaign with id %s is protected and cannot be deleted", c.ID)
	}
	// The event shows the campaign as it was before the delete.
	pc, err := s.PresentFull(ctx, st, c.Clone())
	if err != nil {
		return nil, err
	}
	now := s.env.Clock.Now()
	if err := emit(ctx, st, s.env, projectID, EventCampaignDeleted, c.ID, map[string]any{"campaign": pc, "deleted_at": now}); err != nil {
		return nil, err
	}
	if len(referralTiers(c)) > 0 { // its referral tiers go with it
		gone := c.Clone()
		gone.ReferralProgram.ReferralTiers = nil
		if err := s.emitReferralTiers(ctx, st, c, gone); err != nil {
			return nil, err
		}
	}
	if err := st.BinCampaign(ctx, projectID, c.ID, now); err != nil {
		return nil, err
	}
	if err := s.rules.UnassignObject(ctx, st, projectID, rule.Related{Type: rule.RelatedCampaign, ID: c.ID, Object: pc}); err != nil {
		return nil, err
	}
	return c, nil
}

// Present fills what a campaign response carries besides the stored fields:
// the category name and, when withCategories, the categories list, and the
// validation rule assignments.
func (s *Service) Present(ctx context.Context, st Store, c *Campaign, withCategories bool) (*Campaign, error) {
	if err := s.fillAssignments(ctx, st, c.ProjectID, []*Campaign{c}); err != nil {
		return nil, err
	}
	return s.present(ctx, st, c, withCategories, map[string]*Category{})
}

// fillAssignments sets the validation_rules_assignments of campaigns of
// one project, with one query.
func (s *Service) fillAssignments(ctx context.Context, st Store, projectID string, cs []*Campaign) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	byObject, err := rule.AssignmentsByObject(ctx, st, projectID, rule.RelatedCampaign, ids)
	if err != nil {
		return err
	}
	for _, c := range cs {
		as := byObject[c.ID]
		c.ValidationRulesAssignments = promotype.NewList(as, len(as), promotype.Query{})
	}
	return nil
}

func (s *Service) present(ctx context.Context, st Store, c *Campaign, withCategories bool, cache map[string]*Category) (*Campaign, error) {
	c.Category, c.Categories = nil, nil
	if c.CategoryID != nil {
		cat, ok := cache[*c.CategoryID]
		if !ok {
			var err error
			cat, err = st.GetCategory(ctx, c.ProjectID, *c.CategoryID)
			if err != nil && !errors.Is(err, promotype.ErrNotFound) {
				return nil, err
			}
			cache[*c.CategoryID] = cat
		}
		if cat != nil {
			c.Category = &cat.Name
			if withCategories {
				c.Categories = []*Category{cat.Clone().normalize()}
			}
		}
	}
	return c.normalize(), nil
}

// ResolveCategory returns the category that id (a category id) or name
// names, or nil when both are nil. A name that no category holds creates a
// category of that name (hierarchy 0) through st.
func (s *Service) ResolveCategory(ctx context.Context, st CampaignStore, projectID string, id, name *string) (*Category, error) {
	switch {
	case id != nil && name != nil:
		return nil, promotype.InvalidPayload("Pass only one of the properties 'category' and 'category_id'")
	case id != nil:
		return st.GetCategory(ctx, projectID, *id)
	case name == nil:
		return nil, nil
	}
	cat, err := st.FindCategoryByName(ctx, projectID, *name)
	if !errors.Is(err, promotype.ErrNotFound) {
		return cat, err
	}
	if *name == "" {
		return nil, promotype.InvalidPayload("Property .category must NOT have fewer than 1 characters")
	}
	cat = &Category{ID: s.env.IDs.NewID(promotype.PrefixCategory), ProjectID: projectID, Name: *name, CreatedAt: s.env.Clock.Now()}
	if err := st.InsertCategory(ctx, cat); err != nil {
		if errors.Is(err, promotype.ErrDuplicateFound) { // created meanwhile
			return st.FindCategoryByName(ctx, projectID, *name)
		}
		return nil, err
	}
	return cat, nil
}

// CreateCategory creates a category; its name is unique in the project.
func (s *Service) CreateCategory(ctx context.Context, projectID string, in CategoryParams) (*Category, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if in.Name == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	c := &Category{ID: s.env.IDs.NewID(promotype.PrefixCategory), ProjectID: projectID, Name: *in.Name, CreatedAt: s.env.Clock.Now()}
	if in.Hierarchy != nil {
		c.Hierarchy = *in.Hierarchy
	}
	if err := s.store.InsertCategory(ctx, c); err != nil {
		return nil, err
	}
	return c.Clone().normalize(), nil
}

// GetCategory returns a category by id or name.
func (s *Service) GetCategory(ctx context.Context, projectID, ref string) (*Category, error) {
	c, err := promotype.Resolve(ctx, "category", ref, projectID, s.store.GetCategory, s.store.FindCategoryByName)
	if err != nil {
		return nil, err
	}
	return c.normalize(), nil
}

// ListCategories lists the categories of a project.
func (s *Service) ListCategories(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*Category], error) {
	q, err := p.Query(CategoryListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items, total, err := s.store.ListCategories(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, c := range items {
		c.normalize()
	}
	return promotype.NewList(items, total, q), nil
}
