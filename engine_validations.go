package promo

import (
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
)

// validationServices are stackable validation and the stacking rules.
type validationServices struct {
	validations   *redemption.Service
	stackingRules *redemption.StackingRulesService
}

func (e *Engine) wireValidations() {
	v := &e.validations
	v.stackingRules = redemption.NewStackingRulesService(e.store,
		storage.TxFor(e.store, func(s storage.Tx) redemption.Store { return s }), e.env)
	v.validations = redemption.NewService(e.store, e.env, e.promotions.validation.Snapshot)
}

// Validations is stackable validation (POST /v1/validations).
func (e *Engine) Validations() *redemption.Service { return e.validations.validations }

// StackingRules is the stacking rules API of the management API.
func (e *Engine) StackingRules() *redemption.StackingRulesService { return e.validations.stackingRules }
