package campaign

import (
	"context"
	"slices"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

// APIStore is what the campaigns API works through: the campaign ports and
// the async actions it enqueues.
type APIStore interface {
	Store
	async.Store
}

// API is the campaigns API. Creating a voucher campaign, updating and
// deleting start async actions (GenerateVouchers, UpdateVouchers,
// DeleteVouchers) that the async runner carries out with the workers of
// package voucher.
type API struct {
	store     APIStore
	tx        promotype.TxFunc[APIStore]
	env       promotype.Env
	campaigns *Service
	tiers     *TierService
	stacks    *StackService
	actions   *async.Service
	// checkCodes refuses a generation of count vouchers whose code space
	// is too small (voucher.TemplateFor: the generator is voucher's).
	checkCodes func(c *Campaign, count int64) error
	summary    SummaryFunc // counts the summaries (SetSummary)
}

// NewAPI returns the campaigns API over the campaign, tier and stack
// services; checkCodes checks the code config of a voucher campaign
// created with count vouchers.
func NewAPI(store APIStore, tx promotype.TxFunc[APIStore], env promotype.Env, campaigns *Service, tiers *TierService, stacks *StackService,
	actions *async.Service, checkCodes func(c *Campaign, count int64) error) *API {
	return &API{store: store, tx: tx, env: env, campaigns: campaigns, tiers: tiers, stacks: stacks, actions: actions, checkCodes: checkCodes}
}

// Create creates a campaign. A campaign with vouchers to generate
// (vouchers_count above 0) is returned IN_PROGRESS with vouchers_count 0,
// and a CAMPAIGN.VOUCHERS_GENERATE action generates them, then sets it DONE
// with the real count (FAILED if the generation fails). A PROMOTION
// campaign, or one with nothing to generate, is DONE at once. A code config whose code space cannot hold vouchers_count codes
// with a safe margin is refused with 400 invalid_code_config, and nothing
// is stored.
func (s *API) Create(ctx context.Context, projectID string, in Params) (*Campaign, error) {
	vp := ValidityParams{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate}
	if err := LocalizeValidity(ctx, s.env, projectID, &vp); err != nil {
		return nil, err
	}
	in.StartDate, in.ExpirationDate = vp.StartDate, vp.ExpirationDate
	if in.Promotion != nil {
		in.Promotion.Tiers = slices.Clone(in.Promotion.Tiers)
		for i := range in.Promotion.Tiers {
			if err := LocalizeValidity(ctx, s.env, projectID, &in.Promotion.Tiers[i].ValidityParams); err != nil {
				return nil, err
			}
		}
	}
	if err := s.campaigns.CheckCreate(ctx, projectID, in); err != nil {
		return nil, err
	}
	var out *Campaign
	var actionID string
	err := s.tx(ctx, func(ctx context.Context, tx APIStore) error {
		actionID = "" // a retried transaction starts again
		c, count, err := s.campaigns.Create(ctx, tx, projectID, in)
		if err != nil {
			return err
		}
		out = c
		var tiers []*PromotionTier
		if !c.CampaignType.HasVouchers() {
			if in.Promotion != nil && len(in.Promotion.Tiers) > 0 {
				if tiers, err = s.tiers.CreateIn(ctx, tx, c, in.Promotion.Tiers); err != nil {
					return err
				}
			}
		} else {
			if err := s.checkCodes(c, count); err != nil {
				return err
			}
			// A campaign with nothing to generate is DONE at once, without
			// an action (docs/behaviour.md, "Campaigns and categories").
			if c.CreationStatus != StatusDone {
				rev := c.Revision
				a, err := s.actions.Enqueue(ctx, tx, projectID, GenerateVouchers{CampaignID: c.ID, Count: count, Revision: &rev})
				if err != nil {
					return err
				}
				actionID = a.ID
			}
		}
		// campaign.created, then campaign.promotion_tier.created for each tier.
		if err := s.campaigns.EmitCampaign(ctx, tx, EventCampaignCreated, c, map[string]any{"created_at": c.CreatedAt}); err != nil {
			return err
		}
		if err := s.campaigns.emitReferralTiers(ctx, tx, nil, c); err != nil {
			return err
		}
		return s.tiers.EmitTiers(ctx, tx, EventTierCreated, tiers)
	})
	return s.presentWritten(ctx, projectID, out, actionID, err)
}

// presentWritten answers a create or update that committed (err nil): the
// runner is woken for the action it enqueued (actionID, if any), the
// change hook is told, and the campaign is returned as the API shows it,
// with AsyncActionID set.
func (s *API) presentWritten(ctx context.Context, projectID string, c *Campaign, actionID string, err error) (*Campaign, error) {
	if err != nil {
		return nil, err
	}
	s.actions.Wake()
	s.env.Change(projectID)
	c, err = s.campaigns.Present(ctx, s.store, c, true)
	if err != nil {
		return nil, err
	}
	c.AsyncActionID = actionID
	return FillTiers(ctx, s.store, c)
}

// Get returns a campaign by id or name.
func (s *API) Get(ctx context.Context, projectID, ref string) (*Campaign, error) {
	c, err := s.campaigns.Get(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	return FillTiers(ctx, s.store, c)
}

// List lists campaigns.
func (s *API) List(ctx context.Context, projectID string, p ListParams) (*promotype.List[*Campaign], error) {
	return s.campaigns.List(ctx, projectID, p)
}

// Update changes the campaign with id or name ref. It is returned
// MODIFYING; a CAMPAIGN.VOUCHERS_UPDATE action then copies the campaign's
// voucher settings (category, validity, discount or gift) to its vouchers
// not yet published nor redeemed, and sets the campaign DONE when it ends,
// unless another update came meanwhile (its own action does). A campaign
// still generating its vouchers is changed too: the action waits for the
// generation (SerialKey), then reaches the vouchers it made.
func (s *API) Update(ctx context.Context, projectID, ref string, in UpdateParams) (*Campaign, error) {
	vp := ValidityParams{StartDate: in.StartDate, ExpirationDate: in.ExpirationDate}
	if err := LocalizeValidity(ctx, s.env, projectID, &vp); err != nil {
		return nil, err
	}
	in.StartDate, in.ExpirationDate = vp.StartDate, vp.ExpirationDate
	if err := s.campaigns.CheckUpdate(ctx, projectID, ref, in); err != nil {
		return nil, err
	}
	var out *Campaign
	var actionID string
	err := s.tx(ctx, func(ctx context.Context, tx APIStore) error {
		c, err := s.campaigns.Update(ctx, tx, projectID, ref, in)
		if err != nil {
			return err
		}
		out = c
		a, err := s.actions.Enqueue(ctx, tx, projectID, UpdateVouchers{CampaignID: c.ID, Revision: c.Revision, Count: c.VouchersCount})
		if err != nil {
			return err
		}
		actionID = a.ID
		return nil
	})
	return s.presentWritten(ctx, projectID, out, actionID, err)
}

// Delete deletes the campaign with id or name ref: it answers 404 at once
// and its name is free again; a CAMPAIGN.VOUCHERS_DELETE action moves its
// vouchers to the bin (with force: removes them and the campaign for good).
func (s *API) Delete(ctx context.Context, projectID, ref string, force bool) (*async.Ref, error) {
	var a *async.Action
	err := s.tx(ctx, func(ctx context.Context, tx APIStore) error {
		c, err := s.campaigns.Remove(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		if c.CampaignType == Promotion { // its tiers and stacks go with it, for good
			if err := s.tiers.DeleteOfCampaign(ctx, tx, projectID, c.ID); err != nil {
				return err
			}
			if err := s.stacks.DeleteOfCampaign(ctx, tx, projectID, c.ID); err != nil {
				return err
			}
		}
		a, err = s.actions.Enqueue(ctx, tx, projectID, DeleteVouchers{CampaignID: c.ID, Force: force, Count: c.VouchersCount})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.actions.Wake()
	s.env.Change(projectID)
	return &async.Ref{AsyncActionID: a.ID}, nil
}

// Enable sets the campaign with id or name ref active.
func (s *API) Enable(ctx context.Context, projectID, ref string) (*Campaign, error) {
	return s.setActive(ctx, projectID, ref, true)
}

// Disable sets the campaign with id or name ref inactive.
func (s *API) Disable(ctx context.Context, projectID, ref string) (*Campaign, error) {
	return s.setActive(ctx, projectID, ref, false)
}

func (s *API) setActive(ctx context.Context, projectID, ref string, active bool) (*Campaign, error) {
	defer s.env.Change(projectID)
	c, err := s.campaigns.SetActive(ctx, projectID, ref, active)
	if err != nil {
		return nil, err
	}
	return FillTiers(ctx, s.store, c)
}

// CreateCategory creates a category.
func (s *API) CreateCategory(ctx context.Context, projectID string, in CategoryParams) (*Category, error) {
	return s.campaigns.CreateCategory(ctx, projectID, in)
}

// GetCategory returns a category by id or name.
func (s *API) GetCategory(ctx context.Context, projectID, ref string) (*Category, error) {
	return s.campaigns.GetCategory(ctx, projectID, ref)
}

// ListCategories lists categories.
func (s *API) ListCategories(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*Category], error) {
	return s.campaigns.ListCategories(ctx, projectID, p)
}

// UpdateCategory changes a category's name or hierarchy.
func (s *API) UpdateCategory(ctx context.Context, projectID, ref string, in CategoryParams) (*Category, error) {
	return s.campaigns.UpdateCategory(ctx, projectID, ref, in)
}

// DeleteCategory deletes a category no campaign, voucher, tier or stack names.
func (s *API) DeleteCategory(ctx context.Context, projectID, ref string) error {
	return s.campaigns.DeleteCategory(ctx, projectID, ref)
}
