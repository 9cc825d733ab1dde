package promo

import (
	"context"
	"errors"
	"log/slog"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// Engine is the promotion engine over one store. It is safe for concurrent
// use; create one per process and share it.
type Engine struct {
	store  storage.Store
	env    promotype.Env
	logger *slog.Logger

	catalog   *catalog.Service
	locations *location.Service
	rewards   *reward.Service
	auth      *auth.Service

	access      accessServices
	sales       salesServices
	promos      promoServices
	ruleSvc     ruleServices
	promotions  promotionServices
	validations validationServices // engine_validations.go

	settings settingsServices // engine_settings.go
	webhooks webhookState     // engine_webhooks.go: delivery
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
	e.wireValidation() // engine_promotions.go: validation, told of every change
	// Metadata schemas first: every other service checks metadata through
	// the env's hook, which reads them.
	e.settings.metadataSchemas = project.NewMetadataSchemaService(store, e.env)
	e.env.CheckMetadata = e.settings.metadataSchemas.CheckMetadata
	e.settings.webhooks = webhook.NewService(store, e.env, cfg.webhookTargets)
	e.webhooks.policy = cfg.webhookTargets
	e.settings.eventSchemas = project.NewCustomEventSchemaService(store, e.env)
	e.settings.branding = project.NewBrandingService(store, e.env)
	e.settings.events = project.NewCustomEventService(store, storage.TxFor(store, func(s storage.Tx) project.CustomEventStore { return s }), e.env)
	e.catalog = catalog.NewService(store, storage.TxFor(store, func(s storage.Tx) catalog.Store { return s }), e.env)
	e.locations = location.NewService(store, e.env)
	e.rewards = reward.NewService(store, storage.TxFor(store, func(s storage.Tx) reward.Store { return s }), e.env)
	e.auth = auth.NewService(store, e.env)
	e.wireAccess()      // engine_access.go: OAuth tokens
	e.wireSales()       // engine_sales.go: customers, orders
	e.wirePromos()      // engine_promos.go: campaigns, vouchers, async actions
	e.wireRules()       // engine_rules.go: validation rules and assignments
	e.wirePromotions()  // engine_promotions.go: promotion tiers, stacks
	e.wireCampaignAPI() // engine_promos.go: the campaigns API, over the tier and stack services
	e.wireValidations() // engine_validations.go: stackable validation, stacking rules
	return e, nil
}

// Catalog is the products and SKUs API.
func (e *Engine) Catalog() *catalog.Service { return e.catalog }

// Locations is the locations API.
func (e *Engine) Locations() *location.Service { return e.locations }

// Rewards is the rewards API.
func (e *Engine) Rewards() *reward.Service { return e.rewards }

// Auth is the credentials API: key pairs and their checks.
func (e *Engine) Auth() *auth.Service { return e.auth }

// Logger is the engine's logger.
func (e *Engine) Logger() *slog.Logger { return e.logger }

// Clock is the engine's clock.
func (e *Engine) Clock() promotype.Clock { return e.env.Clock }

// CreateProject creates a project with its built-in resources (the shipping
// product) in one transaction.
func (e *Engine) CreateProject(ctx context.Context, in project.Params) (*project.Project, error) {
	p, err := project.New(in, e.env)
	if err != nil {
		return nil, err
	}
	err = e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return e.insertProject(ctx, tx, p) })
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ProvisionProject creates a project with its built-in resources and an
// application key pair, and grants it to the management key managementKeyID
// when that is not empty, all in one transaction. It returns the key pair in
// clear text: its secret is not kept.
func (e *Engine) ProvisionProject(ctx context.Context, in project.Params, app auth.KeyParams, managementKeyID string) (*project.Project, auth.Credentials, error) {
	p, err := project.New(in, e.env)
	if err != nil {
		return nil, auth.Credentials{}, err
	}
	key, creds, err := auth.NewAppKey(p.ID, app, p.CreatedAt)
	if err != nil {
		return nil, auth.Credentials{}, err
	}
	err = e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := e.insertProject(ctx, tx, p); err != nil {
			return err
		}
		if err := tx.InsertAppKey(ctx, key); err != nil {
			return err
		}
		if managementKeyID == "" {
			return nil
		}
		return auth.Grant(ctx, tx, managementKeyID, p.ID)
	})
	if err != nil {
		return nil, auth.Credentials{}, err
	}
	return p, creds, nil
}

func (e *Engine) insertProject(ctx context.Context, tx storage.Tx, p *project.Project) error {
	if err := tx.InsertProject(ctx, p); err != nil {
		return err
	}
	return tx.InsertProduct(ctx, catalog.NewShipping(p.ID, p.CreatedAt))
}

// GetProject returns a project by id.
func (e *Engine) GetProject(ctx context.Context, id string) (*project.Project, error) {
	p, err := e.store.GetProject(ctx, id)
	if err != nil {
		return nil, err
	}
	p.Object = "project"
	return p, nil
}
