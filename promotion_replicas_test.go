package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/storage"
)

// A tier created through one engine is validated by another over the same
// data once that one's snapshot refreshes (about snapshotTTL), without a
// validation waiting for the rebuild; the writing engine sees it at once.
func TestPromotionSnapshotAcrossReplicas(t *testing.T) {
	for name, pair := range replicaFactories {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, b := replicaEngines(t, pair)
			p := must[*project.Project](t)(a.Projects().Create(ctx, project.Params{Name: "Shop"}))
			c := must[*campaign.Campaign](t)(a.Campaigns().Create(ctx, p.ID, decode[campaign.Params](t, `{"name":"Promos","campaign_type":"PROMOTION"}`)))
			in := decode[promotion.ValidationParams](t, `{"order":`+cart72100+`}`)
			valid := func(e *promo.Engine) int {
				t.Helper()
				return len(must[*promotion.Validation](t)(e.Promotions().Validate(ctx, p.ID, in, promotion.ValidationQuery{})).Promotions)
			}
			if n := valid(b); n != 0 { // b caches an empty snapshot
				t.Fatalf("%d valid tiers before any exists", n)
			}
			must[*campaign.PromotionTier](t)(a.PromotionTiers().Create(ctx, p.ID, c.ID, decode[campaign.TierParams](t,
				`{"name":"100 off","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`)))
			if n := valid(a); n != 1 {
				t.Errorf("the writing engine validates %d tiers, want its new one", n)
			}
			eventually(t, 5*time.Second, "the other engine never saw the new tier", func() bool { return valid(b) == 1 })
		})
	}
}

// replicaEngines are two engines over the two stores of pair, as two
// replicas over the same data, closed when t ends.
func replicaEngines(t *testing.T, pair func(t *testing.T) (storage.Store, storage.Store)) (a, b *promo.Engine) {
	t.Helper()
	sa, sb := pair(t)
	var err error
	if a, err = promo.New(sa, promo.WithLogger(quietLogger())); err != nil {
		t.Fatal(err)
	}
	if b, err = promo.New(sb, promo.WithLogger(quietLogger())); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	return a, b
}
