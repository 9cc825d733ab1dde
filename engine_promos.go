package promo

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// promoServices are the campaign, voucher and async action services.
type promoServices struct {
	campaigns   *campaign.Service
	vouchers    *voucher.Service
	actions     *async.Service
	campaignAPI *campaign.API
}

func (e *Engine) wirePromos() {
	p := &e.promos
	// A rule service of its own assigns the validation_rules of creates in
	// their transaction (Engine.ValidationRules serves the rules API).
	rules := rule.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) rule.Store { return s }), e.env, e.resolvePromoObject)
	p.campaigns = campaign.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.ServiceStore { return s }), e.env, rules)
	p.vouchers = voucher.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) voucher.ServiceStore { return s }), e.env, p.campaigns, rules)
	reg := async.NewRegistry()
	p.actions = async.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) async.Store { return s }), e.env, e.logger, reg)
	bindJobs := func(s storage.Tx) voucher.JobStore { return s }
	p.vouchers.EnableJobs(reg, p.actions, storage.TxFor(e.store, bindJobs), storage.BulkTxFor(e.store, bindJobs))
}

// wireCampaignAPI wires the campaigns API, once the tier and stack
// services are (wirePromotions).
func (e *Engine) wireCampaignAPI() {
	e.promos.campaignAPI = campaign.NewAPI(e.store, storage.TxFor(e.store, func(s storage.Tx) campaign.APIStore { return s }), e.env,
		e.promos.campaigns, e.promotions.tiers, e.promotions.stacks, e.promos.actions,
		func(c *campaign.Campaign, count int64) error {
			_, _, err := voucher.TemplateFor(c, count, c.CreatedAt)
			return err
		})
}

// Campaigns is the campaigns and categories API.
func (e *Engine) Campaigns() *campaign.API { return e.promos.campaignAPI }

// Vouchers is the vouchers API, with the requests that start voucher jobs
// (GenerateInCampaign, ImportToCampaign).
func (e *Engine) Vouchers() *voucher.Service { return e.promos.vouchers }

// AsyncActions is the async actions API.
func (e *Engine) AsyncActions() *async.Service { return e.promos.actions }

// resolvePromoObject is the rule services' resolver of the campaigns and
// vouchers an assignment names.
func (e *Engine) resolvePromoObject(ctx context.Context, projectID, objectType, objectID string) (rule.Related, error) {
	return e.promos.vouchers.Related(ctx, projectID, objectType, objectID)
}

// StartAsyncRunner starts the background runner of async actions (voucher
// generation, imports, campaign updates and deletes): see async.Runner.
// Close stops it gracefully; cancelling ctx stops it at once, as a crash
// would. It returns an error if the runner is running.
func (e *Engine) StartAsyncRunner(ctx context.Context, cfg async.Config) error {
	return e.promos.actions.Runner().Start(ctx, cfg)
}

// Close stops the webhook dispatcher and the async runner, if started: the
// dispatcher lets its tries in flight end and records them; each runner
// worker finishes the chunk in hand, hands its action back (another runner
// may take it at once) and returns. Close waits for them.
func (e *Engine) Close() error {
	e.StopWebhookDispatcher()
	e.promos.actions.Runner().Stop()
	return nil
}
