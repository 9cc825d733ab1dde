package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/httpadapter"
)

// TestListShapes checks the data_ref of every list endpoint: by default the
// hosted service's (its OpenAPI response schema's data_ref), with
// WithUniformLists the hosted API's "data" everywhere, nested lists included.
func TestListShapes(t *testing.T) {
	mp := "/management/v1/projects/{projectId}"
	tests := []struct {
		path   string
		hosted string
	}{
		{"/v1/vouchers", "vouchers"},
		{"/v1/campaigns", "campaigns"},
		{"/v1/products", "products"},
		{"/v1/products/tee/skus", "skus"},
		{"/v1/orders", "orders"},
		{"/v1/async-actions", "async_actions"},
		{"/v1/promotions/tiers", "tiers"},
		{"/v1/promotions/{campaignId}/tiers", "tiers"},
		{"/v1/promotions/stacks", "data"},
		{"/v1/promotions/{campaignId}/stacks", "data"},
		{"/v1/rewards", "data"},
		{"/v1/validation-rules", "data"},
		{"/v1/validation-rules-assignments", "data"},
		{"/v1/categories", "data"},
		{"/v1/locations", "data"},
		{mp + "/webhooks", "data"},
		{mp + "/metadata-schemas", "data"},
		{mp + "/custom-event-schemas", "data"},
		{mp + "/branding", "data"},
	}
	for _, uniform := range []bool{false, true} {
		var opts []httpadapter.Option
		if uniform {
			opts = append(opts, httpadapter.WithUniformLists())
		}
		h := newHarness(t, opts...)
		h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"tee","name":"Tee","price":2000}`}, http.StatusOK)
		h.mustDo(req{method: http.MethodPost, target: "/v1/products/tee/skus", body: `{"source_id":"tee-s","price":2000}`}, http.StatusOK)
		camp := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: promotionCampaignBody}, http.StatusOK)["id"].(string)
		h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: tierAmountBody}, http.StatusOK)
		for _, tc := range tests {
			want := tc.hosted
			if uniform {
				want = "data"
			}
			path := replaceAll(tc.path, "{campaignId}", camp, "{projectId}", h.project.ID)
			got := h.mustDo(req{method: http.MethodGet, target: path}, http.StatusOK)
			if got["data_ref"] != want {
				t.Errorf("uniform=%v: GET %s: data_ref = %v, want %s", uniform, tc.path, got["data_ref"], want)
			}
			if _, ok := got[want].([]any); !ok {
				t.Errorf("uniform=%v: GET %s: no array under %q: %v", uniform, tc.path, want, got)
			}
		}
		// A PROMOTION campaign's promotion object is a nested tier list.
		c := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/" + camp}, http.StatusOK)
		promotion := c["promotion"].(map[string]any)
		want := "tiers"
		if uniform {
			want = "data"
		}
		if diff := cmp.Diff(want, promotion["data_ref"]); diff != "" {
			t.Errorf("uniform=%v: promotion.data_ref (-want +got):\n%s", uniform, diff)
		}
		if items, _ := promotion[want].([]any); len(items) != 1 {
			t.Errorf("uniform=%v: promotion.%s = %v, want 1 tier", uniform, want, promotion[want])
		}
	}
}

func replaceAll(s string, oldnew ...string) string {
	for i := 0; i+1 < len(oldnew); i += 2 {
		s = strings.ReplaceAll(s, oldnew[i], oldnew[i+1])
	}
	return s
}
