package httpadapter_test

import (
	"net/http"
	"testing"
)

// seedCollectionProducts creates prod_..02 "mug" (acme, 2000) with SKU
// sku_..03 "mug-blue", and prod_..04 "tv" (acme, 185000).
func (h *harness) seedCollectionProducts() {
	h.t.Helper()
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug","price":2000,"attributes":["color"],"metadata":{"brand":"acme"}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products/mug/skus", body: `{"source_id":"mug-blue","sku":"Blue mug","price":2100,"attributes":{"color":"blue"},"metadata":{"brand":"acme"}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"tv","name":"TV","price":185000,"metadata":{"brand":"acme"}}`}, http.StatusOK)
}

func TestProductCollections(t *testing.T) {
	h := newHarness(t)
	h.seedCollectionProducts()
	h.run(t, "product_collections", []step{
		{"create_static", req{method: http.MethodPost, target: "/v1/product-collections",
			body: `{"type":"STATIC","name":"Picked","products":[{"id":"tv","object":"product"},{"id":"mug-blue","object":"sku"}]}`}, 200},
		{"create_auto", req{method: http.MethodPost, target: "/v1/product-collections",
			body: `{"type":"AUTO_UPDATE","name":"Cheap acme","filter":{"junction":"and","metadata.brand":{"conditions":{"$is":["acme"]}},"price":{"conditions":{"$less_than":[10000]}}}}`}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/product-collections/pc_00000000000000000005"}, 200},
		{"get_by_name", req{method: http.MethodGet, target: "/v1/product-collections/Cheap%20acme"}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/product-collections"}, 200},
		{"list_page", req{method: http.MethodGet, target: "/v1/product-collections?limit=1&page=2&order=created_at"}, 200},
		{"products_static", req{method: http.MethodGet, target: "/v1/product-collections/pc_00000000000000000005/products"}, 200},
		{"products_auto", req{method: http.MethodGet, target: "/v1/product-collections/pc_00000000000000000006/products"}, 200},
		{"products_auto_page", req{method: http.MethodGet, target: "/v1/product-collections/pc_00000000000000000006/products?limit=1&page=2"}, 200},
		{"duplicate_name", req{method: http.MethodPost, target: "/v1/product-collections", body: `{"type":"STATIC","name":"Picked","products":[]}`}, 409},
		{"missing_product", req{method: http.MethodPost, target: "/v1/product-collections", body: `{"type":"STATIC","name":"X","products":[{"id":"nope","object":"product"}]}`}, 404},
		{"bad_filter_field", req{method: http.MethodPost, target: "/v1/product-collections",
			body: `{"type":"AUTO_UPDATE","name":"X","filter":{"junction":"and","colour":{"conditions":{"$is":["red"]}}}}`}, 400},
		{"no_type", req{method: http.MethodPost, target: "/v1/product-collections", body: `{"name":"X"}`}, 400},
		{"rule_with_collections", req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Cheap acme in the cart",` +
			`"rules":{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"pc_00000000000000000006","object":"products_collection"}]}}},` +
			`"applicable_to":{"included":[{"object":"products_collection","id":"pc_00000000000000000006"}],"excluded":[{"object":"products_collection","id":"pc_00000000000000000005"}]}}`}, 200},
		{"rule_with_missing_collection", req{method: http.MethodPost, target: "/v1/validation-rules",
			body: `{"name":"x","applicable_to":{"included":[{"object":"products_collection","id":"pc_nope"}]}}`}, 404},
		{"delete", req{method: http.MethodDelete, target: "/v1/product-collections/pc_00000000000000000005"}, 204},
		{"get_deleted", req{method: http.MethodGet, target: "/v1/product-collections/pc_00000000000000000005"}, 404},
		{"products_deleted", req{method: http.MethodGet, target: "/v1/product-collections/pc_00000000000000000005/products"}, 404},
	})
}

// Isolation rows of product collections (isolation_test.go).
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"iso-collected","name":"Collected"}`}, http.StatusOK)
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/product-collections",
			body: `{"type":"STATIC","name":"Iso collection","products":[{"id":"iso-collected","object":"product"}]}`}, http.StatusOK)
		ids["productCollectionId"] = c["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get product collection", http.MethodGet, "/v1/product-collections/{productCollectionId}", ""},
		isolationRow{"delete product collection", http.MethodDelete, "/v1/product-collections/{productCollectionId}", ""},
		isolationRow{"list product collection products", http.MethodGet, "/v1/product-collections/{productCollectionId}/products", ""},
		isolationRow{"create collection of A's product", http.MethodPost, "/v1/product-collections",
			`{"type":"STATIC","name":"Taken","products":[{"id":"{productId}","object":"product"}]}`},
	)
	isolationLists = append(isolationLists, isolationRow{"list product collections", http.MethodGet, "/v1/product-collections", ""})
}
