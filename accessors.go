package promo

import (
	"log/slog"

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
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// Projects is the projects API: create (with the built-in shipping
// product), provision (with a key pair), get.
func (e *Engine) Projects() *project.Service { return e.projects }

// Auth is the credentials API: key pairs and their checks.
func (e *Engine) Auth() *auth.Service { return e.auth }

// OAuth is the OAuth 2.0 API: issuing tokens to an app key pair,
// introspection, revocation, and the bearer check with its scope table
// (Authorize). Tokens are shared through the store, so every engine over the
// same database accepts them, and a revocation reaches every engine (see
// auth.Store.WatchCredentials for how fast).
func (e *Engine) OAuth() *auth.OAuth { return e.oauth }

// Catalog is the products and SKUs API.
func (e *Engine) Catalog() *catalog.Service { return e.catalog }

// Locations is the locations API.
func (e *Engine) Locations() *location.Service { return e.locations }

// Customers is the customers API: upsert by id or source id, get.
func (e *Engine) Customers() *customer.Service { return e.customers }

// Segments is the customer segments API: static and filter segments,
// and the segments of a customer.
func (e *Engine) Segments() *segment.Service { return e.segments }

// Orders is the orders API: create (an upsert), get, update and list, with
// the calculated amounts.
func (e *Engine) Orders() *order.Service { return e.orders }

// Campaigns is the campaigns and categories API.
func (e *Engine) Campaigns() *campaign.API { return e.campaign }

// PromotionTiers is the promotion tiers API.
func (e *Engine) PromotionTiers() *campaign.TierService { return e.tiers }

// PromotionStacks is the promotion stacks API.
func (e *Engine) PromotionStacks() *campaign.StackService { return e.stacks }

// Promotions is promotion validation (POST /v1/promotions/validation) and
// stack evaluation.
func (e *Engine) Promotions() *promotion.Service { return e.promotions }

// Validations is stackable validation (POST /v1/validations) and the
// legacy voucher validation.
func (e *Engine) Validations() *redemption.Service { return e.validations }

// Qualifications answers which redeemables a customer and an order
// qualify for (POST /v1/qualifications): each one returned validates as
// APPLICABLE alone.
func (e *Engine) Qualifications() *redemption.QualificationService { return e.qualifications }

// Redemptions is redemptions (POST /v1/redemptions), rollbacks and the
// redemption ledger.
func (e *Engine) Redemptions() *redemption.RedemptionService { return e.redemptions }

// Publications is publications (POST and GET /v1/publications) and
// customers' wallets (GET /v1/customers/{customerId}/redeemables).
func (e *Engine) Publications() *publication.Service { return e.publications }

// Exports is the exports API: CSV files of vouchers, redemptions,
// customers, orders and publications, written by an async job, and their
// download by token.
func (e *Engine) Exports() *export.Service { return e.exports }

// Bin is the bin: the deleted campaigns, vouchers, products and SKUs, listed
// and deleted for good.
func (e *Engine) Bin() *bin.Service { return e.bin }

// CampaignTemplates is the campaign templates API: templates made of
// campaigns and promotion tiers, and campaigns and tiers made of them.
func (e *Engine) CampaignTemplates() *campaign.TemplateService { return e.templates }

// StackingRules is the stacking rules API of the management API.
func (e *Engine) StackingRules() *redemption.StackingRulesService { return e.stackingRules }

// Vouchers is the vouchers API, with the requests that start voucher jobs
// (GenerateInCampaign, ImportToCampaign).
func (e *Engine) Vouchers() *voucher.Service { return e.vouchers }

// ValidationRules is the validation rules and assignments API.
func (e *Engine) ValidationRules() *rule.Service { return e.rules }

// Loyalties is the loyalty API: programs, members, their points and
// ledger, and earning rules (which give points when an order becomes
// PAID).
func (e *Engine) Loyalties() *loyalty.Service { return e.loyalty }

// Referrals is the referral programs API: the holders of referral codes
// and the customers' referral summaries (conversions happen inside the
// redemptions and custom events that convert).
func (e *Engine) Referrals() *referral.Service { return e.referrals }

// Rewards is the rewards API.
func (e *Engine) Rewards() *reward.Service { return e.rewards }

// AsyncActions is the async actions API.
func (e *Engine) AsyncActions() *async.Service { return e.actions }

// Imports returns the bulk async actions: imports (CSV files and item
// lists) and bulk and metadata updates.
func (e *Engine) Imports() *imports.Service { return e.imports }

// Webhooks is the webhook API: configurations, their delivery and its log.
func (e *Engine) Webhooks() *webhook.Service { return e.webhooks }

// MetadataSchemas is the metadata schemas API.
func (e *Engine) MetadataSchemas() *project.MetadataSchemaService { return e.metadataSchemas }

// CustomEventSchemas is the custom event schemas API.
func (e *Engine) CustomEventSchemas() *project.CustomEventSchemaService { return e.eventSchemas }

// Branding is the brand configuration API.
func (e *Engine) Branding() *project.BrandingService { return e.branding }

// CustomEvents is the custom events API (POST /v1/events).
func (e *Engine) CustomEvents() *project.CustomEventService { return e.events }

// Logger is the engine's logger.
func (e *Engine) Logger() *slog.Logger { return e.logger }

// Clock is the engine's clock.
func (e *Engine) Clock() promotype.Clock { return e.env.Clock }
