package httpadapter_test

import (
	"net/http"
	"testing"
)

// seedCustomers creates three customers (alice and bob in Warsaw, carol in
// Krakow without an email), one second apart, and an order of alice's.
func (h *harness) seedCustomers() {
	h.t.Helper()
	for _, body := range []string{
		`{"source_id":"alice","name":"Alice","email":"alice@example.com","address":{"city":"Warsaw"},"metadata":{"tier":"gold"}}`,
		`{"source_id":"bob","name":"Bob","email":"bob@example.com","address":{"city":"Warsaw"}}`,
		`{"source_id":"carol","name":"Carol","address":{"city":"Krakow"}}`,
	} {
		h.clock.Advance(1e9)
		h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: body}, http.StatusOK)
	}
	h.clock.Advance(1e9)
	h.mustDo(req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"o-1","amount":2500,"status":"PAID","customer":{"source_id":"alice"}}`}, http.StatusOK)
}

func TestCustomers(t *testing.T) {
	h := newHarness(t)
	h.seedCustomers()
	h.run(t, "customers", []step{
		{"list", req{method: http.MethodGet, target: "/v1/customers"}, 200},
		{"list_oldest_first_page_2", req{method: http.MethodGet, target: "/v1/customers?order=created_at&limit=2&page=2"}, 200},
		{"list_by_source_id_desc", req{method: http.MethodGet, target: "/v1/customers?order=-source_id&limit=1"}, 200},
		{"list_city", req{method: http.MethodGet, target: "/v1/customers?city=Warsaw"}, 200},
		{"list_email", req{method: http.MethodGet, target: "/v1/customers?email=bob@example.com"}, 200},
		{"list_name", req{method: http.MethodGet, target: "/v1/customers?name=Carol"}, 200},
		{"list_created_before", req{method: http.MethodGet, target: "/v1/customers?created_at[before]=2026-01-01T00:00:02.500Z"}, 200},
		{"list_starting_after", req{method: http.MethodGet, target: "/v1/customers?starting_after=2026-01-01T00:00:03Z"}, 200},
		{"list_segment", req{method: http.MethodGet, target: "/v1/customers?segment_id=seg_1"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/customers/alice",
			body: `{"name":"Alice Smith","phone":"+48 600 100 200","metadata":{"tier":"platinum"},"source_id":"ignored","id":"ignored"}`}, 200},
		{"update_clear_with_null", req{method: http.MethodPut, target: "/v1/customers/alice", body: `{"phone":null,"address":null,"email":"alice@example.org"}`}, 200},
		{"update_by_id_nothing", req{method: http.MethodPut, target: "/v1/customers/cust_00000000000000000004", body: `{}`}, 200},
		{"list_updated_after", req{method: http.MethodGet, target: "/v1/customers?updated_at[after]=2026-01-01T00:00:01Z"}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/customers/bob"}, 204},
		{"get_deleted", req{method: http.MethodGet, target: "/v1/customers/bob"}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: "/v1/customers?order=created_at"}, 200},
		{"recreate_deleted_source_id", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"bob","name":"Bob again"}`}, 200},
		{"permanent_deletion_of_binned", req{method: http.MethodPost, target: "/v1/customers/cust_00000000000000000003/permanent-deletion"}, 200},
		{"permanent_deletion", req{method: http.MethodPost, target: "/v1/customers/carol/permanent-deletion"}, 200},
		{"get_permanently_deleted", req{method: http.MethodGet, target: "/v1/customers/carol"}, 404},
		{"list_after_permanent_deletion", req{method: http.MethodGet, target: "/v1/customers?order=created_at"}, 200},
	})
	h.run(t, "customers/errors", []step{
		{"update_missing", req{method: http.MethodPut, target: "/v1/customers/alice2@morgan.com", body: `{"name":"X"}`}, 404},
		{"update_name_type", req{method: http.MethodPut, target: "/v1/customers/alice", body: `{"name":42}`}, 400},
		{"update_bad_birthdate", req{method: http.MethodPut, target: "/v1/customers/alice", body: `{"birthdate":"31-12-1990"}`}, 400},
		{"delete_missing", req{method: http.MethodDelete, target: "/v1/customers/nobody"}, 404},
		{"delete_twice", req{method: http.MethodDelete, target: "/v1/customers/cust_00000000000000000003"}, 404},
		{"permanent_deletion_missing", req{method: http.MethodPost, target: "/v1/customers/nobody/permanent-deletion"}, 404},
		{"list_page_100", req{method: http.MethodGet, target: "/v1/customers?page=100"}, 400},
		{"list_bad_order", req{method: http.MethodGet, target: "/v1/customers?order=name"}, 400},
		{"list_bad_date", req{method: http.MethodGet, target: "/v1/customers?created_at[after]=yesterday"}, 400},
		{"list_starting_after_other_order", req{method: http.MethodGet, target: "/v1/customers?starting_after=2026-01-01T00:00:03Z&order=source_id"}, 400},
	})
}
