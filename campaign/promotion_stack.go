package campaign

import (
	"context"
	"errors"
	"slices"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// PrefixPromotionStack is the id prefix of promotion stacks.
const PrefixPromotionStack = "stack_"

// MaxStackTiers is the most tiers a stack holds.
const MaxStackTiers = 30

// HierarchyManual is the only hierarchy_mode: tiers apply in list order.
const HierarchyManual = "MANUAL"

// PromotionStack is an ordered set of tiers of one PROMOTION campaign that
// apply together, first id first (object "promotion_stack").
type PromotionStack struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Tiers      StackTiers      `json:"tiers"`
	CreatedAt  promotype.Time  `json:"created_at"`
	UpdatedAt  *promotype.Time `json:"updated_at"`
	CampaignID string          `json:"campaign_id"`
	CategoryID *string         `json:"category_id"`
	Categories []*Category     `json:"categories"`
	Object     string          `json:"object"`

	ProjectID string `json:"-"`
}

// StackTiers are a stack's tier ids in application order.
type StackTiers struct {
	IDs           []string `json:"ids"`
	HierarchyMode string   `json:"hierarchy_mode"`
}

// StackStore is the storage port of promotion stacks, scoped by project.
type StackStore interface {
	InsertPromotionStack(ctx context.Context, s *PromotionStack) error
	UpdatePromotionStack(ctx context.Context, s *PromotionStack) error
	GetPromotionStack(ctx context.Context, projectID, id string) (*PromotionStack, error)
	ListPromotionStacks(ctx context.Context, projectID string, q promotype.Query) ([]*PromotionStack, int, error)
	DeletePromotionStack(ctx context.Context, projectID, id string) error
}

// StackListSpec is what the stack lists accept.
var StackListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at", "name"},
	DefaultOrder: "created_at",
	Fields: map[string]promotype.FieldKind{
		"campaign_id": promotype.FieldString,
		"name":        promotype.FieldString,
		"created_at":  promotype.FieldTime,
		"updated_at":  promotype.FieldTime,
	},
}

// Field returns the value of a filterable field of s.
func (s *PromotionStack) Field(name string) promotype.Value {
	switch name {
	case "campaign_id":
		return promotype.Value{Str: s.CampaignID}
	case "name":
		return promotype.Value{Str: s.Name}
	case "created_at":
		return promotype.Value{Time: s.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(s.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

// Clone returns a deep copy of the stored fields.
func (s *PromotionStack) Clone() *PromotionStack {
	out := *s
	out.Tiers.IDs = append([]string(nil), s.Tiers.IDs...)
	out.UpdatedAt = promotype.ClonePtr(s.UpdatedAt)
	out.CategoryID = promotype.ClonePtr(s.CategoryID)
	out.Categories, out.Object = nil, ""
	return &out
}

// StackParams is the body of a stack create or update.
type StackParams struct {
	Name       *string           `json:"name" validate:"omitempty,min=1,max=300"`
	Tiers      *StackTiersParams `json:"tiers"`
	CategoryID *string           `json:"category_id"`
}

// StackTiersParams are the tiers of a stack create or update.
type StackTiersParams struct {
	IDs           []string `json:"ids"`
	HierarchyMode *string  `json:"hierarchy_mode"`
}

// StackService is the promotion stack use cases.
type StackService struct {
	store     Store
	tx        promotype.TxFunc[Store]
	env       promotype.Env
	campaigns *Service
}

// NewStackService returns a stack service.
func NewStackService(store Store, tx promotype.TxFunc[Store], env promotype.Env, campaigns *Service) *StackService {
	return &StackService{store: store, tx: tx, env: env, campaigns: campaigns}
}

// Create adds a stack to the PROMOTION campaign ref (id or name).
func (s *StackService) Create(ctx context.Context, projectID, campaignRef string, in StackParams) (*PromotionStack, error) {
	if in.Name == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	if in.Tiers == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'tiers'")
	}
	var out *PromotionStack
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := s.campaigns.Resolve(ctx, st, projectID, campaignRef)
		if err != nil {
			return err
		}
		if c.CampaignType != Promotion {
			return InvalidCampaign("Campaign %s is not a PROMOTION campaign: it cannot hold promotion stacks", c.ID)
		}
		ps := &PromotionStack{ID: s.env.IDs.NewID(PrefixPromotionStack), ProjectID: projectID, CampaignID: c.ID, CreatedAt: s.env.Clock.Now()}
		if err := s.apply(ctx, st, ps, in); err != nil {
			return err
		}
		out = ps
		if err := st.InsertPromotionStack(ctx, ps); err != nil {
			return err
		}
		return s.emit(ctx, st, EventStackCreated, c, ps)
	})
	if err != nil {
		return nil, err
	}
	return s.present(ctx, s.store, out)
}

// emit appends an event about stack ps of campaign c through st: data
// {campaign, promotion_stack}, both as the API shows them.
func (s *StackService) emit(ctx context.Context, st Store, typ string, c *Campaign, ps *PromotionStack) error {
	pc, err := s.campaigns.PresentFull(ctx, st, c)
	if err != nil {
		return err
	}
	p := *ps
	pp, err := s.present(ctx, st, &p)
	if err != nil {
		return err
	}
	return emit(ctx, st, s.env, ps.ProjectID, typ, ps.ID, map[string]any{"campaign": pc, "promotion_stack": pp})
}

func (s *StackService) apply(ctx context.Context, st Store, ps *PromotionStack, in StackParams) error {
	if err := validate.Struct(in); err != nil {
		return err
	}
	if t := in.Tiers; t != nil {
		switch {
		case len(t.IDs) == 0:
			return promotype.InvalidPayload("Property .tiers.ids must NOT have fewer than 1 items")
		case len(t.IDs) > MaxStackTiers:
			return promotype.InvalidPayload("Property .tiers.ids must NOT have more than %d items", MaxStackTiers)
		case t.HierarchyMode != nil && *t.HierarchyMode != HierarchyManual:
			return promotype.InvalidPayload("Property .tiers.hierarchy_mode must be equal to one of the allowed values: MANUAL")
		}
		seen := map[string]bool{}
		for _, id := range t.IDs {
			if seen[id] {
				return promotype.InvalidPayload("Property .tiers.ids must NOT have duplicate items (%s)", id)
			}
			seen[id] = true
			tier, err := st.GetPromotionTier(ctx, ps.ProjectID, id)
			if err != nil {
				return err
			}
			if tier.CampaignID != ps.CampaignID {
				return promotype.NotFound("promotion_tier", id) // not a tier of this campaign
			}
		}
		ps.Tiers = StackTiers{IDs: append([]string(nil), t.IDs...), HierarchyMode: HierarchyManual}
	}
	if in.Name != nil {
		ps.Name = *in.Name
	}
	if in.CategoryID != nil {
		cat, err := st.GetCategory(ctx, ps.ProjectID, *in.CategoryID)
		if err != nil {
			return err
		}
		ps.CategoryID = &cat.ID
	}
	return nil
}

// Get returns stack id of campaign ref.
func (s *StackService) Get(ctx context.Context, projectID, campaignRef, id string) (*PromotionStack, error) {
	ps, _, err := s.load(ctx, s.store, projectID, campaignRef, id)
	if err != nil {
		return nil, err
	}
	return s.present(ctx, s.store, ps)
}

// Find returns a stack by id alone.
func (s *StackService) Find(ctx context.Context, projectID, id string) (*PromotionStack, error) {
	ps, err := s.store.GetPromotionStack(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return s.present(ctx, s.store, ps)
}

// load returns stack id of campaign campaignRef, and the campaign.
func (s *StackService) load(ctx context.Context, st Store, projectID, campaignRef, id string) (*PromotionStack, *Campaign, error) {
	c, err := s.campaigns.Resolve(ctx, st, projectID, campaignRef)
	if err != nil {
		return nil, nil, err
	}
	ps, err := st.GetPromotionStack(ctx, projectID, id)
	if err != nil {
		return nil, nil, err
	}
	if ps.CampaignID != c.ID {
		return nil, nil, promotype.NotFound("promotion_stack", id)
	}
	return ps, c, nil
}

// List lists the stacks of campaign ref, or of the project when ref is "".
func (s *StackService) List(ctx context.Context, projectID, campaignRef string, p promotype.ListParams) (*promotype.List[*PromotionStack], error) {
	q, err := p.Query(StackListSpec, s.env.Clock.Now())
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
	items, total, err := s.store.ListPromotionStacks(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for i, ps := range items {
		if items[i], err = s.present(ctx, s.store, ps); err != nil {
			return nil, err
		}
	}
	return promotype.NewList(items, total, q), nil
}

// Update changes the fields given.
func (s *StackService) Update(ctx context.Context, projectID, campaignRef, id string, in StackParams) (*PromotionStack, error) {
	var out *PromotionStack
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		ps, c, err := s.load(ctx, st, projectID, campaignRef, id)
		if err != nil {
			return err
		}
		if err := s.apply(ctx, st, ps, in); err != nil {
			return err
		}
		ps.UpdatedAt = s.env.Clock.Now().Ptr()
		out = ps
		if err := st.UpdatePromotionStack(ctx, ps); err != nil {
			return err
		}
		return s.emit(ctx, st, EventStackUpdated, c, ps)
	})
	if err != nil {
		return nil, err
	}
	return s.present(ctx, s.store, out)
}

// Delete removes a stack.
func (s *StackService) Delete(ctx context.Context, projectID, campaignRef, id string) error {
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		if _, _, err := s.load(ctx, st, projectID, campaignRef, id); err != nil {
			return err
		}
		return st.DeletePromotionStack(ctx, projectID, id)
	})
}

// DeleteOfCampaign removes every stack of campaign campaignID through st
// (the campaign delete's transaction).
func (s *StackService) DeleteOfCampaign(ctx context.Context, st StackStore, projectID, campaignID string) error {
	items, err := stacksOf(ctx, st, projectID, campaignID)
	if err != nil {
		return err
	}
	for _, ps := range items {
		if err := st.DeletePromotionStack(ctx, projectID, ps.ID); err != nil {
			return err
		}
	}
	return nil
}

// stacksOf returns every stack of campaign campaignID.
func stacksOf(ctx context.Context, st StackStore, projectID, campaignID string) ([]*PromotionStack, error) {
	q := promotype.Query{Limit: 1 << 20, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "campaign_id", Op: promotype.OpIs, Values: []string{campaignID}}}}
	items, _, err := st.ListPromotionStacks(ctx, projectID, q)
	return items, err
}

// dropFromStacks removes tier t's id from the stacks of its campaign
// through st (the tier delete's transaction): a stack left without tiers is
// deleted, the others are updated. The tier's deleted event tells of it.
func dropFromStacks(ctx context.Context, st StackStore, t *PromotionTier, now promotype.Time) error {
	items, err := stacksOf(ctx, st, t.ProjectID, t.CampaignID)
	if err != nil {
		return err
	}
	for _, ps := range items {
		ids := slices.DeleteFunc(slices.Clone(ps.Tiers.IDs), func(id string) bool { return id == t.ID })
		switch {
		case len(ids) == len(ps.Tiers.IDs):
			continue
		case len(ids) == 0:
			err = st.DeletePromotionStack(ctx, ps.ProjectID, ps.ID)
		default:
			ps.Tiers.IDs, ps.UpdatedAt = ids, now.Ptr()
			err = st.UpdatePromotionStack(ctx, ps)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// present fills the derived fields of stack ps (read through st) and
// returns it.
func (s *StackService) present(ctx context.Context, st CampaignStore, ps *PromotionStack) (*PromotionStack, error) {
	ps.Object = "promotion_stack"
	ps.Categories = []*Category{}
	if ps.CategoryID != nil {
		cat, err := st.GetCategory(ctx, ps.ProjectID, *ps.CategoryID)
		if err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return nil, err
		}
		if cat != nil {
			ps.Categories = []*Category{cat.Clone().normalize()}
		}
	}
	return ps, nil
}
