package loyalty

import (
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
	store ServiceStore
	tx    promotype.TxFunc[ServiceStore]
	env   promotype.Env
	deps  Deps
	rules ruleCache

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
// writing in transactions opened by tx.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env, deps Deps) *Service {
	return &Service{store: store, tx: tx, env: env, deps: deps, rules: newRuleCache()}
}
