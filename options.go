package promo

import (
	"log/slog"

	"github.com/promoengine/promo/promotype"
)

// Option configures an Engine.
type Option func(*config)

type config struct {
	env    promotype.Env
	logger *slog.Logger
}

// WithClock sets the clock (tests freeze it with promotype.NewManualClock).
func WithClock(c promotype.Clock) Option { return func(cfg *config) { cfg.env.Clock = c } }

// WithIDGenerator sets the id generator (tests use promotype.SequentialIDs).
func WithIDGenerator(g promotype.IDGenerator) Option { return func(cfg *config) { cfg.env.IDs = g } }

// WithLogger sets the logger for background work and internal errors.
func WithLogger(l *slog.Logger) Option { return func(cfg *config) { cfg.logger = l } }
