package httpadapter_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/imports"
)

// TestMetadataKeyPurgeAction: a metadata key purge has no route (the
// hosted service starts it from its dashboard); started through the Go
// API, its action reads over HTTP as any other, with the result
// {message, done_count}, and the products lost the key.
func TestMetadataKeyPurgeAction(t *testing.T) {
	h := newHarness(t)
	for _, body := range []string{`{"name":"A","metadata":{"color":"red","size":1}}`, `{"name":"B","metadata":{"color":"blue"}}`} {
		h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: body}, http.StatusOK)
	}
	ctx := async.WithRequestID(context.Background(), "v-purge")
	ref, err := h.engine.Imports().PurgeMetadataKey(ctx, h.project.ID, imports.PurgeProducts, "color")
	if err != nil {
		t.Fatal(err)
	}
	h.runActions()
	h.run(t, "async_actions", []step{
		{"get_metadata_key_purge", req{method: http.MethodGet, target: "/v1/async-actions/" + ref.AsyncActionID}, 200},
	})
	list := h.mustDo(req{method: http.MethodGet, target: "/v1/products"}, http.StatusOK)
	for _, p := range list["products"].([]any) {
		m := p.(map[string]any)["metadata"].(map[string]any)
		if _, ok := m["color"]; ok {
			t.Errorf("product kept the key: %v", p)
		}
	}
}
