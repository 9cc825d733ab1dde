package httpadapter

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

// sqlStateError is a driver error carrying an SQLSTATE, as pgconn.PgError
// does.
type sqlStateError struct{ code string }

func (e *sqlStateError) Error() string {
	return "FATAL: the database says no (SQLSTATE " + e.code + ")"
}
func (e *sqlStateError) SQLState() string { return e.code }

// A store error whose SQLSTATE says the database is shutting down,
// recovering, out of connections or lost the connection, or a conflict
// that outlived the retry budget, is a 503 with Retry-After, never a 500;
// an SQLSTATE that says a bug stays a 500.
func TestTransientStoreErrorsAre503(t *testing.T) {
	s, logs := faultyServer(t)
	s.mux = s.buildMux(append(s.routes(),
		route{http.MethodGet, "/v1/test/sqlstate/{code}", appKey, withoutBody(func(c *call) (any, error) {
			return nil, fmt.Errorf("bunstore: list products: %w", &sqlStateError{c.path("code")})
		})},
		route{http.MethodGet, "/v1/test/retries-spent", appKey, withoutBody(func(*call) (any, error) {
			return nil, (&promotype.Retries{}).Final(fmt.Errorf("%w: %w", promotype.ErrRetryable, errors.New("deadlock")))
		})},
	))
	const unavailable = `{"code":503,"key":"service_unavailable","message":"Service unavailable",` +
		`"details":"The database did not answer in time or cannot be reached; retry later","request_id":"v-000000000000000042"}`
	tests := []struct {
		path string
		code int
		body string
	}{
		{"/v1/test/sqlstate/57P01", 503, unavailable}, // admin_shutdown
		{"/v1/test/sqlstate/57P02", 503, unavailable}, // crash_shutdown
		{"/v1/test/sqlstate/57P03", 503, unavailable}, // cannot_connect_now
		{"/v1/test/sqlstate/53300", 503, unavailable}, // too_many_connections
		{"/v1/test/sqlstate/08000", 503, unavailable}, // connection_exception
		{"/v1/test/sqlstate/08001", 503, unavailable}, // sqlclient_unable_to_establish_sqlconnection
		{"/v1/test/sqlstate/08003", 503, unavailable}, // connection_does_not_exist
		{"/v1/test/sqlstate/08006", 503, unavailable}, // connection_failure
		{"/v1/test/sqlstate/40P01", 503, unavailable}, // deadlock_detected outside a retried transaction
		{"/v1/test/sqlstate/40001", 503, unavailable}, // serialization_failure outside a retried transaction
		{"/v1/test/retries-spent", 503, `{"code":503,"key":"service_unavailable","message":"Service unavailable",` +
			`"details":"The request kept meeting concurrent writes; retry later","request_id":"v-000000000000000042"}`},
		{"/v1/test/sqlstate/42P01", 500, internalErrorBody}, // undefined_table: a bug
		{"/v1/test/sqlstate/23502", 500, internalErrorBody}, // not_null_violation: a bug
	}
	for _, tc := range tests {
		rec := serve(s, tc.path)
		retry := rec.Header().Get("Retry-After")
		if d := cmp.Diff(tc.body, strings.TrimSpace(rec.Body.String())); rec.Code != tc.code || d != "" {
			t.Errorf("GET %s: status %d, want %d; body (-want +got):\n%s", tc.path, rec.Code, tc.code, d)
		}
		if wantRetry := tc.code == 503; (retry != "") != wantRetry {
			t.Errorf("GET %s: Retry-After %q", tc.path, retry)
		}
	}
	if !strings.Contains(logs.String(), "SQLSTATE 57P01") {
		t.Errorf("the cause of a 503 is not logged:\n%s", logs)
	}
}
