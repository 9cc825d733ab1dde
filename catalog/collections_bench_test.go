package catalog

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/promotype"
)

// BenchmarkCollectionMembership is the per-request cost of collections: the
// memberships of a 50-line cart in a project of 20 STATIC collections of
// 1,000 products and 20 AUTO_UPDATE ones of two conditions.
func BenchmarkCollectionMembership(b *testing.B) {
	var cs []*Collection
	for i := range 20 {
		items := make([]CollectionItem, 1000)
		for j := range items {
			items[j] = CollectionItem{ID: fmt.Sprintf("prod_%d", i*1000+j), Object: "product"}
		}
		cs = append(cs, &Collection{ID: fmt.Sprintf("pc_s%d", i), Type: CollectionStatic, Products: items},
			&Collection{ID: fmt.Sprintf("pc_a%d", i), Type: CollectionAutoUpdate, Filter: CollectionFilter{"junction": "and",
				"metadata.brand": map[string]any{"conditions": map[string]any{"$is": []any{fmt.Sprintf("brand%d", i)}}},
				"price":          map[string]any{"conditions": map[string]any{"$less_than": []any{5000.0}}}}})
	}
	cols := CompileCollections(cs)
	lines := make([]Facts, 50)
	for i := range lines {
		price := int64(100 * i)
		lines[i] = Facts{ID: fmt.Sprintf("prod_%d", i*397), Price: &price, Metadata: promotype.Metadata{"brand": fmt.Sprintf("brand%d", i%20)}}
	}
	b.ReportAllocs()
	var dst []string
	for b.Loop() {
		for i := range lines {
			dst = cols.AppendMembership(dst[:0], &lines[i], nil)
		}
	}
}
