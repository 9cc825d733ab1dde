package storagetest

import (
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// testClientKeys checks the client key methods of auth.Store: round trip,
// duplicates, not_found, listing and deleting per project, and the origin
// lookup of a CORS preflight.
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

	// Listing is per project, oldest first; deleting takes the key of its
	// own project only.
	kc := &auth.ClientKey{AppID: "client-c", ProjectID: a, SecretHash: auth.Hash("secret-client-c"),
		Origins: []string{"https://shop-c.example"}, CreatedAt: at(3)}
	must(t, s.InsertClientKey(ctx, kc))
	list, err := s.ListClientKeys(ctx, a)
	must(t, err)
	diff(t, "client keys of project A", []*auth.ClientKey{ka, kc}, list)
	list, err = s.ListClientKeys(ctx, "proj_none")
	must(t, err)
	diff(t, "client keys of a project without any", []*auth.ClientKey{}, list)
	wantErr(t, "delete another project's client key", s.DeleteClientKey(ctx, b, "client-c"), promotype.ErrNotFound)
	must(t, s.DeleteClientKey(ctx, a, "client-c"))
	wantErr(t, "delete a deleted client key", s.DeleteClientKey(ctx, a, "client-c"), promotype.ErrNotFound)
	_, err = s.GetClientKey(ctx, "client-c")
	wantErr(t, "deleted client key", err, promotype.ErrNotFound)
	list, err = s.ListClientKeys(ctx, a)
	must(t, err)
	diff(t, "client keys of project A after a delete", []*auth.ClientKey{ka}, list)

	for _, tc := range []struct {
		origin string
		want   bool
	}{
		{"https://shop-a.example", true},
		{"http://localhost:3000", true},
		{"https://shop-b.example", true},
		{"https://shop-c.example", false}, // its only key was deleted
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
