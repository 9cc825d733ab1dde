package promo_test

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
)

// BenchmarkPublishFromCampaign measures POST /v1/publications through the
// Go API on each store: a new customer gets the next free voucher of a
// campaign of 20,000 (customer upsert, claim, publication and wallet rows,
// two events, in one transaction). Run it with -benchtime=2000x at most:
// the campaign has 20,000 vouchers.
func BenchmarkPublishFromCampaign(b *testing.B) {
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			eng := must[*promo.Engine](b)(promo.New(newStore(b)))
			p := must[*project.Project](b)(eng.Projects().Create(ctx, project.Params{Name: "bench"})).ID
			must[*campaign.Campaign](b)(eng.Campaigns().Create(ctx, p, js[campaign.Params](b,
				`{"name":"Drop","vouchers_count":20000,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)))
			must[int](b)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 5000}))
			drop := &publication.CampaignRef{Name: promotype.Ptr("Drop")}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := eng.Publications().Create(ctx, p, publication.CreateParams{Campaign: drop,
					Customer: &customer.Params{SourceID: promotype.Ptr(fmt.Sprintf("c-%d", i))}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
