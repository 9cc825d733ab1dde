package httpadapter_test

import (
	"net/http"
	"testing"
)

func TestCategories(t *testing.T) {
	h := newHarness(t)
	h.run(t, "categories", []step{
		{"create", req{method: http.MethodPost, target: "/v1/categories", body: `{"name":"First","hierarchy":1}`}, 200},
		{"create_second", req{method: http.MethodPost, target: "/v1/categories", body: `{"name":"Second","hierarchy":2}`}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/categories/cat_00000000000000000002", body: `{"name":"Summer","hierarchy":5}`}, 200},
		{"update_by_name", req{method: http.MethodPut, target: "/v1/categories/Second", body: `{"hierarchy":0}`}, 200},
		{"update_duplicate_name", req{method: http.MethodPut, target: "/v1/categories/Second", body: `{"name":"Summer"}`}, 409},
		{"update_bad_hierarchy", req{method: http.MethodPut, target: "/v1/categories/Second", body: `{"hierarchy":-1}`}, 400},
		{"update_not_found", req{method: http.MethodPut, target: "/v1/categories/cat_nope", body: `{"hierarchy":1}`}, 404},
		{"get_updated", req{method: http.MethodGet, target: "/v1/categories/Summer"}, 200},
		{"campaign_in_category", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Uses Summer","vouchers_count":1,` +
			`"voucher":{"discount":{"type":"PERCENT","percent_off":10}},"category":"Summer"}`}, 200},
		{"delete_in_use", req{method: http.MethodDelete, target: "/v1/categories/Summer"}, 400},
		{"delete", req{method: http.MethodDelete, target: "/v1/categories/Second"}, 204},
		{"delete_again", req{method: http.MethodDelete, target: "/v1/categories/Second"}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: "/v1/categories"}, 200},
	})
}

// Isolation rows of the category writes (the category of the campaigns' seed).
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"update category", http.MethodPut, "/v1/categories/{categoryId}", `{"name":"Taken"}`},
		isolationRow{"delete category", http.MethodDelete, "/v1/categories/{categoryId}", ""},
	)
}
