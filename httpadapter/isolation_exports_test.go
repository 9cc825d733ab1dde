package httpadapter_test

import "net/http"

// Isolation rows of exports (isolation_test.go): project B reads, deletes
// and lists A's export. The download's only credential is the export's
// token (exports_test.go: a wrong token is a 404 whatever key comes with
// it).
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		e := h.mustDo(req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher"}`}, http.StatusOK)
		ids["exportId"] = e["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get export", http.MethodGet, "/v1/exports/{exportId}", ""},
		isolationRow{"delete export", http.MethodDelete, "/v1/exports/{exportId}", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list exports", http.MethodGet, "/v1/exports", ""},
	)
}
