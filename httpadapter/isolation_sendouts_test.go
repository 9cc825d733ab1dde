package httpadapter_test

import "net/http"

// Isolation row of the webhook delivery log (isolation_test.go): the
// webhook of project A is seeded by settings_test.go.
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"list webhook sendouts", http.MethodGet, "/management/v1/projects/{projectId}/webhooks/{webhookId}/sendouts", ""},
	)
}
