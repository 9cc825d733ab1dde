package promo

import (
	"context"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
)

// promotionServices are the promotion tier and stack services and promotion
// validation.
type promotionServices struct {
	tiers      *campaign.TierService
	stacks     *campaign.StackService
	validation *promotion.Service
}

// wireValidation makes promotion validation and points the change hook at
// it; it runs before the other services copy the env.
func (e *Engine) wireValidation() {
	e.promotions.validation = promotion.NewService(e.store, e.env,
		promotion.WithLogger(e.logger), promotion.WithTimeZone(e.projectTimeZone))
	e.env.Changed = e.promotions.validation.Changed
}

func (e *Engine) wirePromotions() {
	p := &e.promotions
	rules := rule.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) rule.Store { return s }), e.env, e.resolveRelated)
	p.tiers = campaign.NewTierService(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.TierServiceStore { return s }),
		e.env, e.promos.campaigns, rules)
	p.stacks = campaign.NewStackService(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.StackServiceStore { return s }),
		e.env, e.promos.campaigns)
}

// projectTimeZone is the project's time zone, for validity windows.
func (e *Engine) projectTimeZone(ctx context.Context, projectID string) (*time.Location, error) {
	p, err := e.store.GetProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return p.Location(), nil
}

// Promotions is promotion validation (POST /v1/promotions/validation) and
// stack evaluation.
func (e *Engine) Promotions() *promotion.Service { return e.promotions.validation }

// PromotionTiers is the promotion tiers API.
func (e *Engine) PromotionTiers() *campaign.TierService { return e.promotions.tiers }

// PromotionStacks is the promotion stacks API.
func (e *Engine) PromotionStacks() *campaign.StackService { return e.promotions.stacks }

// fillTiers sets the promotion.tiers list of a PROMOTION campaign.
func (e *Engine) fillTiers(ctx context.Context, c *campaign.Campaign) (*campaign.Campaign, error) {
	return campaign.FillTiers(ctx, e.store, c)
}
