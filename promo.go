package promo

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/referral"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// Engine is the promotion engine over one store: the domain services, wired
// together. It is safe for concurrent use; create one per process and share
// it.
type Engine struct {
	store  storage.Store
	env    promotype.Env
	logger *slog.Logger

	projects        *project.Service
	metadataSchemas *project.MetadataSchemaService
	eventSchemas    *project.CustomEventSchemaService
	branding        *project.BrandingService
	events          *project.CustomEventService
	auth            *auth.Service
	oauth           *auth.OAuth
	webhooks        *webhook.Service

	catalog   *catalog.Service
	locations *location.Service
	customers *customer.Service
	segments  *segment.Service
	orders    *order.Service

	rules      *rule.Service
	campaigns  *campaign.Service
	tiers      *campaign.TierService
	stacks     *campaign.StackService
	campaign   *campaign.API
	vouchers   *voucher.Service
	rewards    *reward.Service
	actions    *async.Service
	promotions *promotion.Service

	validations    *redemption.Service
	redemptions    *redemption.RedemptionService
	stackingRules  *redemption.StackingRulesService
	qualifications *redemption.QualificationService

	publications *publication.Service
	imports      *imports.Service
	exports      *export.Service
	bin          *bin.Service
	templates    *campaign.TemplateService
	loyalty      *loyalty.Service
	referrals    *referral.Service
}

// New returns an engine over store.
func New(store storage.Store, opts ...Option) (*Engine, error) {
	if store == nil {
		return nil, errors.New("promo: nil store")
	}
	cfg := config{env: promotype.DefaultEnv(), logger: slog.Default()}
	for _, o := range opts {
		o(&cfg)
	}
	e := &Engine{store: store, env: cfg.env, logger: cfg.logger}

	// The env every service copies carries two hooks, set first: changes
	// reach the promotion cache, and metadata is checked against the
	// project's schemas.
	e.promotions = promotion.NewService(store, e.env, promotion.WithLogger(e.logger),
		promotion.WithTimeZone(func(ctx context.Context, projectID string) (*time.Location, error) {
			return e.projects.TimeZone(ctx, projectID)
		}))
	e.env.Changed = e.changed
	e.metadataSchemas = project.NewMetadataSchemaService(store, e.env)
	e.env.CheckMetadata = e.metadataSchemas.CheckMetadata
	e.env.Triggered = e.triggered
	e.env.Location = func(ctx context.Context, projectID string) (*time.Location, error) {
		return e.projects.TimeZone(ctx, projectID)
	}

	e.projects = project.NewService(store, storage.TxFor(store, func(s storage.Tx) project.ServiceStore { return s }), e.env)
	e.eventSchemas = project.NewCustomEventSchemaService(store, e.env)
	e.branding = project.NewBrandingService(store, e.env)
	e.events = project.NewCustomEventService(store, storage.TxFor(store, func(s storage.Tx) project.CustomEventStore { return s }), e.env)
	e.auth = auth.NewService(store, e.env)
	e.projects.OnDelete(e.auth.ForgetProject)
	e.oauth = auth.NewOAuth(e.auth)
	e.webhooks = webhook.NewService(store, e.env, cfg.webhookTargets, e.logger)

	e.catalog = catalog.NewService(store, storage.TxFor(store, func(s storage.Tx) catalog.Store { return s }), e.env)
	e.locations = location.NewService(store, e.env)
	e.customers = customer.NewService(store, storage.TxFor(store, func(s storage.Tx) customer.Store { return s }), e.env)
	e.segments = segment.NewService(store, storage.TxFor(store, func(s storage.Tx) segment.Store { return s }), e.env)
	e.orders = order.NewService(store, storage.TxFor(store, func(s storage.Tx) order.ServiceStore { return s }), e.env)
	e.customers.SetOrderSummary(e.orders.CustomerSummary)

	// One rule service assigns rules for every service; the objects an
	// assignment names are found through the services that own them.
	e.rules = rule.NewService(store, storage.TxFor(store, func(s storage.Tx) rule.Store { return s }), e.env, e.related)
	e.campaigns = campaign.NewService(store, storage.TxFor(store, func(s storage.Tx) campaign.Store { return s }), e.env, e.rules)
	e.tiers = campaign.NewTierService(store, storage.TxFor(store, func(s storage.Tx) campaign.Store { return s }), e.env, e.campaigns, e.rules)
	e.stacks = campaign.NewStackService(store, storage.TxFor(store, func(s storage.Tx) campaign.Store { return s }), e.env, e.campaigns)
	e.rewards = reward.NewService(store, storage.TxFor(store, func(s storage.Tx) reward.Store { return s }), e.env)
	e.vouchers = voucher.NewService(store, storage.TxFor(store, func(s storage.Tx) voucher.ServiceStore { return s }), e.env, e.campaigns, e.rules)

	// Async actions: voucher jobs register their workers; the campaigns API
	// enqueues them.
	jobs := async.NewRegistry()
	e.actions = async.NewService(store, storage.TxFor(store, func(s storage.Tx) async.Store { return s }), e.env, e.logger, jobs)
	e.actions.SetAdmission(voucher.GenerationAdmission(cfg.limits))
	jobStore := func(s storage.Tx) voucher.JobStore { return s }
	e.vouchers.EnableJobs(jobs, e.actions, storage.TxFor(store, jobStore), storage.BulkTxFor(store, jobStore))
	importStore := func(s storage.Tx) imports.JobStore { return s }
	e.imports = imports.NewService(store, storage.TxFor(store, importStore), storage.BulkTxFor(store, importStore), e.env, e.actions, jobs,
		imports.Services{Catalog: e.catalog, Customers: e.customers, Vouchers: e.vouchers, Orders: e.orders, Campaigns: e.campaigns, Schemas: e.metadataSchemas})
	e.campaign = campaign.NewAPI(store, storage.TxFor(store, func(s storage.Tx) campaign.APIStore { return s }), e.env,
		e.campaigns, e.tiers, e.stacks, e.actions, voucher.CheckCodeSpace)

	e.stackingRules = redemption.NewStackingRulesService(store, storage.TxFor(store, func(s storage.Tx) redemption.Store { return s }), e.env)
	e.validations = redemption.NewService(store, e.env, e.promotions.Snapshot, e.stackingRules)
	e.qualifications = redemption.NewQualificationService(store, e.validations)
	e.redemptions = redemption.NewRedemptionService(store, storage.WriteBehindTxFor(store, func(s storage.Tx) redemption.RedeemStore { return s }), e.env, e.validations, e.vouchers)
	if cfg.noCombining {
		e.redemptions.DisableCombining()
	}
	_, group := store.(storage.WriteBehindStore)
	if cfg.groupCommit != nil {
		group = *cfg.groupCommit
	}
	e.redemptions.SetGroupCommit(group)
	e.customers.SetRedemptionSummary(e.redemptions.CustomerSummary)
	e.tiers.SetSummary(e.redemptions.TierSummaries)
	e.campaign.SetSummary(e.redemptions.CampaignSummary)
	e.templates = campaign.NewTemplateService(store, e.env, e.campaign, e.tiers)
	e.publications = publication.NewService(store, storage.TxFor(store, func(s storage.Tx) publication.ServiceStore { return s }), e.env, e.campaigns, e.vouchers)
	e.bin = bin.NewService(store, storage.TxFor(store, func(s storage.Tx) bin.ServiceStore { return s }), e.env, e.actions)
	e.exports = export.NewService(store, storage.TxFor(store, func(s storage.Tx) export.JobStore { return s }), e.env, e.actions)
	e.exports.EnableJobs(jobs)
	e.loyalty = loyalty.NewService(store, storage.TxFor(store, func(s storage.Tx) loyalty.ServiceStore { return s }), e.env, e.logger, loyalty.Deps{
		Programs: e.campaign, Campaigns: e.campaigns, Vouchers: e.vouchers, Publications: e.publications, Redemptions: e.redemptions,
		Rewards: e.rewards, Customers: e.customers})
	e.redemptions.SetRewardEffect(e.loyalty.RewardEffect)
	e.redemptions.SetPointsEffect(e.loyalty.PointsEffect)
	e.validations.SetRewardCost(e.loyalty.RewardCost)
	e.referrals = referral.NewService(store, storage.TxFor(store, func(s storage.Tx) referral.ServiceStore { return s }), e.env, referral.Deps{
		Campaigns: e.campaigns, Vouchers: e.vouchers, Publications: e.publications, Redemptions: e.redemptions})
	e.redemptions.SetConversionEffect(e.referrals.ConversionEffect)
	e.customers.SetReferralSummary(e.referrals.CustomerReferrals)
	e.customers.SetLoyaltySummary(e.referrals.WithReferred(e.vouchers.CustomerLoyalty))
	return e, nil
}

// changed tells the caches of a write that can change validations and
// earnings in the project (promotype.Env.Changed): the promotion snapshots
// and the loyalty rules.
func (e *Engine) changed(projectID string) {
	e.promotions.Changed(projectID)
	if e.loyalty != nil {
		e.loyalty.Changed(projectID)
	}
}

// triggered hands a customer change to segment membership, a custom event
// naming a referral code to the referral service, and a paid order, a
// custom event or a segment entry to loyalty earning, in the
// transaction of the change (promotype.Env.Triggered).
func (e *Engine) triggered(ctx context.Context, tx promotype.EventStore, t promotype.Trigger) error {
	if c, ok := t.Subject.(*customer.Customer); ok {
		st, err := promotype.PortOf[segment.Store](tx, "a customer change")
		if err != nil {
			return err
		}
		return e.segments.Moved(ctx, st, c, func(ctx context.Context, ev *promotype.Event) error {
			return e.triggered(ctx, tx, promotype.Trigger{Event: ev})
		})
	}
	st, err := promotype.PortOf[storage.Tx](tx, "a trigger")
	if err != nil {
		return err
	}
	if err := e.referrals.Triggered(ctx, st, t); err != nil {
		return err
	}
	return e.loyalty.Triggered(ctx, st, t)
}

// related finds the object a validation rule assignment names: a promotion
// tier, or a campaign or voucher.
func (e *Engine) related(ctx context.Context, projectID, objectType, objectID string) (rule.Related, error) {
	if objectType == rule.RelatedPromotionTier {
		t, err := e.tiers.Get(ctx, projectID, objectID)
		if err != nil {
			return rule.Related{}, err
		}
		return rule.Related{Type: objectType, ID: t.ID, Object: t}, nil
	}
	return e.vouchers.Related(ctx, projectID, objectType, objectID)
}
