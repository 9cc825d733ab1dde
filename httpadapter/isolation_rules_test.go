package httpadapter_test

import "net/http"

// Isolation rows of validation rules and assignments (isolation_test.go).
// No assignment can be made before campaigns exist, so {assignmentId} is an
// id that names nothing: project B is refused on A's rule first.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		r := h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Isolated rule",` +
			`"rules":{"1":{"name":"order.metadata","property":"location","conditions":{"$is":["Santorini"]}},"logic":"1"}}`}, http.StatusOK)
		ids["ruleId"] = r["id"].(string)
		ids["assignmentId"] = "asgm_isolation"
	})
	isolationRows = append(isolationRows,
		isolationRow{"get rule", http.MethodGet, "/v1/validation-rules/{ruleId}", ""},
		isolationRow{"update rule", http.MethodPut, "/v1/validation-rules/{ruleId}", `{"name":"Taken"}`},
		isolationRow{"delete rule", http.MethodDelete, "/v1/validation-rules/{ruleId}", ""},
		isolationRow{"list rule assignments", http.MethodGet, "/v1/validation-rules/{ruleId}/assignments", ""},
		isolationRow{"assign rule", http.MethodPost, "/v1/validation-rules/{ruleId}/assignments", `{"related_object_type":"campaign","related_object_id":"camp_isolation"}`},
		isolationRow{"unassign rule", http.MethodDelete, "/v1/validation-rules/{ruleId}/assignments/{assignmentId}", ""},
		isolationRow{"list assignments of A's rule", http.MethodGet, "/v1/validation-rules-assignments?rule={ruleId}", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list rules", http.MethodGet, "/v1/validation-rules", ""},
		isolationRow{"list assignments", http.MethodGet, "/v1/validation-rules-assignments", ""},
	)
}
