package promo

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/storage"
)

// ruleServices are the validation rule services.
type ruleServices struct {
	rules *campaign.RuleService
}

func (e *Engine) wireRules() {
	e.ruleSvc.rules = campaign.NewRuleService(e.store,
		storage.Tx(e.store, func(s storage.Store) campaign.RuleStore { return s }), e.env, e.resolveRelated)
}

// ValidationRules is the validation rules and assignments API.
func (e *Engine) ValidationRules() *campaign.RuleService { return e.ruleSvc.rules }

// resolveRelated checks that the object an assignment names exists in the
// project and returns it as the API shows it: campaigns and vouchers
// (engine_promos.go); promotion tiers by id.
func (e *Engine) resolveRelated(ctx context.Context, projectID, objectType, objectID string) (campaign.Related, error) {
	if objectType == campaign.RelatedPromotionTier {
		t, err := e.PromotionTiers().Get(ctx, projectID, objectID)
		if err != nil {
			return campaign.Related{}, err
		}
		return campaign.Related{Type: objectType, ID: t.ID, Object: t}, nil
	}
	return e.resolvePromoObject(ctx, projectID, objectType, objectID)
}
