package bunstore_test

import (
	"strconv"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// BenchmarkProductCreate creates products through the engine on PostgreSQL:
// one transaction per product (a source id lookup, then the insert).
func BenchmarkProductCreate(b *testing.B) {
	engine, err := promo.New(bunstoretest.New(b))
	if err != nil {
		b.Fatal(err)
	}
	p, err := engine.CreateProject(ctx, project.Params{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	in := catalog.ProductParams{
		Name:       ptr("Mug"),
		Price:      ptr(int64(1999)),
		Attributes: []string{"color", "size"},
		Metadata:   promotype.Metadata{"material": "ceramic", "weight": 0.4},
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		in.SourceID = ptr("mug-" + strconv.Itoa(i))
		if _, err := engine.Catalog().CreateProduct(ctx, p.ID, in); err != nil {
			b.Fatal(err)
		}
	}
}
