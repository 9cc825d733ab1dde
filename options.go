package promo

import (
	"log/slog"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// Option configures an Engine.
type Option func(*config)

type config struct {
	env    promotype.Env
	logger *slog.Logger

	webhookTargets webhook.TargetPolicy
	limits         Limits
	noCombining    bool
	groupCommit    *bool // nil: group where the store writes behind
}

// WithClock sets the clock (tests freeze it with promotype.NewManualClock).
func WithClock(c promotype.Clock) Option { return func(cfg *config) { cfg.env.Clock = c } }

// WithIDGenerator sets the id generator (tests use promotype.SequentialIDs).
func WithIDGenerator(g promotype.IDGenerator) Option { return func(cfg *config) { cfg.env.IDs = g } }

// WithOutboxIDGenerator sets the id generator of webhook events and
// deliveries (crypto-random by default, whatever WithIDGenerator sets).
func WithOutboxIDGenerator(g promotype.IDGenerator) Option {
	return func(cfg *config) { cfg.env.OutboxIDs = g }
}

// WithLogger sets the logger for background work and internal errors.
func WithLogger(l *slog.Logger) Option { return func(cfg *config) { cfg.logger = l } }

// WithWebhookTargets sets which webhook target URLs configurations may use.
// By default only public addresses: loopback and private ones are refused
// unless the policy allows them.
func WithWebhookTargets(p webhook.TargetPolicy) Option {
	return func(cfg *config) { cfg.webhookTargets = p }
}

// Limits bounds the voucher generation one project may ask for; see
// voucher.Limits.
type Limits = voucher.Limits

// WithLimits sets the generation limits; zero fields keep their defaults.
func WithLimits(l Limits) Option { return func(cfg *config) { cfg.limits = l } }

// WithStep sets the observer of the engine's steps (validations, async
// actions, webhook tries): see promotype.StepFunc. Package telemetry makes
// one with spans and metrics (telemetry.Steps).
func WithStep(f promotype.StepFunc) Option { return func(cfg *config) { cfg.env.Step = f } }

// WithoutSpendCombining makes every redemption write in a transaction of
// its own, instead of combining concurrent redemptions of one voucher into
// one transaction (docs/architecture.md, "Combining spends"). Both keep
// every limit; the option is there to compare them.
func WithoutSpendCombining() Option { return func(cfg *config) { cfg.noCombining = true } }

// WithGroupCommit turns on or off writing the redemptions that are alone
// on their voucher in shared transactions (docs/architecture.md, "Group
// commit across vouchers"). By default it is on where the store writes
// behind (storage.WriteBehindStore: a database, where each transaction
// costs round trips and a commit) and off elsewhere (the memory store,
// where it saves nothing).
func WithGroupCommit(on bool) Option { return func(cfg *config) { cfg.groupCommit = &on } }
