package httpadapter_test

import (
	"net/http"
	"testing"
)

const (
	goldSegmentBody   = `{"name":"Gold club","type":"auto-update","filter":{"junction":"and","metadata.club":{"conditions":{"$in":["gold","platinum"]}},"created_at":{"conditions":{"$after":["2020-01-01T00:00:00.000Z"]}}}}`
	staticSegmentBody = `{"name":"Picked","type":"static","customers":["seg-alice"]}`
)

func TestSegments(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"seg-alice","metadata":{"club":"gold"}}`}, http.StatusOK)
	h.run(t, "segments", []step{
		{"create_auto_update", req{method: http.MethodPost, target: "/v1/segments", body: goldSegmentBody}, 200},
		{"create_static", req{method: http.MethodPost, target: "/v1/segments", body: staticSegmentBody}, 200},
		{"create_passive", req{method: http.MethodPost, target: "/v1/segments",
			body: `{"name":"Warsaw","type":"passive","filter":{"address.city":{"conditions":{"$is":"Warsaw"}}}}`}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/segments/seg_00000000000000000004"}, 200},
		{"customer_segments", req{method: http.MethodGet, target: "/v1/customers/seg-alice/segments"}, 200},
		// An update moves the customer out of the gold segment and into Warsaw.
		{"update_customer", req{method: http.MethodPut, target: "/v1/customers/seg-alice",
			body: `{"metadata":{"club":"bronze"},"address":{"city":"Warsaw"}}`}, 200},
		{"customer_segments_after_update", req{method: http.MethodGet, target: "/v1/customers/seg-alice/segments"}, 200},
		{"unknown_customer_segments", req{method: http.MethodGet, target: "/v1/customers/nobody/segments"}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/segments/seg_00000000000000000004"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/segments/seg_00000000000000000004"}, 404},
		{"customer_segments_after_delete", req{method: http.MethodGet, target: "/v1/customers/seg-alice/segments"}, 200},
	})
}

var segmentErrors = []step{
	{"not_found", req{method: http.MethodGet, target: "/v1/segments/seg_nope"}, 404},
	{"not_found_delete", req{method: http.MethodDelete, target: "/v1/segments/seg_nope"}, 404},
	{"invalid_json", req{method: http.MethodPost, target: "/v1/segments", body: `{"name":"x"`}, 400},
	{"missing_name", req{method: http.MethodPost, target: "/v1/segments", body: `{"type":"static","customers":["seg-alice"]}`}, 400},
	{"unknown_type", req{method: http.MethodPost, target: "/v1/segments", body: `{"name":"x","type":"dynamic"}`}, 400},
	{"static_without_customers", req{method: http.MethodPost, target: "/v1/segments", body: `{"name":"x","type":"static"}`}, 400},
	{"static_unknown_customer", req{method: http.MethodPost, target: "/v1/segments", body: `{"name":"x","type":"static","customers":["nobody"]}`}, 404},
	{"filter_unknown_field", req{method: http.MethodPost, target: "/v1/segments",
		body: `{"name":"x","type":"auto-update","filter":{"shoe_size":{"conditions":{"$is":"42"}}}}`}, 400},
	{"filter_unknown_operator", req{method: http.MethodPost, target: "/v1/segments",
		body: `{"name":"x","type":"auto-update","filter":{"birthdate":{"conditions":{"$next_month":[true]}}}}`}, 400},
	{"filter_missing", req{method: http.MethodPost, target: "/v1/segments", body: `{"name":"x","type":"passive"}`}, 400},
	{"unauthorized", req{method: http.MethodGet, target: "/v1/segments/seg_nope", creds: credsNone}, 401},
}

func TestSegmentErrors(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"seg-alice"}`}, http.StatusOK)
	h.run(t, "segments/errors", segmentErrors)
}

// Isolation rows of segments (isolation_test.go): project B reads and
// deletes A's segment and lists the segments of A's customer.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"iso-seg-customer"}`}, http.StatusOK)
		s := h.mustDo(req{method: http.MethodPost, target: "/v1/segments", body: `{"name":"iso","type":"static","customers":["iso-seg-customer"]}`}, http.StatusOK)
		ids["segmentId"] = s["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get segment", http.MethodGet, "/v1/segments/{segmentId}", ""},
		isolationRow{"delete segment", http.MethodDelete, "/v1/segments/{segmentId}", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"customer segments", http.MethodGet, "/v1/customers/{customerId}/segments", ""},
		isolationRow{"customer segments by source id", http.MethodGet, "/v1/customers/iso-seg-customer/segments", ""},
	)
}
