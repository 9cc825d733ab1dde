package storagetest

import (
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// testClientKeys checks the client key methods of auth.Store: round trip,
// duplicates, not_found, and the origin lookup of a CORS preflight.
func testClientKeys(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	ka := &auth.ClientKey{AppID: "client-a", ProjectID: a, SecretHash: auth.Hash("secret-client-a"),
		Origins: []string{"https://shop-a.example", "http://localhost:3000"}, CreatedAt: at(1)}
	kb := &auth.ClientKey{AppID: "client-b", ProjectID: b, SecretHash: auth.Hash("secret-client-b"),
		Origins: []string{"https://shop-b.example"}, CreatedAt: at(2)}
	must(t, s.InsertClientKey(ctx, ka))
	must(t, s.InsertClientKey(ctx, kb))

	got, err := s.GetClientKey(ctx, "client-a")
	must(t, err)
	diff(t, "client key", ka, got)
	if !auth.Match("secret-client-a", got.SecretHash) {
		t.Error("stored hash does not match its secret")
	}
	got.Origins[0] = "https://changed.example" // the caller's copy
	again, err := s.GetClientKey(ctx, "client-a")
	must(t, err)
	diff(t, "client key after changing a returned copy", ka, again)

	wantErr(t, "duplicate client key", s.InsertClientKey(ctx, ka), promotype.ErrDuplicateFound)
	_, err = s.GetClientKey(ctx, "client-missing")
	wantErr(t, "missing client key", err, promotype.ErrNotFound)
	// An app key's id is not a client key.
	must(t, s.InsertAppKey(ctx, appKey(a, "app-only")))
	_, err = s.GetClientKey(ctx, "app-only")
	wantErr(t, "app key read as a client key", err, promotype.ErrNotFound)

	for _, tc := range []struct {
		origin string
		want   bool
	}{
		{"https://shop-a.example", true},
		{"http://localhost:3000", true},
		{"https://shop-b.example", true},
		{"https://shop-c.example", false},
		{"http://localhost:3001", false},
		{"", false},
	} {
		ok, err := s.ClientOriginAllowed(ctx, tc.origin)
		must(t, err)
		if ok != tc.want {
			t.Errorf("ClientOriginAllowed(%q) = %v, want %v", tc.origin, ok, tc.want)
		}
	}
}
