package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// The stacking rules validations read are cached for about a second
// (redemption/stacking_cache.go): the engine that changes them applies the
// change to its very next validation, another engine over the same data
// within the cache's time.
func TestStackingRulesAcrossReplicas(t *testing.T) {
	for name, pair := range replicaFactories {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, b := replicaEngines(t, pair)
			p := must[*project.Project](t)(a.Projects().Create(ctx, project.Params{Name: "Shop"}))
			in := decode[redemption.ValidationParams](t, `{"order":{"amount":1000},"redeemables":[
				{"object":"voucher","id":"A"},{"object":"voucher","id":"B"}]}`)
			refused := func(e *promo.Engine) bool { // over the redeemables limit: 400
				t.Helper()
				_, err := e.Validations().Validate(ctx, p.ID, in)
				if err == nil {
					return false
				}
				if pe := promotype.AsError(err); pe.Code != 400 || pe.Key != "invalid_payload" {
					t.Fatalf("validation: %v", err)
				}
				return true
			}
			if refused(a) || refused(b) { // both cache the defaults (limit 30)
				t.Fatal("two redeemables refused under the default rules")
			}
			rules := must[*redemption.StackingRules](t)(a.StackingRules().Create(ctx, p.ID, redemption.StackingRulesParams{RedeemablesLimit: promotype.Ptr(1), ApplicableRedeemablesLimit: promotype.Ptr(1)}))
			if !refused(a) {
				t.Error("the writing engine validated two redeemables over its new limit of 1")
			}
			eventually(t, 10*time.Second, "the other engine never saw the new limit", func() bool { return refused(b) })
			if err := a.StackingRules().Delete(ctx, p.ID, rules.ID); err != nil {
				t.Fatal(err)
			}
			if refused(a) {
				t.Error("the writing engine still applies its deleted rules")
			}
		})
	}
}
