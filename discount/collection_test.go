package discount

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	cat "github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// TestCollectionEntries: included and excluded products_collection
// entries select the lines their collection holds (a listed product with
// its SKU lines; a filter over the line's product metadata), exclusion
// winning; without the compiled collections they name no line.
func TestCollectionEntries(t *testing.T) {
	t.Parallel()
	cols := cat.CompileCollections([]*cat.Collection{
		{ID: "pc_static", Type: cat.CollectionStatic, Products: []cat.CollectionItem{{ID: "prod_red", Object: "product"}, {ID: "prod_comics", Object: "product"}}},
		{ID: "pc_sale", Type: cat.CollectionAutoUpdate, Filter: cat.CollectionFilter{"junction": "and",
			"metadata.sale": map[string]any{"conditions": map[string]any{"$is": []any{true}}}}},
	})
	cart := func() *order.Order {
		c := valCart()
		for _, i := range []int{1, 4} { // blue and the vase are on sale
			c.Items[i].Product = &order.ItemProduct{ID: c.Items[i].ProductID, Metadata: promotype.Metadata{"sale": true}}
		}
		return c
	}
	coll := func(id string) Target { return Target{Object: ObjectCollection, ID: id, Effect: ApplyToEvery} }
	off := &Discount{Type: Amount, AmountOff: dec("100"), Effect: ApplyToItems}
	for _, tc := range []struct {
		name string
		app  *Applicability
		want []int64
	}{
		{"static: a product and its SKU line", &Applicability{Included: []Target{coll("pc_static")}, Collections: cols}, []int64{100, 0, 0, 100, 0, 0}},
		{"filtered", &Applicability{Included: []Target{coll("pc_sale")}, Collections: cols}, []int64{0, 100, 0, 0, 100, 0}},
		{"excluded beats included", &Applicability{IncludedAll: true, Excluded: []Target{coll("pc_sale"), coll("pc_static")}, Collections: cols}, []int64{0, 0, 100, 0, 0, 100}},
		{"unknown collection", &Applicability{Included: []Target{coll("pc_gone")}, Collections: cols}, []int64{0, 0, 0, 0, 0, 0}},
		{"not compiled", &Applicability{Included: []Target{coll("pc_static")}}, []int64{0, 0, 0, 0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := cart()
			if _, err := ApplyIndexed(c, off, tc.app, catalog, IndexLines(c)); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, lineDiscounts(c)); d != "" {
				t.Errorf("line discounts (-want +got):\n%s", d)
			}
		})
	}
}
