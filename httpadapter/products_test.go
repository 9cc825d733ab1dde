package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"
)

const teeBody = `{"source_id":"tee","name":"T-shirt","price":2500,"attributes":["color","size"],` +
	`"metadata":{"brand":"acme","html":"<b>&</b>"},"image_url":"https://cdn.example.com/tee.png","unknown_field":true}`

const skuBody = `{"source_id":"tee-red-m","sku":"Red M","price":2600,"currency":"EUR",` +
	`"attributes":{"color":"red","size":"M"},"image_url":"https://cdn.example.com/red.jpg","metadata":{"stock":3}}`

// seedCatalog creates the product "tee" (attributes color, size) and its SKU
// "tee-red-m".
func (h *harness) seedCatalog() {
	h.t.Helper()
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: teeBody}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products/tee/skus", body: skuBody}, http.StatusOK)
}

func TestProducts(t *testing.T) {
	h := newHarness(t)
	h.run(t, "products", []step{
		{"create", req{method: http.MethodPost, target: "/v1/products", body: teeBody}, 200},
		{"create_upsert_by_source_id", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"tee","price":2700}`}, 200},
		{"create_upsert_by_id", req{method: http.MethodPost, target: "/v1/products", body: `{"id":"prod_00000000000000000002","name":"T-shirt (cotton)"}`}, 200},
		{"create_empty_body", req{method: http.MethodPost, target: "/v1/products"}, 200},
		{"get_by_id", req{method: http.MethodGet, target: "/v1/products/prod_00000000000000000002"}, 200},
		{"get_by_source_id", req{method: http.MethodGet, target: "/v1/products/tee"}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/products"}, 200},
		{"list_page", req{method: http.MethodGet, target: "/v1/products?limit=1&page=2&order=created_at"}, 200},
		{"list_filter", req{method: http.MethodGet, target: "/v1/products?filters[name][conditions][$starts_with]=T-shirt"}, 200},
		{"list_filter_in_or", req{method: http.MethodGet, target: "/v1/products?filters[source_id][conditions][$in][0]=tee&filters[source_id][conditions][$in][1]=5h1pp1ng&filters[name][conditions][$is_unknown]=true&filters[junction]=or&order=-updated_at"}, 200},
		{"list_end_date", req{method: http.MethodGet, target: "/v1/products?end_date=2026-01-01T00:00:01Z"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/products/tee", body: `{"name":"Tee","metadata":{"season":"summer"},"source_id":"ignored"}`}, 200},
		{"sku_create", req{method: http.MethodPost, target: "/v1/products/tee/skus", body: skuBody}, 200},
		{"sku_create_upsert", req{method: http.MethodPost, target: "/v1/products/prod_00000000000000000002/skus", body: `{"source_id":"tee-red-m","price":2650}`}, 200},
		{"sku_list", req{method: http.MethodGet, target: "/v1/products/tee/skus"}, 200},
		{"sku_update", req{method: http.MethodPut, target: "/v1/products/tee/skus/tee-red-m", body: `{"price":2550,"attributes":{"color":"red"}}`}, 200},
		{"sku_get_by_source_id", req{method: http.MethodGet, target: "/v1/skus/tee-red-m"}, 200},
		{"sku_get_by_id", req{method: http.MethodGet, target: "/v1/skus/sku_00000000000000000004"}, 200},
		{"get_with_skus", req{method: http.MethodGet, target: "/v1/products/tee"}, 200},
		{"sku_delete", req{method: http.MethodDelete, target: "/v1/products/tee/skus/tee-red-m"}, 204},
		{"sku_get_after_delete", req{method: http.MethodGet, target: "/v1/skus/tee-red-m"}, 404},
		{"sku_recreate_after_delete", req{method: http.MethodPost, target: "/v1/products/tee/skus", body: `{"source_id":"tee-red-m","sku":"Red M again"}`}, 200},
		{"sku_delete_force", req{method: http.MethodDelete, target: "/v1/products/tee/skus/tee-red-m?force=true"}, 204},
		{"delete", req{method: http.MethodDelete, target: "/v1/products/tee?force=false"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/products/tee"}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: "/v1/products"}, 200},
		{"recreate_same_source_id", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"tee","name":"T-shirt v2"}`}, 200},
		{"delete_force", req{method: http.MethodDelete, target: "/v1/products/tee?force=true"}, 204},
		{"get_after_force_delete", req{method: http.MethodGet, target: "/v1/products/tee"}, 404},
	})
}

// productErrors are failing requests on a harness seeded by seedCatalog.
var productErrors = []step{
	{"unauthorized_no_credentials", req{method: http.MethodGet, target: "/v1/products", creds: credsNone}, 401},
	{"unauthorized_wrong_token", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x"}`, creds: credsWrongToken}, 401},
	{"unauthorized_management_pair", req{method: http.MethodGet, target: "/v1/products/tee", creds: credsManagement}, 401},
	{"not_found_product", req{method: http.MethodGet, target: "/v1/products/nope"}, 404},
	{"not_found_update", req{method: http.MethodPut, target: "/v1/products/nope", body: `{"name":"x"}`}, 404},
	{"not_found_delete", req{method: http.MethodDelete, target: "/v1/products/nope"}, 404},
	{"not_found_upsert_id", req{method: http.MethodPost, target: "/v1/products", body: `{"id":"prod_nope","name":"x"}`}, 404},
	{"not_found_sku", req{method: http.MethodGet, target: "/v1/skus/nope"}, 404},
	{"not_found_sku_list", req{method: http.MethodGet, target: "/v1/products/nope/skus"}, 404},
	{"not_found_sku_create", req{method: http.MethodPost, target: "/v1/products/nope/skus", body: `{"sku":"x"}`}, 404},
	{"not_found_sku_of_other_product", req{method: http.MethodPut, target: "/v1/products/5h1pp1ng/skus/tee-red-m", body: `{"price":1}`}, 404},
	{"not_found_sku_delete", req{method: http.MethodDelete, target: "/v1/products/tee/skus/nope"}, 404},
	{"method_not_allowed_collection", req{method: http.MethodPut, target: "/v1/products", body: `{}`}, 405},
	{"method_not_allowed_item", req{method: http.MethodPost, target: "/v1/products/tee", body: `{}`}, 405},
	{"method_not_allowed_skus", req{method: http.MethodDelete, target: "/v1/products/tee/skus"}, 405},
	{"method_not_allowed_sku", req{method: http.MethodGet, target: "/v1/products/tee/skus/tee-red-m"}, 405},
	{"method_not_allowed_skus_get", req{method: http.MethodPatch, target: "/v1/skus/tee-red-m"}, 405},
	{"unknown_path", req{method: http.MethodGet, target: "/v1/products/tee/variants"}, 404},
	{"invalid_json", req{method: http.MethodPost, target: "/v1/products", body: `{"name": }`}, 400},
	{"invalid_json_trailing_data", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x"} {"name":"y"}`}, 400},
	{"invalid_payload_not_object", req{method: http.MethodPost, target: "/v1/products", body: `["tee"]`}, 400},
	{"invalid_payload_null", req{method: http.MethodPost, target: "/v1/products", body: `null`}, 400},
	{"invalid_payload_price_type", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x","price":"cheap"}`}, 400},
	{"invalid_payload_price_fraction", req{method: http.MethodPut, target: "/v1/products/tee", body: `{"price":12.5}`}, 400},
	{"invalid_payload_attribute_type", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x","attributes":["color",7]}`}, 400},
	{"invalid_payload_metadata_type", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x","metadata":["a"]}`}, 400},
	{"invalid_payload_negative_price", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x","price":-1}`}, 400},
	{"invalid_payload_image_url_http", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x","image_url":"http://cdn.example.com/x.png"}`}, 400},
	{"invalid_payload_image_url_gif", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x","image_url":"https://cdn.example.com/x.gif"}`}, 400},
	{"invalid_payload_too_large", req{method: http.MethodPost, target: "/v1/products", body: `{"name":"` + strings.Repeat("x", 1<<20) + `"}`}, 400},
	{"unsupported_media_type", req{method: http.MethodPost, target: "/v1/products", body: `name=x`, contentType: "application/x-www-form-urlencoded"}, 415},
	{"sku_invalid_attribute", req{method: http.MethodPost, target: "/v1/products/tee/skus", body: `{"sku":"x","attributes":{"weight":"1kg"}}`}, 400},
	{"sku_invalid_attribute_update", req{method: http.MethodPut, target: "/v1/products/tee/skus/tee-red-m", body: `{"attributes":{"color":"blue","fabric":"silk"}}`}, 400},
	{"sku_invalid_currency", req{method: http.MethodPost, target: "/v1/products/tee/skus", body: `{"sku":"x","currency":"EURO"}`}, 400},
	{"sku_invalid_price_type", req{method: http.MethodPut, target: "/v1/products/tee/skus/tee-red-m", body: `{"price":"10"}`}, 400},
	{"sku_invalid_image_url", req{method: http.MethodPost, target: "/v1/products/tee/skus", body: `{"sku":"x","image_url":"https://cdn.example.com/x.gif"}`}, 400},
	{"delete_bad_force", req{method: http.MethodDelete, target: "/v1/products/tee?force=yes"}, 400},
	{"delete_sku_bad_force", req{method: http.MethodDelete, target: "/v1/products/tee/skus/tee-red-m?force=yes"}, 400},
	{"delete_shipping", req{method: http.MethodDelete, target: "/v1/products/5h1pp1ng"}, 400},
	{"list_limit_zero", req{method: http.MethodGet, target: "/v1/products?limit=0"}, 400},
	{"list_limit_too_big", req{method: http.MethodGet, target: "/v1/products?limit=101"}, 400},
	{"list_limit_not_integer", req{method: http.MethodGet, target: "/v1/products?limit=ten"}, 400},
	{"list_page_zero", req{method: http.MethodGet, target: "/v1/products?page=0"}, 400},
	{"list_page_over_limit", req{method: http.MethodGet, target: "/v1/products?page=1001"}, 400},
	{"list_bad_order", req{method: http.MethodGet, target: "/v1/products?order=price"}, 400},
	{"list_bad_end_date", req{method: http.MethodGet, target: "/v1/products?end_date=yesterday"}, 400},
	{"list_bad_filter_key", req{method: http.MethodGet, target: "/v1/products?filters[name][$is]=x"}, 400},
	{"list_bad_filter_field", req{method: http.MethodGet, target: "/v1/products?filters[price][conditions][$is]=1"}, 400},
	{"list_bad_filter_op", req{method: http.MethodGet, target: "/v1/products?filters[name][conditions][$after]=2026-01-01"}, 400},
	{"list_bad_filter_junction", req{method: http.MethodGet, target: "/v1/products?filters[junction]=xor"}, 400},
	{"list_bad_query_escape", req{method: http.MethodGet, target: "/v1/products?limit=%zz"}, 400},
	{"sku_list_limit_too_big", req{method: http.MethodGet, target: "/v1/products/tee/skus?limit=101"}, 400},
}

func TestProductErrors(t *testing.T) {
	h := newHarness(t)
	h.seedCatalog()
	h.run(t, "products/errors", productErrors)
}

// Isolation rows of products and SKUs (isolation_test.go).
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		p := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"iso-tee","name":"Isolated tee","attributes":["size"]}`}, http.StatusOK)
		ids["productId"] = p["id"].(string)
		s := h.mustDo(req{method: http.MethodPost, target: "/v1/products/iso-tee/skus", body: `{"source_id":"iso-tee-m","sku":"Isolated M"}`}, http.StatusOK)
		ids["skuId"] = s["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get product", http.MethodGet, "/v1/products/{productId}", ""},
		isolationRow{"update product", http.MethodPut, "/v1/products/{productId}", `{"name":"Taken"}`},
		isolationRow{"delete product", http.MethodDelete, "/v1/products/{productId}", ""},
		isolationRow{"upsert product by id", http.MethodPost, "/v1/products", `{"id":"{productId}","name":"Taken"}`},
		isolationRow{"list product skus", http.MethodGet, "/v1/products/{productId}/skus", ""},
		isolationRow{"create sku", http.MethodPost, "/v1/products/{productId}/skus", `{"source_id":"iso-new"}`},
		isolationRow{"upsert sku by id", http.MethodPost, "/v1/products/{productId}/skus", `{"id":"{skuId}","price":1}`},
		isolationRow{"update sku", http.MethodPut, "/v1/products/{productId}/skus/{skuId}", `{"price":1}`},
		isolationRow{"delete sku", http.MethodDelete, "/v1/products/{productId}/skus/{skuId}", ""},
		isolationRow{"get sku", http.MethodGet, "/v1/skus/{skuId}", ""},
	)
	isolationLists = append(isolationLists, isolationRow{"list products", http.MethodGet, "/v1/products", ""})
}
