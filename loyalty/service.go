package loyalty

import (
	"log/slog"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// Service is the loyalty use cases: programs, members, their points and
// ledger, and earning rules.
type Service struct {
	store  ServiceStore
	tx     promotype.TxFunc[ServiceStore]
	env    promotype.Env
	logger *slog.Logger
	deps   Deps
	rules  ruleCache

	scheduler *Scheduler
}

// Deps are the services of other nouns the loyalty service works through:
// a program is a campaign, a member a published voucher, and points move
// through the redemption service's card ledger.
type Deps struct {
	Programs     *campaign.API
	Campaigns    *campaign.Service
	Vouchers     *voucher.Service
	Publications *publication.Service
	Redemptions  *redemption.RedemptionService
	Rewards      *reward.Service
	Customers    *customer.Service
}

// NewService returns the loyalty service reading through store and
// writing in transactions opened by tx; logger hears of background work
// that failed.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env, logger *slog.Logger, deps Deps) *Service {
	s := &Service{store: store, tx: tx, env: env, logger: logger, deps: deps, rules: newRuleCache()}
	s.scheduler = &Scheduler{s: s, logger: logger}
	return s
}

// Changed drops what the service keeps of a project's campaigns and rules
// (a write through another service changed them: a program disabled, its
// dates moved); the next earning reads them again.
func (s *Service) Changed(projectID string) { s.rules.changed(projectID) }
