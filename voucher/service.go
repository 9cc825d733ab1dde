package voucher

import (
	"context"
	"errors"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// ServiceStore is the port the voucher service consumes: vouchers and the
// campaigns and categories they belong to.
type ServiceStore interface {
	Store
	campaign.Store
}

// Service is the voucher use cases.
type Service struct {
	store     ServiceStore
	tx        promotype.TxFunc[ServiceStore]
	env       promotype.Env
	campaigns *campaign.Service
	rules     *rule.Service
	jobs      *jobs // EnableJobs
}

// NewService returns a voucher service; campaigns resolves campaigns and
// categories, rules assigns the validation_rules a voucher is created with.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env, campaigns *campaign.Service, rules *rule.Service) *Service {
	return &Service{store: store, tx: tx, env: env, campaigns: campaigns, rules: rules}
}

// maxCodeTries bounds the attempts at a free random code for one voucher.
const maxCodeTries = 20

// Create creates a voucher (POST /v1/vouchers; POST /v1/vouchers/{code}
// sets in.Code). The voucher joins the vouchers_count of its campaign, if
// any.
func (s *Service) Create(ctx context.Context, projectID string, in Params) (*Voucher, error) {
	if err := campaign.LocalizeValidity(ctx, s.env, projectID, &in.ValidityParams); err != nil {
		return nil, err
	}
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if err := s.CheckMetadata(ctx, projectID, in.Metadata); err != nil {
		return nil, err
	}
	if err := in.Common.check(); err != nil {
		return nil, err
	}
	code := in.Code
	if code != nil {
		if err := CheckCode(".code", *code); err != nil {
			return nil, err
		}
	}
	var gen *Generator
	if code == nil {
		cfg := campaign.CodeConfig{}
		if in.CodeConfig != nil {
			cfg = *in.CodeConfig
		}
		var err error
		if gen, err = NewGenerator(cfg); err != nil {
			return nil, err
		}
	}
	if in.Type == nil {
		in.Type = inferType(in.Discount, in.Gift, in.LoyaltyCard)
	}
	if in.Type == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'type'")
	}
	if in.Campaign != nil && in.CampaignID != nil {
		return nil, promotype.InvalidPayload("Pass only one of the properties 'campaign' and 'campaign_id'")
	}
	v := &Voucher{
		ProjectID: projectID,
		Type:      *in.Type,
		Active:    true,
		Metadata:  promotype.Metadata{},
		CreatedAt: s.env.Clock.Now(),
	}
	if err := typed(v, in.Discount, in.Gift, in.LoyaltyCard, true); err != nil {
		return nil, err
	}
	if err := in.Common.apply(v); err != nil {
		return nil, err
	}
	var out *Voucher
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		var c *campaign.Campaign
		switch {
		case in.CampaignID != nil:
			var err error
			if c, err = s.campaigns.Resolve(ctx, st, projectID, *in.CampaignID); err != nil {
				return err
			}
		case in.Campaign != nil:
			var err error
			if c, err = s.campaigns.Resolve(ctx, st, projectID, *in.Campaign); err != nil {
				return err
			}
		}
		if c != nil {
			if c.Type != campaign.Standalone && c.CampaignType != campaign.LoyaltyProgram {
				return campaign.InvalidCampaign("Campaign %s is not a STANDALONE campaign: add its vouchers with POST /v1/campaigns/%s/vouchers", c.Name, c.ID)
			}
			if c.Voucher == nil || c.Voucher.Type != v.Type {
				return campaign.InvalidCampaign("A %s cannot join campaign %s, whose vouchers are %s", v.Type, c.Name, c.CampaignType.VoucherType())
			}
			v.CampaignID = &c.ID
			v.IsReferralCode = c.Voucher.IsReferralCode
		} else if v.Type == campaign.LoyaltyCard {
			return promotype.InvalidPayload("Payload must have required property 'campaign_id' for a LOYALTY_CARD (the loyalty campaign it belongs to)")
		}
		if err := s.setCategory(ctx, st, projectID, v, in.Category, in.CategoryID); err != nil {
			return err
		}
		if err := s.insert(ctx, st, v, code, gen); err != nil {
			return err
		}
		if len(in.ValidationRules) > 0 {
			to, err := s.related(ctx, st, v)
			if err != nil {
				return err
			}
			for _, id := range in.ValidationRules {
				if _, err := s.rules.AssignIn(ctx, st, projectID, id, to, false); err != nil {
					return err
				}
			}
		}
		var err error
		out, err = s.created(ctx, st, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreateInCampaign creates one voucher in the campaign with id or name ref
// (POST /v1/campaigns/{id}/vouchers[/{code}]): it takes the campaign's
// settings, overridden by in, and code or a code of the campaign's code
// config (or in.CodeConfig).
func (s *Service) CreateInCampaign(ctx context.Context, projectID, ref string, in CampaignParams, code *string) (*Voucher, error) {
	if err := campaign.LocalizeValidity(ctx, s.env, projectID, &in.ValidityParams); err != nil {
		return nil, err
	}
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if err := in.Common.check(); err != nil {
		return nil, err
	}
	if err := s.CheckMetadata(ctx, projectID, in.Metadata); err != nil {
		return nil, err
	}
	if code != nil {
		if err := CheckCode(".code", *code); err != nil {
			return nil, err
		}
	}
	var out *Voucher
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		c, err := s.campaigns.Resolve(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		v, gen, err := s.PrepareForCampaign(ctx, st, c, in)
		if err != nil {
			return err
		}
		if code != nil {
			gen = nil
		}
		if err := s.insert(ctx, st, v, code, gen); err != nil {
			return err
		}
		out, err = s.created(ctx, st, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AddGenerated adds one voucher with a generated code to campaign c, in
// st's transaction, as an AUTO_UPDATE campaign does when a publication
// finds no free voucher left; the voucher's created event is appended.
func (s *Service) AddGenerated(ctx context.Context, st ServiceStore, c *campaign.Campaign) (*Voucher, error) {
	v, gen, err := s.GenerationFor(ctx, st, c, CampaignParams{})
	if err != nil {
		return nil, err
	}
	if err := s.insert(ctx, st, v, nil, gen); err != nil {
		return nil, err
	}
	if _, err := s.created(ctx, st, v.Clone()); err != nil {
		return nil, err
	}
	return v, nil
}

// PrepareForCampaign checks that campaign c takes new vouchers and returns
// the template of a voucher added to it with in, and the generator of its
// codes (checked against in.VouchersCount).
func (s *Service) PrepareForCampaign(ctx context.Context, st ServiceStore, c *campaign.Campaign, in CampaignParams) (*Voucher, *Generator, error) {
	if err := in.Common.check(); err != nil {
		return nil, nil, err
	}
	switch {
	case !c.CampaignType.HasVouchers():
		return nil, nil, campaign.InvalidCampaign("A PROMOTION campaign holds promotion tiers, not vouchers")
	case c.Type == campaign.Standalone:
		return nil, nil, campaign.InvalidCampaign("You can not generate vouchers for STANDALONE type campaign.")
	}
	return s.GenerationFor(ctx, st, c, in)
}

// GenerationFor returns the template and code generator of the vouchers
// added to campaign c with in (no check of the campaign's state: a
// generation under way uses it).
func (s *Service) GenerationFor(ctx context.Context, st ServiceStore, c *campaign.Campaign, in CampaignParams) (*Voucher, *Generator, error) {
	if c.Voucher == nil {
		return nil, nil, campaign.InvalidCampaign("A PROMOTION campaign holds promotion tiers, not vouchers")
	}
	v := Template(c, s.env.Clock.Now())
	if err := in.Common.apply(v); err != nil {
		return nil, nil, err
	}
	if err := s.setCategory(ctx, st, c.ProjectID, v, in.Category, in.CategoryID); err != nil {
		return nil, nil, err
	}
	cfg := c.Voucher.CodeConfig
	if in.CodeConfig != nil {
		cfg = *in.CodeConfig
	}
	gen, err := NewGenerator(cfg)
	if err != nil {
		return nil, nil, err
	}
	if in.VouchersCount != nil {
		if err := gen.CheckCapacity(*in.VouchersCount); err != nil {
			return nil, nil, err
		}
	}
	return v, gen, nil
}

// setCategory resolves a category given by id or name onto v.
func (s *Service) setCategory(ctx context.Context, st ServiceStore, projectID string, v *Voucher, name, id *string) error {
	if name == nil && id == nil {
		return nil
	}
	cat, err := s.campaigns.ResolveCategory(ctx, st, projectID, id, name)
	if err != nil {
		return err
	}
	v.CategoryID = &cat.ID
	return nil
}

// insert stores v with code, or with a free random code of gen, and counts
// it in its campaign.
func (s *Service) insert(ctx context.Context, st ServiceStore, v *Voucher, code *string, gen *Generator) error {
	v.ID = s.env.IDs.NewID(promotype.PrefixVoucher)
	if code != nil {
		v.Code = *code
		if err := st.InsertVoucher(ctx, v); err != nil {
			if errors.Is(err, promotype.ErrDuplicateFound) {
				return promotype.Duplicate("voucher", "Duplicated voucher exists with id %s", *code)
			}
			return err
		}
	} else {
		for try := 0; ; try++ {
			v.Code = gen.Code()
			rejected, err := st.InsertVouchers(ctx, []*Voucher{v})
			if err != nil {
				return err
			}
			if len(rejected) == 0 {
				break
			}
			if try == maxCodeTries {
				return campaign.InvalidCodeConfig("No free code found after %d tries: the code config's code space is used up", maxCodeTries)
			}
		}
	}
	if v.CampaignID != nil {
		return st.AddCampaignVouchers(ctx, v.ProjectID, *v.CampaignID, 1)
	}
	return nil
}

// Resolve returns the live voucher with id or code ref, as stored.
func (s *Service) Resolve(ctx context.Context, st Store, projectID, ref string) (*Voucher, error) {
	return promotype.Resolve(ctx, "voucher", ref, projectID, st.GetVoucher, st.FindVoucherByCode)
}

// resolveLocked is Resolve in st's transaction, with the voucher locked
// (LockVoucher) and read again after the lock, for a read-modify-write.
func (s *Service) resolveLocked(ctx context.Context, st Store, projectID, ref string) (*Voucher, error) {
	v, err := s.Resolve(ctx, st, projectID, ref)
	if err != nil {
		return nil, err
	}
	return st.GetVoucherForUpdate(ctx, projectID, v.ID)
}

// Get returns a voucher by id or code.
func (s *Service) Get(ctx context.Context, projectID, ref string) (*Voucher, error) {
	v, err := s.Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.Present(ctx, s.store, v)
}

// Update changes the fields given of the voucher with id or code ref.
func (s *Service) Update(ctx context.Context, projectID, ref string, in UpdateParams) (*Voucher, error) {
	if err := campaign.LocalizeValidity(ctx, s.env, projectID, &in.ValidityParams); err != nil {
		return nil, err
	}
	if err := in.Common.check(); err != nil {
		return nil, err
	}
	if err := in.ValidityParams.CheckClear(in.Clear); err != nil {
		return nil, err
	}
	if err := s.CheckMetadata(ctx, projectID, in.Metadata); err != nil {
		return nil, err
	}
	var out *Voucher
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		v, err := s.resolveLocked(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		if in.Type != nil && *in.Type != v.Type {
			return promotype.InvalidPayload("Property .type cannot change (the voucher is a %s)", v.Type)
		}
		if err := typed(v, in.Discount, in.Gift, in.LoyaltyCard, false); err != nil {
			return err
		}
		for _, k := range in.Clear {
			v.Validity.Clear(k)
		}
		if err := in.Common.apply(v); err != nil {
			return err
		}
		if err := s.setCategory(ctx, st, projectID, v, in.Category, in.CategoryID); err != nil {
			return err
		}
		v.UpdatedAt = s.env.Clock.Now().Ptr()
		if err := st.UpdateVoucher(ctx, v); err != nil {
			return err
		}
		out, err = s.emit(ctx, st, EventUpdated, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetActive enables or disables the voucher with id or code ref.
func (s *Service) SetActive(ctx context.Context, projectID, ref string, active bool) (*Voucher, error) {
	var out *Voucher
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		v, err := s.resolveLocked(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		v.Active = active
		v.UpdatedAt = s.env.Clock.Now().Ptr()
		if err := st.UpdateVoucher(ctx, v); err != nil {
			return err
		}
		typ := EventDisabled
		if active {
			typ = EventEnabled
		}
		out, err = s.emit(ctx, st, typ, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Delete moves the voucher with id or code ref to the bin (its code is
// free again), or with force removes it for good; its campaign counts one
// voucher less.
func (s *Service) Delete(ctx context.Context, projectID, ref string, force bool) error {
	return s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		v, err := s.Resolve(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		// The event shows the voucher as it was before the delete.
		if v, err = s.emit(ctx, st, EventDeleted, v); err != nil {
			return err
		}
		if force {
			err = st.DeleteVoucher(ctx, projectID, v.ID)
		} else {
			err = st.BinVoucher(ctx, projectID, v.ID, s.env.Clock.Now())
		}
		if err != nil {
			return err
		}
		if err := s.rules.UnassignObject(ctx, st, projectID, rule.Related{Type: rule.RelatedVoucher, ID: v.ID, Object: v}); err != nil {
			return err
		}
		if v.CampaignID == nil {
			return nil
		}
		err = st.AddCampaignVouchers(ctx, projectID, *v.CampaignID, -1)
		if errors.Is(err, promotype.ErrNotFound) {
			return nil // the campaign is gone already
		}
		return err
	})
}

// ListParams are the parameters of a voucher list: the common ones and the
// query parameters of GET /v1/vouchers. Filters on the field active also
// take the conditions $enabled, $disabled, $expired and $active (value
// true).
type ListParams struct {
	promotype.ListParams
	CampaignID    *string
	Campaign      *string // a campaign name (or id)
	Category      *string // a category id or name
	Customer      *string // the holder's customer id
	Code          *string
	IDs           []string
	CreatedBefore *promotype.Time
	CreatedAfter  *promotype.Time
	UpdatedBefore *promotype.Time
	UpdatedAfter  *promotype.Time
}

// Status conditions of the active field in list filters
// (filters[active][conditions][$enabled]).
const (
	OpEnabled  promotype.Op = "$enabled"
	OpDisabled promotype.Op = "$disabled"
	OpExpired  promotype.Op = "$expired"
	OpActive   promotype.Op = "$active"
)

// Hidden fields stores answer for the status conditions: start_date with
// null as the earliest instant, expiration_date with null as the latest.
const (
	FieldStartOrMin      = "start_date_or_min"
	FieldExpirationOrMax = "expiration_date_or_max"
)

// List lists the live vouchers of a project. A filter on campaign_ids
// (the hosted service's name) filters on campaign_id.
func (s *Service) List(ctx context.Context, projectID string, p ListParams) (*promotype.List[*Voucher], error) {
	now := s.env.Clock.Now()
	lp := p.ListParams
	var must []promotype.Condition
	is := func(field, v string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
	}
	// The status conditions of active become plain conditions.
	conds := make([]promotype.Condition, 0, len(lp.Filter.Conditions))
	for _, c := range lp.Filter.Conditions {
		if c.Field == "campaign_ids" {
			// The hosted service's name of the campaign filter.
			c.Field = "campaign_id"
		}
		if c.Field != "active" || (c.Op != OpEnabled && c.Op != OpDisabled && c.Op != OpExpired && c.Op != OpActive) {
			conds = append(conds, c)
			continue
		}
		if len(c.Values) != 1 || (c.Values[0] != "true" && c.Values[0] != "false") {
			return nil, promotype.InvalidQueryParams("Property .filters.active.conditions.%s must be true or false", c.Op)
		}
		yes := c.Values[0] == "true"
		switch c.Op {
		case OpEnabled, OpDisabled:
			conds = append(conds, is("active", boolString(yes == (c.Op == OpEnabled))))
		case OpExpired:
			if !yes {
				return nil, promotype.InvalidQueryParams("Property .filters.active.conditions.$expired takes only true")
			}
			conds = append(conds, promotype.Condition{Field: "expiration_date", Op: promotype.OpBefore, At: now})
		case OpActive:
			if !yes {
				return nil, promotype.InvalidQueryParams("Property .filters.active.conditions.$active takes only true")
			}
			if lp.Filter.Junction == promotype.JunctionOr && len(lp.Filter.Conditions) > 1 {
				return nil, promotype.InvalidQueryParams("Property .filters.active.conditions.$active cannot be joined with or")
			}
			must = append(must, is("active", "true"),
				promotype.Condition{Field: FieldStartOrMin, Op: promotype.OpBefore, At: promotype.NewTime(now.Add(time.Millisecond))},
				promotype.Condition{Field: FieldExpirationOrMax, Op: promotype.OpAfter, At: promotype.NewTime(now.Add(-time.Millisecond))})
		}
	}
	lp.Filter.Conditions = conds
	q, err := lp.Query(ListSpec, now)
	if err != nil {
		return nil, err
	}
	q.Must = append(q.Must, must...)
	if p.CampaignID != nil {
		q.Must = append(q.Must, is("campaign_id", *p.CampaignID))
	}
	if p.Campaign != nil {
		c, err := s.campaigns.Resolve(ctx, s.store, projectID, *p.Campaign)
		if errors.Is(err, promotype.ErrNotFound) {
			return promotype.NewList[*Voucher](nil, 0, q), nil
		}
		if err != nil {
			return nil, err
		}
		q.Must = append(q.Must, is("campaign_id", c.ID))
	}
	if p.Category != nil {
		cat, err := promotype.Resolve(ctx, "category", *p.Category, projectID, s.store.GetCategory, s.store.FindCategoryByName)
		if errors.Is(err, promotype.ErrNotFound) {
			return promotype.NewList[*Voucher](nil, 0, q), nil
		}
		if err != nil {
			return nil, err
		}
		q.Must = append(q.Must, is("category_id", cat.ID))
	}
	if p.Customer != nil {
		q.Must = append(q.Must, is("holder_id", *p.Customer))
	}
	if p.Code != nil {
		q.Must = append(q.Must, is("code", *p.Code))
	}
	if len(p.IDs) > 0 {
		q.Must = append(q.Must, promotype.Condition{Field: "id", Op: promotype.OpIn, Values: p.IDs})
	}
	q.Must = append(q.Must, promotype.Within("created_at", p.CreatedBefore, p.CreatedAfter)...)
	q.Must = append(q.Must, promotype.Within("updated_at", p.UpdatedBefore, p.UpdatedAfter)...)
	items, total, err := s.store.ListVouchers(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	if err := s.fillAssignments(ctx, s.store, projectID, items); err != nil {
		return nil, err
	}
	p2 := presenter{s: s, st: s.store, campaigns: map[string]*string{}, categories: map[string]*campaign.Category{}}
	for _, v := range items {
		if err := p2.present(ctx, v); err != nil {
			return nil, err
		}
	}
	return promotype.NewList(items, total, q), nil
}

// Present fills what a voucher response carries besides the stored fields:
// the campaign and category names, categories, assets and summaries.
func (s *Service) Present(ctx context.Context, st ServiceStore, v *Voucher) (*Voucher, error) {
	if err := s.fillAssignments(ctx, st, v.ProjectID, []*Voucher{v}); err != nil {
		return nil, err
	}
	return s.present(ctx, st, v)
}

// PresentAssigned is Present for a caller that has read v's validation
// rule assignments already (as, oldest first): one read less.
func (s *Service) PresentAssigned(ctx context.Context, st ServiceStore, v *Voucher, as []*rule.Assignment) (*Voucher, error) {
	v.ValidationRulesAssignments = promotype.NewList(as, len(as), promotype.Query{})
	return s.present(ctx, st, v)
}

func (s *Service) present(ctx context.Context, st ServiceStore, v *Voucher) (*Voucher, error) {
	p := presenter{s: s, st: st, campaigns: map[string]*string{}, categories: map[string]*campaign.Category{}}
	if err := p.present(ctx, v); err != nil {
		return nil, err
	}
	return v, nil
}

// presenter caches the campaign names and categories of one response.
type presenter struct {
	s          *Service
	st         ServiceStore
	campaigns  map[string]*string
	categories map[string]*campaign.Category
}

func (p *presenter) present(ctx context.Context, v *Voucher) error {
	v.Campaign, v.Category, v.Categories = nil, nil, nil
	if v.CampaignID != nil {
		name, ok := p.campaigns[*v.CampaignID]
		if !ok {
			c, err := p.st.GetCampaign(ctx, v.ProjectID, *v.CampaignID)
			switch {
			case err == nil:
				name = &c.Name
			case !errors.Is(err, promotype.ErrNotFound):
				return err
			}
			p.campaigns[*v.CampaignID] = name
		}
		v.Campaign = name
	}
	if v.CategoryID != nil {
		cat, ok := p.categories[*v.CategoryID]
		if !ok {
			var err error
			cat, err = p.st.GetCategory(ctx, v.ProjectID, *v.CategoryID)
			if err != nil && !errors.Is(err, promotype.ErrNotFound) {
				return err
			}
			p.categories[*v.CategoryID] = cat
		}
		if cat != nil {
			v.Category = &cat.Name
			c := cat.Clone()
			c.Object = "category"
			v.Categories = []*campaign.Category{c}
		}
	}
	v.normalize()
	return nil
}

// fillAssignments sets the validation_rules_assignments of vouchers of one
// project, with one query.
func (s *Service) fillAssignments(ctx context.Context, st ServiceStore, projectID string, vs []*Voucher) error {
	if len(vs) == 0 {
		return nil
	}
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = v.ID
	}
	byObject, err := rule.AssignmentsByObject(ctx, st, projectID, rule.RelatedVoucher, ids)
	if err != nil {
		return err
	}
	for _, v := range vs {
		as := byObject[v.ID]
		v.ValidationRulesAssignments = promotype.NewList(as, len(as), promotype.Query{})
	}
	return nil
}
