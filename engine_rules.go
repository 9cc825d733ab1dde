package promo

import (
	"context"

	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
)

// ruleServices are the validation rule services.
type ruleServices struct {
	rules *rule.Service
}

func (e *Engine) wireRules() {
	e.ruleSvc.rules = rule.NewService(e.store,
		storage.TxFor(e.store, func(s storage.Tx) rule.Store { return s }), e.env, e.resolveRelated)
}

// ValidationRules is the validation rules and assignments API.
func (e *Engine) ValidationRules() *rule.Service { return e.ruleSvc.rules }

// resolveRelated checks that the object an assignment names exists in the
// project and returns it as the API shows it: campaigns and vouchers
// (engine_promos.go); promotion tiers by id.
func (e *Engine) resolveRelated(ctx context.Context, projectID, objectType, objectID string) (rule.Related, error) {
	if objectType == rule.RelatedPromotionTier {
		t, err := e.PromotionTiers().Get(ctx, projectID, objectID)
		if err != nil {
			return rule.Related{}, err
		}
		return rule.Related{Type: objectType, ID: t.ID, Object: t}, nil
	}
	return e.resolvePromoObject(ctx, projectID, objectType, objectID)
}
