package promo

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// promoServices are the campaign, voucher and async action services.
type promoServices struct {
	campaigns *campaign.Service
	vouchers  *voucher.Service
	actions   *project.AsyncService

	campaignAPI *CampaignService
	asyncAPI    *AsyncActionService
	runner      runnerState // engine_promos_runner.go
}

func (e *Engine) wirePromos() {
	p := &e.promos
	// A rule service of its own assigns the validation_rules of creates in
	// their transaction (Engine.ValidationRules serves the rules API).
	rules := rule.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) rule.Store { return s }), e.env, e.resolvePromoObject)
	p.campaigns = campaign.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.ServiceStore { return s }), e.env, rules)
	p.vouchers = voucher.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) voucher.ServiceStore { return s }), e.env, p.campaigns, rules)
	p.actions = project.NewAsyncService(e.store, e.env)
	p.campaignAPI = &CampaignService{e: e}
	p.asyncAPI = &AsyncActionService{e: e}
	p.runner.wake = make(chan struct{}, 1)
}

// Campaigns is the campaigns and categories API.
func (e *Engine) Campaigns() *CampaignService { return e.promos.campaignAPI }

// Vouchers is the vouchers API.
func (e *Engine) Vouchers() *voucher.Service { return e.promos.vouchers }

// AsyncActions is the async actions API.
func (e *Engine) AsyncActions() *AsyncActionService { return e.promos.asyncAPI }

// WithRequestID returns ctx carrying the id of the request that acts; the
// async actions it starts record it as their request_id (the HTTP adapter
// passes its X-Request-Id). Without one, an id is made up.
func WithRequestID(ctx context.Context, id string) context.Context {
	return project.WithRequestID(ctx, id)
}

// ActionRef is the answer of a request that started an async action
// (202 {"async_action_id": ...}).
type ActionRef struct {
	AsyncActionID string `json:"async_action_id"`
}

// CampaignService is the campaigns API. Creating a voucher campaign, adding
// many vouchers, importing, updating and deleting start async actions that
// the engine's runner carries out (see Engine.StartAsyncRunner and
// AsyncActionService.RunPending).
type CampaignService struct{ e *Engine }

// Create creates a campaign. A campaign with vouchers is returned
// IN_PROGRESS with vouchers_count 0, and a CAMPAIGN.VOUCHERS_GENERATE
// action generates its vouchers_count vouchers, then sets it DONE with the
// real count (FAILED if the generation fails). A PROMOTION campaign is DONE
// at once. A code config whose code space cannot hold vouchers_count codes
// with a safe margin is refused with 400 invalid_code_config, and nothing
// is stored.
func (s *CampaignService) Create(ctx context.Context, projectID string, in campaign.Params) (*campaign.Campaign, error) {
	e := s.e
	if err := e.promos.campaigns.CheckCreate(ctx, projectID, in); err != nil {
		return nil, err
	}
	var out *campaign.Campaign
	err := e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		c, count, err := e.promos.campaigns.Create(ctx, tx, projectID, in)
		if err != nil {
			return err
		}
		out = c
		var tiers []*campaign.PromotionTier
		if !c.CampaignType.HasVouchers() {
			if in.Promotion != nil && len(in.Promotion.Tiers) > 0 {
				if tiers, err = e.promotions.tiers.CreateIn(ctx, tx, c, in.Promotion.Tiers); err != nil {
					return err
				}
			}
		} else {
			if _, _, err := voucher.TemplateFor(c, count, c.CreatedAt); err != nil {
				return err
			}
			if err := e.checkGenerationLimits(ctx, tx, projectID, count); err != nil {
				return err
			}
			if _, err = e.enqueue(ctx, tx, projectID, project.ActionVouchersGenerate, generatePayload{CampaignID: c.ID, Count: count}); err != nil {
				return err
			}
		}
		return e.campaignCreated(ctx, tx, c, tiers)
	})
	if err != nil {
		return nil, err
	}
	e.wakeRunner()
	e.env.Change(projectID)
	c, err := e.promos.campaigns.Present(ctx, e.store, out, true)
	if err != nil {
		return nil, err
	}
	return e.fillTiers(ctx, c)
}

// campaignCreated records the events of a campaign create in tx:
// campaign.created, then campaign.promotion_tier.created for each of its
// tiers.
func (e *Engine) campaignCreated(ctx context.Context, tx storage.Tx, c *campaign.Campaign, tiers []*campaign.PromotionTier) error {
	if err := e.promos.campaigns.EmitCampaign(ctx, tx, campaign.EventCampaignCreated, c, map[string]any{"created_at": c.CreatedAt}); err != nil {
		return err
	}
	return e.promotions.tiers.EmitTiers(ctx, tx, campaign.EventTierCreated, tiers)
}

// Get returns a campaign by id or name.
func (s *CampaignService) Get(ctx context.Context, projectID, ref string) (*campaign.Campaign, error) {
	c, err := s.e.promos.campaigns.Get(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.e.fillTiers(ctx, c)
}

// List lists campaigns.
func (s *CampaignService) List(ctx context.Context, projectID string, p campaign.ListParams) (*promotype.List[*campaign.Campaign], error) {
	return s.e.promos.campaigns.List(ctx, projectID, p)
}

// Update changes the campaign with id or name ref. It is returned
// MODIFYING; a CAMPAIGN.VOUCHERS_UPDATE action then copies the campaign's
// voucher settings (category, validity, discount or gift) to its vouchers
// not yet published nor redeemed, and sets the campaign DONE when it ends,
// unless another update came meanwhile (its own action does). A campaign
// still generating its vouchers cannot be changed (400 invalid_campaign).
func (s *CampaignService) Update(ctx context.Context, projectID, ref string, in campaign.UpdateParams) (*campaign.Campaign, error) {
	e := s.e
	if err := e.promos.campaigns.CheckUpdate(ctx, projectID, ref, in); err != nil {
		return nil, err
	}
	var out *campaign.Campaign
	err := e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		c, err := e.promos.campaigns.Update(ctx, tx, projectID, ref, in)
		if err != nil {
			return err
		}
		out = c
		_, err = e.enqueue(ctx, tx, projectID, project.ActionVouchersUpdate,
			updatePayload{CampaignID: c.ID, Revision: c.Revision, Count: c.VouchersCount})
		return err
	})
	if err != nil {
		return nil, err
	}
	e.wakeRunner()
	e.env.Change(projectID)
	c, err := e.promos.campaigns.Present(ctx, e.store, out, true)
	if err != nil {
		return nil, err
	}
	return e.fillTiers(ctx, c)
}

// Delete deletes the campaign with id or name ref: it answers 404 at once
// and its name is free again; a CAMPAIGN.VOUCHERS_DELETE action moves its
// vouchers to the bin (with force: removes them and the campaign for good).
func (s *CampaignService) Delete(ctx context.Context, projectID, ref string, force bool) (*ActionRef, error) {
	e := s.e
	var a *project.AsyncAction
	err := e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		c, err := e.promos.campaigns.Remove(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		if c.CampaignType == campaign.Promotion { // its tiers and stacks go with it, for good
			if err := e.promotions.tiers.DeleteOfCampaign(ctx, tx, projectID, c.ID); err != nil {
				return err
			}
			if err := e.promotions.stacks.DeleteOfCampaign(ctx, tx, projectID, c.ID); err != nil {
				return err
			}
		}
		a, err = e.enqueue(ctx, tx, projectID, project.ActionVouchersDelete,
			deletePayload{CampaignID: c.ID, Force: force, Count: c.VouchersCount})
		return err
	})
	if err != nil {
		return nil, err
	}
	e.wakeRunner()
	e.env.Change(projectID)
	return &ActionRef{AsyncActionID: a.ID}, nil
}

// Enable sets the campaign with id or name ref active.
func (s *CampaignService) Enable(ctx context.Context, projectID, ref string) (*campaign.Campaign, error) {
	defer s.e.env.Change(projectID)
	c, err := s.e.promos.campaigns.SetActive(ctx, projectID, ref, true)
	if err != nil {
		return nil, err
	}
	return s.e.fillTiers(ctx, c)
}

// Disable sets the campaign with id or name ref inactive.
func (s *CampaignService) Disable(ctx context.Context, projectID, ref string) (*campaign.Campaign, error) {
	defer s.e.env.Change(projectID)
	c, err := s.e.promos.campaigns.SetActive(ctx, projectID, ref, false)
	if err != nil {
		return nil, err
	}
	return s.e.fillTiers(ctx, c)
}

// AddVoucher creates one voucher in the campaign with id or name ref, with
// code or a code of the campaign's code config (POST
// /v1/campaigns/{id}/vouchers[/{code}]).
func (s *CampaignService) AddVoucher(ctx context.Context, projectID, ref string, in voucher.CampaignParams, code *string) (*voucher.Voucher, error) {
	return s.e.promos.vouchers.CreateInCampaign(ctx, projectID, ref, in, code)
}

// AddVouchers generates in.VouchersCount vouchers in the campaign with id
// or name ref with a CAMPAIGN.VOUCHERS_GENERATE action; the campaign is
// IN_PROGRESS until it ends.
func (s *CampaignService) AddVouchers(ctx context.Context, projectID, ref string, in voucher.CampaignParams) (*ActionRef, error) {
	e := s.e
	if in.VouchersCount == nil {
		in.VouchersCount = promotype.Ptr[int64](1)
	}
	if err := e.promos.vouchers.CheckMetadata(ctx, projectID, in.Metadata); err != nil {
		return nil, err
	}
	var a *project.AsyncAction
	err := e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		c, err := e.promos.campaigns.Resolve(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		if _, _, err := e.promos.vouchers.PrepareForCampaign(ctx, tx, c, in); err != nil {
			return err
		}
		if err := e.checkGenerationLimits(ctx, tx, projectID, *in.VouchersCount); err != nil {
			return err
		}
		if _, err := tx.SetCampaignStatus(ctx, projectID, c.ID, campaign.StatusInProgress, -1); err != nil {
			return err
		}
		a, err = e.enqueue(ctx, tx, projectID, project.ActionVouchersGenerate,
			generatePayload{CampaignID: c.ID, Count: *in.VouchersCount, Params: &in})
		return err
	})
	if err != nil {
		return nil, err
	}
	e.wakeRunner()
	return &ActionRef{AsyncActionID: a.ID}, nil
}

// MaxImportItems bounds the vouchers of one import.
const MaxImportItems = 100_000

// Import imports vouchers into the campaign with id or name ref with a
// CAMPAIGN.VOUCHERS_IMPORT action; each item needs a code, and takes the
// campaign's settings overridden by its own fields. Items that cannot be
// stored (an invalid field, a code taken) are listed in the action's
// result with the reason; the others are stored.
func (s *CampaignService) Import(ctx context.Context, projectID, ref string, items []voucher.ImportItem) (*ActionRef, error) {
	e := s.e
	if len(items) == 0 {
		return nil, promotype.InvalidPayload("Payload must NOT have fewer than 1 items")
	}
	if len(items) > MaxImportItems {
		return nil, promotype.InvalidPayload("Payload must NOT have more than %d items", MaxImportItems)
	}
	var a *project.AsyncAction
	err := e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		c, err := e.promos.campaigns.Resolve(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		if !c.CampaignType.HasVouchers() {
			return campaign.InvalidCampaign("A PROMOTION campaign holds promotion tiers, not vouchers")
		}
		if err := c.CheckChangeable(); err != nil {
			return err
		}
		a, err = e.enqueue(ctx, tx, projectID, project.ActionVouchersImport, importPayload{CampaignID: c.ID, Items: items})
		return err
	})
	if err != nil {
		return nil, err
	}
	e.wakeRunner()
	return &ActionRef{AsyncActionID: a.ID}, nil
}

// CreateCategory creates a category.
func (s *CampaignService) CreateCategory(ctx context.Context, projectID string, in campaign.CategoryParams) (*campaign.Category, error) {
	return s.e.promos.campaigns.CreateCategory(ctx, projectID, in)
}

// GetCategory returns a category by id or name.
func (s *CampaignService) GetCategory(ctx context.Context, projectID, ref string) (*campaign.Category, error) {
	return s.e.promos.campaigns.GetCategory(ctx, projectID, ref)
}

// ListCategories lists categories.
func (s *CampaignService) ListCategories(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*campaign.Category], error) {
	return s.e.promos.campaigns.ListCategories(ctx, projectID, p)
}

// AsyncActionService is the async actions API.
type AsyncActionService struct{ e *Engine }

// Get returns an async action by id, with its result.
func (s *AsyncActionService) Get(ctx context.Context, projectID, id string) (*project.AsyncAction, error) {
	return s.e.promos.actions.Get(ctx, projectID, id)
}

// List lists async actions, newest first; items have no result.
func (s *AsyncActionService) List(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*project.AsyncAction], error) {
	return s.e.promos.actions.List(ctx, projectID, p)
}

// resolvePromoObject checks that a campaign (by id or name) or a voucher
// (by id or code) exists in the project and returns it as the API shows
// it, for validation rule assignments.
func (e *Engine) resolvePromoObject(ctx context.Context, projectID, objectType, objectID string) (rule.Related, error) {
	var id string
	var obj any
	switch objectType {
	case rule.RelatedCampaign:
		c, err := e.Campaigns().Get(ctx, projectID, objectID)
		if err != nil {
			return rule.Related{}, err
		}
		id, obj = c.ID, c
	case rule.RelatedVoucher:
		v, err := e.promos.vouchers.Get(ctx, projectID, objectID)
		if err != nil {
			return rule.Related{}, err
		}
		id, obj = v.ID, v
	default:
		return rule.Related{}, promotype.NotFound(objectType, objectID)
	}
	return rule.Related{Type: objectType, ID: id, Object: obj}, nil
}

// enqueue records a new ENQUEUED action in tx.
func (e *Engine) enqueue(ctx context.Context, tx storage.Tx, projectID, typ string, payload any) (*project.AsyncAction, error) {
	a, err := project.NewAsyncAction(ctx, e.env, projectID, typ, payload)
	if err != nil {
		return nil, err
	}
	return a, tx.InsertAsyncAction(ctx, a)
}
