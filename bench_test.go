package promo_test

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
)

// BenchmarkProductCreate measures POST /v1/products through the Go API (an
// upsert: a source-id lookup and an insert in one transaction) on each store.
func BenchmarkProductCreate(b *testing.B) {
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			eng, p := benchProject(b, newStore)
			in := catalog.ProductParams{Name: promo.Ptr("T-shirt"), Price: promo.Ptr[int64](2500), Attributes: []string{"color", "size"}, Metadata: promo.Metadata{"brand": "acme"}}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				in.SourceID = promo.Ptr(fmt.Sprintf("src-%d", i))
				if _, err := eng.Catalog().CreateProduct(ctx, p.ID, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
