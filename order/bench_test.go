package order_test

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// bench500 is a 500-item request over 250 products and 250 SKUs (one per
// product): lines by product id, by SKU id, by product source id and by SKU
// source id, with quantities, some metadata and one product override.
func bench500() (*order.Params, []*catalog.Product, []*catalog.SKU) {
	var prods []*catalog.Product
	var skus []*catalog.SKU
	for i := range 250 {
		p := &catalog.Product{ID: fmt.Sprintf("prod_%024d", i), SourceID: ptr(fmt.Sprintf("p-%d", i)), Name: ptr(fmt.Sprintf("Product %d", i)),
			Price: ptr(int64(1000 + i)), Metadata: promotype.Metadata{"brand": "acme"}}
		prods = append(prods, p)
		skus = append(skus, &catalog.SKU{ID: fmt.Sprintf("sku_%024d", i), ProductID: p.ID, SourceID: ptr(fmt.Sprintf("s-%d", i)),
			SKU: ptr(fmt.Sprintf("SKU %d", i)), Price: ptr(int64(900 + i)), Metadata: promotype.Metadata{}})
	}
	in := &order.Params{Metadata: promotype.Metadata{"channel": "web"}}
	for i := range order.MaxItems {
		var it order.ItemParams
		k := i / 2 % 250
		switch i % 4 {
		case 0:
			it.ProductID = &prods[k].ID
		case 1:
			it.SKUID = &skus[k].ID
		case 2:
			it.SourceID = prods[k].SourceID
		case 3:
			it.SourceID, it.RelatedObject = skus[k].SourceID, ptr(order.RelatedSKU)
		}
		it.Quantity = order.Qty(int64(1 + i%3))
		if i%50 == 0 {
			it.Metadata = promotype.Metadata{"gift": true}
			it.Product = &order.ItemProductParams{Name: ptr("Renamed")}
		}
		in.Items = append(in.Items, it)
	}
	return in, prods, skus
}

// BenchmarkCalculate500 is the pure calculation of a 500-item order:
// "calculate" against a prebuilt catalog index (what promotion evaluation
// reuses), "index+calculate" also builds the index from the records (what
// the order service does per request), "fork" is the copy each tier is
// priced on, "clone" the deep copy stores make.
func BenchmarkCalculate500(b *testing.B) {
	in, prods, skus := bench500()
	cat := order.NewCatalog(prods, skus)
	if o, err := order.Calculate(in, cat); err != nil || len(o.Items) != order.MaxItems {
		b.Fatal(err)
	}
	b.Run("calculate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := order.Calculate(in, cat); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("index+calculate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := order.Calculate(in, order.NewCatalog(prods, skus)); err != nil {
				b.Fatal(err)
			}
		}
	})
	o, _ := order.Calculate(in, cat)
	b.Run("fork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = o.Fork()
		}
	})
	b.Run("clone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = o.Clone()
		}
	})
}
