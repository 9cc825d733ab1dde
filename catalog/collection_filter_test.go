package catalog

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promo/promotype"
)

func TestCollectionFilterHolds(t *testing.T) {
	t.Parallel()
	src, name, price := "tee-1", "Summer tee", int64(2500)
	tee := Facts{ID: "prod_1", SourceID: &src, Name: &name, Price: &price,
		Metadata: promotype.Metadata{"brand": "acme", "size": 42.0, "colors": []any{"red", "blue"}, "sale": true}}
	bare := Facts{ID: "prod_2"}
	for _, tc := range []struct {
		name      string
		filter    string
		tee, bare bool
	}{
		{"empty and", `{"junction":"and"}`, true, true},
		{"is", `{"junction":"and","metadata.brand":{"conditions":{"$is":["acme"]}}}`, true, false},
		{"is one of several", `{"junction":"and","metadata.brand":{"conditions":{"$is":["other","acme"]}}}`, true, false},
		{"is_not holds on a missing key", `{"junction":"and","metadata.brand":{"conditions":{"$is_not":["acme"]}}}`, false, true},
		{"in on an array", `{"junction":"and","metadata.colors":{"conditions":{"$in":["blue"]}}}`, true, false},
		{"not_in on an array", `{"junction":"and","metadata.colors":{"conditions":{"$not_in":["green"]}}}`, true, true},
		{"not_in hit in an array", `{"junction":"and","metadata.colors":{"conditions":{"$not_in":["red"]}}}`, false, true},
		{"number equals", `{"junction":"and","metadata.size":{"conditions":{"$is":[42]}}}`, true, false},
		{"number as text", `{"junction":"and","metadata.size":{"conditions":{"$is":["42"]}}}`, true, false},
		{"boolean", `{"junction":"and","metadata.sale":{"conditions":{"$is":[true]}}}`, true, false},
		{"price less than", `{"junction":"and","price":{"conditions":{"$less_than":[3000]}}}`, true, false},
		{"price bounds", `{"junction":"and","price":{"conditions":{"$more_than_or_equal":[2500],"$less_than_or_equal":[2500]}}}`, true, false},
		{"price more than", `{"junction":"and","price":{"conditions":{"$more_than":[2500]}}}`, false, false},
		{"name starts with", `{"junction":"and","name":{"conditions":{"$starts_with":["Sum"]}}}`, true, false},
		{"source id ends with", `{"junction":"and","source_id":{"conditions":{"$ends_with":["-1"]}}}`, true, false},
		{"contains", `{"junction":"and","name":{"conditions":{"$contains":["mer t"]}}}`, true, false},
		{"not contain", `{"junction":"and","name":{"conditions":{"$not_contain":["tee"]}}}`, false, true},
		{"has value", `{"junction":"and","metadata.brand":{"conditions":{"$has_value":[]}}}`, true, false},
		{"is unknown", `{"junction":"and","price":{"conditions":{"$is_unknown":[]}}}`, false, true},
		{"id", `{"junction":"and","id":{"conditions":{"$in":["prod_2","prod_3"]}}}`, false, true},
		{"and of two", `{"junction":"and","metadata.brand":{"conditions":{"$is":["acme"]}},"price":{"conditions":{"$more_than":[5000]}}}`, false, false},
		{"or of two", `{"junction":"OR","metadata.brand":{"conditions":{"$is":["acme"]}},"id":{"conditions":{"$is":["prod_2"]}}}`, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var f CollectionFilter
			if err := json.Unmarshal([]byte(tc.filter), &f); err != nil {
				t.Fatal(err)
			}
			p, err := f.compile()
			if err != nil {
				t.Fatal(err)
			}
			if got := p.holds(&tee); got != tc.tee {
				t.Errorf("tee: got %v, want %v", got, tc.tee)
			}
			if got := p.holds(&bare); got != tc.bare {
				t.Errorf("bare: got %v, want %v", got, tc.bare)
			}
		})
	}
}

func TestCollectionFilterRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, filter, details string }{
		{"no junction", `{}`, "Property .filter must have required property 'junction'"},
		{"bad junction", `{"junction":"xor"}`, "Property .filter.junction must be equal to one of the allowed values: and, or"},
		{"unknown field", `{"junction":"and","color":{"conditions":{"$is":["red"]}}}`, "Property .filter.color is not a filterable field (id, source_id, name, price, metadata.<key>)"},
		{"no conditions", `{"junction":"and","price":{}}`, "Property .filter.price must have required property 'conditions'"},
		{"unknown operator", `{"junction":"and","price":{"conditions":{"$near":[1]}}}`, "Property .filter.price.conditions.$near is not a supported condition"},
		{"no values", `{"junction":"and","price":{"conditions":{"$is":[]}}}`, "Property .filter.price.conditions.$is must list between 1 and 100 values"},
		{"object value", `{"junction":"and","price":{"conditions":{"$is":[{}]}}}`, "Property .filter.price.conditions.$is takes strings, numbers or booleans"},
		{"two bounds", `{"junction":"and","price":{"conditions":{"$less_than":[1,2]}}}`, "Property .filter.price.conditions.$less_than takes exactly one number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var f CollectionFilter
			if err := json.Unmarshal([]byte(tc.filter), &f); err != nil {
				t.Fatal(err)
			}
			_, err := f.compile()
			e, ok := err.(*promotype.Error)
			if !ok || e.Key != "invalid_payload" || len(e.Details) < len(tc.details) || e.Details[:len(tc.details)] != tc.details {
				t.Errorf("got %v, want invalid_payload %q", err, tc.details)
			}
		})
	}
}

func TestCollectionsHold(t *testing.T) {
	t.Parallel()
	cols := CompileCollections([]*Collection{
		{ID: "pc_s", Type: CollectionStatic, Products: []CollectionItem{{ID: "prod_1", Object: "product"}, {ID: "sku_9", Object: "sku"}}},
		{ID: "pc_a", Type: CollectionAutoUpdate, Filter: CollectionFilter{"junction": "and",
			"metadata.brand": map[string]any{"conditions": map[string]any{"$is": []any{"acme"}}}}},
	})
	acme := promotype.Metadata{"brand": "acme"}
	for _, tc := range []struct {
		name    string
		product Facts
		sku     *Facts
		want    []string
	}{
		{"listed product", Facts{ID: "prod_1"}, nil, []string{"pc_s"}},
		{"SKU line of a listed product", Facts{ID: "prod_1"}, &Facts{ID: "sku_1"}, []string{"pc_s"}},
		{"listed SKU", Facts{ID: "prod_2"}, &Facts{ID: "sku_9"}, []string{"pc_s"}},
		{"filtered product", Facts{ID: "prod_3", Metadata: acme}, nil, []string{"pc_a"}},
		{"filtered SKU", Facts{ID: "prod_3"}, &Facts{ID: "sku_3", Metadata: acme}, []string{"pc_a"}},
		{"shipping is in no filtered collection", Facts{ID: ShippingID, Metadata: acme}, nil, nil},
		{"neither", Facts{ID: "prod_4"}, nil, nil},
	} {
		got := cols.AppendMembership(nil, &tc.product, tc.sku)
		if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
		for _, id := range []string{"pc_s", "pc_a"} {
			in := len(tc.want) == 1 && tc.want[0] == id
			if cols.Holds(id, &tc.product, tc.sku) != in {
				t.Errorf("%s: Holds(%s) != %v", tc.name, id, in)
			}
		}
	}
	var none *Collections
	if none.Holds("pc_s", &Facts{ID: "prod_1"}, nil) || none.Len() != 0 {
		t.Error("a nil set holds something")
	}
}
