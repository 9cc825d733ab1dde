package httpadapter_test

import (
	"net/http"
	"testing"
)

// TestOrdersExport: POST /v1/orders/export is served (it was a 405: the
// path met the route of GET /v1/orders/{orderId}) and makes an order
// export, as POST /v1/exports with exported_object order does.
func TestOrdersExport(t *testing.T) {
	h := newHarness(t)
	h.seedOrders()
	h.runExports(t, []step{
		{"orders_export", req{method: http.MethodPost, target: "/v1/orders/export",
			body: `{"parameters":{"fields":["source_id","status","amount"],"order":"-created_at","filters":{"status":{"conditions":{"$in":["PAID"]}}}}}`}, 200},
		{"orders_export_default", req{method: http.MethodPost, target: "/v1/orders/export", body: `{}`}, 200},
		{"orders_export_bad_field", req{method: http.MethodPost, target: "/v1/orders/export", body: `{"parameters":{"fields":["colour"]}}`}, 400},
	})
	if rec := h.do(req{method: http.MethodGet, target: "/v1/orders/export"}); rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "POST" {
		// As /v1/orders/import: the literal segment is the route's.
		t.Errorf("GET /v1/orders/export = %d (Allow %q), want 405 (Allow POST)", rec.Code, rec.Header().Get("Allow"))
	}
	h.runActions()
	list := h.mustDo(req{method: http.MethodGet, target: "/v1/exports?order=created_at"}, http.StatusOK)["exports"].([]any)
	u := list[0].(map[string]any)["result"].(map[string]any)["url"].(string)
	rec := h.download(u)
	if want := "Source ID,Status,Amount\nweb-2,PAID,100.00\n"; rec.Code != http.StatusOK || rec.Body.String() != want {
		t.Errorf("orders export file = %d %q, want %q", rec.Code, rec.Body.String(), want)
	}
}

// TestMetadataSchemasV1: GET /v1/metadata-schemas and
// /v1/metadata-schemas/{resource} read the project's schemas with the
// API key pair, as the SDKs call them.
func TestMetadataSchemasV1(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	for _, body := range []string{
		`{"related_object":"product","allow_defined_only":false,"properties":{"color":{"type":"string","optional":true,"array":false}}}`,
		`{"related_object":"customer","allow_defined_only":true,"properties":{"tier":{"type":"number","optional":false,"array":false,"gte":0}}}`,
	} {
		h.mustDo(req{method: http.MethodPost, target: mp + "/metadata-schemas", body: body}, http.StatusOK)
	}
	h.run(t, "metadata_schemas_v1", []step{
		{"list", req{method: http.MethodGet, target: "/v1/metadata-schemas"}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/metadata-schemas/customer"}, 200},
		{"get_missing", req{method: http.MethodGet, target: "/v1/metadata-schemas/order"}, 404},
	})
	if rec := h.do(req{method: http.MethodGet, target: "/v1/metadata-schemas", creds: credsManagement}); rec.Code != http.StatusUnauthorized {
		t.Errorf("with a management key = %d, want 401", rec.Code)
	}
}

// Isolation rows of the hosted routes: project B reads none of A's
// metadata schemas.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/metadata-schemas",
			body: `{"related_object":"isolated_object","properties":{"k":{"type":"string","optional":true,"array":false}}}`}, http.StatusOK)
		ids["resource"] = "isolated_object"
	})
	isolationRows = append(isolationRows,
		isolationRow{"get metadata schema by resource", http.MethodGet, "/v1/metadata-schemas/{resource}", ""},
	)
	isolationLists = append(isolationLists, isolationRow{"list metadata schemas", http.MethodGet, "/v1/metadata-schemas", ""})
}
