package httpadapter_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// snapshot reads every list of the project (products with their SKUs,
// rewards, locations) in full.
func (h *harness) snapshot() map[string]any {
	h.t.Helper()
	out := map[string]any{}
	for _, path := range []string{"/v1/products", "/v1/rewards", "/v1/locations"} {
		out[path] = h.mustDo(req{method: http.MethodGet, target: path + "?limit=100"}, http.StatusOK)
	}
	for _, p := range listItems(out["/v1/products"].(map[string]any)) {
		id := p.(map[string]any)["id"].(string)
		path := "/v1/products/" + id + "/skus"
		out[path] = h.mustDo(req{method: http.MethodGet, target: path + "?limit=100"}, http.StatusOK)
	}
	return out
}

// TestBadInputChangesNothing sends every failing request of the error tables
// and checks that the project's data is the same afterwards.
func TestBadInputChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seed  func(h *harness)
		steps []step
	}{
		{"products", (*harness).seedCatalog, productErrors},
		{"rewards", (*harness).seedRewards, rewardErrors},
		{"locations", (*harness).seedLocations, locationErrors},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			tc.seed(h)
			before := h.snapshot()
			for _, s := range tc.steps {
				h.clock.Advance(1e9)
				if rec := h.do(s.req); rec.Code < 400 {
					t.Errorf("%s: %s %s = %d, want an error", s.name, s.req.method, s.req.target, rec.Code)
				}
			}
			if diff := cmp.Diff(before, h.snapshot()); diff != "" {
				t.Errorf("data changed (-before +after):\n%s", diff)
			}
		})
	}
}
