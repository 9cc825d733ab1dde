package httpadapter_test

import (
	"net/http"
	"testing"
)

const (
	circleBody  = `{"name":"Warsaw centre","shape":{"type":"circle","format":"distance","distance":{"center":"geo:52.2297,21.0122","radius":"1.54 km"}}}`
	polygonBody = `{"name":"Old town","shape":{"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":[[[21.0,52.24],[21.02,52.24],[21.02,52.25],[21.0,52.25],[21.0,52.24]]]}}}`
)

// seedLocations creates loc_..02 (circle) and loc_..03 (polygon).
func (h *harness) seedLocations() {
	h.t.Helper()
	for _, b := range []string{circleBody, polygonBody} {
		h.mustDo(req{method: http.MethodPost, target: "/v1/locations", body: b}, http.StatusOK)
	}
}

func TestLocations(t *testing.T) {
	h := newHarness(t)
	h.run(t, "locations", []step{
		{"create_circle", req{method: http.MethodPost, target: "/v1/locations", body: circleBody}, 200},
		{"create_polygon", req{method: http.MethodPost, target: "/v1/locations", body: polygonBody}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/locations/loc_00000000000000000002"}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/locations"}, 200},
		{"list_limit", req{method: http.MethodGet, target: "/v1/locations?limit=1&order=created_at"}, 200},
		{"list_filter_name", req{method: http.MethodGet, target: "/v1/locations?filters[name][conditions][$starts_with]=Old"}, 200},
		{"list_filter_created_at", req{method: http.MethodGet, target: "/v1/locations?filters[created_at][conditions][$before][0]=2026-01-01T00:00:01.500Z"}, 200},
		{"list_end_date", req{method: http.MethodGet, target: "/v1/locations?end_date=2026-01-01"}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/locations/loc_00000000000000000002"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/locations/loc_00000000000000000002"}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: "/v1/locations"}, 200},
	})
}

// locationErrors are failing requests on a harness seeded by seedLocations.
var locationErrors = []step{
	{"unauthorized_no_credentials", req{method: http.MethodGet, target: "/v1/locations", creds: credsNone}, 401},
	{"unauthorized_management_pair", req{method: http.MethodPost, target: "/v1/locations", body: circleBody, creds: credsManagement}, 401},
	{"not_found", req{method: http.MethodGet, target: "/v1/locations/loc_nope"}, 404},
	{"not_found_delete", req{method: http.MethodDelete, target: "/v1/locations/loc_nope"}, 404},
	{"method_not_allowed", req{method: http.MethodPut, target: "/v1/locations/loc_00000000000000000002", body: circleBody}, 405},
	{"invalid_json", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x"`}, 400},
	{"invalid_payload_missing_name", req{method: http.MethodPost, target: "/v1/locations", body: `{"shape":{"type":"circle","format":"distance","distance":{"center":"geo:1,2","radius":"1km"}}}`}, 400},
	{"invalid_payload_missing_shape", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x"}`}, 400},
	{"invalid_payload_shape_type", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":"circle"}`}, 400},
	{"invalid_payload_unknown_shape", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"square","format":"distance"}}`}, 400},
	{"invalid_payload_bad_radius", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"circle","format":"distance","distance":{"center":"geo:52.2,21.0","radius":"-3 parsecs"}}}`}, 400},
	{"invalid_payload_zero_radius", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"circle","format":"distance","distance":{"center":"geo:52.2,21.0","radius":"0km"}}}`}, 400},
	{"invalid_payload_bad_center", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"circle","format":"distance","distance":{"center":"geo:95,21","radius":"1km"}}}`}, 400},
	{"invalid_payload_polygon_not_closed", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":[[[21.0,52.24],[21.02,52.24],[21.02,52.25],[21.0,52.25]]]}}}`}, 400},
	{"invalid_payload_polygon_coordinate_type", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":[[[21.0,52.24],[21.02,"52.24"]]]}}}`}, 400},
	{"invalid_payload_polygon_wrong_format", req{method: http.MethodPost, target: "/v1/locations", body: `{"name":"x","shape":{"type":"polygon","format":"distance","distance":{"center":"geo:1,2","radius":"1km"}}}`}, 400},
	{"list_limit_zero", req{method: http.MethodGet, target: "/v1/locations?limit=0"}, 400},
	{"list_limit_too_big", req{method: http.MethodGet, target: "/v1/locations?limit=101"}, 400},
	{"list_bad_order", req{method: http.MethodGet, target: "/v1/locations?order=name"}, 400},
	{"list_bad_end_date", req{method: http.MethodGet, target: "/v1/locations?end_date=2026-13-45"}, 400},
	{"list_bad_filter_key", req{method: http.MethodGet, target: "/v1/locations?filters[name]conditions[$is]=x"}, 400},
	{"list_bad_filter_date", req{method: http.MethodGet, target: "/v1/locations?filters[created_at][conditions][$after]=soon"}, 400},
	{"list_filter_needs_one_value", req{method: http.MethodGet, target: "/v1/locations?filters[name][conditions][$is]=a&filters[name][conditions][$is]=b"}, 400},
}

func TestLocationErrors(t *testing.T) {
	h := newHarness(t)
	h.seedLocations()
	h.run(t, "locations/errors", locationErrors)
}

// Isolation rows of locations (isolation_test.go).
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		l := h.mustDo(req{method: http.MethodPost, target: "/v1/locations", body: circleBody}, http.StatusOK)
		ids["locationId"] = l["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get location", http.MethodGet, "/v1/locations/{locationId}", ""},
		isolationRow{"delete location", http.MethodDelete, "/v1/locations/{locationId}", ""},
	)
	isolationLists = append(isolationLists, isolationRow{"list locations", http.MethodGet, "/v1/locations", ""})
}
