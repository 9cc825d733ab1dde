package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// testTokens checks the OAuth token and credential-feed methods of
// auth.Store.
func testTokens(t *testing.T, newStore Factory) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Factory)
	}{
		{"RoundTrip", testTokenRoundTrip},
		{"Revoke", testTokenRevoke},
		{"Limit", testTokenLimit},
		{"LimitConcurrent", testTokenLimitConcurrent},
		{"DeleteAppKey", testDeleteAppKey},
		{"Feed", testCredentialFeed},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore) })
	}
}

// token is a token of app appID in projectID, created at at(minute) and
// living 15 minutes; its clear text is "token-<n>".
func token(projectID, appID string, n, minute int) *auth.Token {
	return &auth.Token{
		Hash:      auth.HashToken(fmt.Sprintf("token-%d", n)),
		ProjectID: projectID,
		ClientID:  appID,
		Scope:     "api vouchers",
		CreatedAt: at(minute),
		ExpiresAt: at(minute + 15),
	}
}

// keyed stores two projects with one app key each.
func keyed(t *testing.T, s storage.Store) (a, b string) {
	t.Helper()
	a, b = newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	must(t, s.InsertAppKey(ctx, appKey(a, "app-a")))
	must(t, s.InsertAppKey(ctx, appKey(b, "app-b")))
	return a, b
}

func testTokenRoundTrip(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := keyed(t, s)
	want := token(a, "app-a", 1, 0)
	must(t, s.InsertToken(ctx, want, 10))
	got, err := s.GetToken(ctx, want.Hash)
	must(t, err)
	diff(t, "token", want, got)

	// Aliasing: the stored token is the store's own.
	want.Scope = "changed"
	got.RevokedAt = at(1).Ptr()
	again, err := s.GetToken(ctx, got.Hash)
	must(t, err)
	diff(t, "after mutating", token(a, "app-a", 1, 0), again)

	wantErr(t, "same hash", s.InsertToken(ctx, token(a, "app-a", 1, 0), 10), promotype.ErrDuplicateFound)
	_, err = s.GetToken(ctx, auth.HashToken("nope"))
	wantErr(t, "unknown hash", err, promotype.ErrNotFound)
	wantErr(t, "unknown app key", s.InsertToken(ctx, token(a, "app-x", 2, 0), 10), promotype.ErrUnauthorized)
	wantErr(t, "another project's app key", s.InsertToken(ctx, token(a, "app-b", 3, 0), 10), promotype.ErrUnauthorized)
	must(t, s.InsertToken(ctx, token(b, "app-b", 4, 0), 10))
}

func testTokenRevoke(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := keyed(t, s)
	tok := token(a, "app-a", 1, 0)
	must(t, s.InsertToken(ctx, tok, 10))
	wantErr(t, "another project", s.RevokeToken(ctx, b, tok.Hash, at(1)), promotype.ErrNotFound)
	wantErr(t, "unknown", s.RevokeToken(ctx, a, auth.HashToken("nope"), at(1)), promotype.ErrNotFound)
	wantErr(t, "expired", s.RevokeToken(ctx, a, tok.Hash, at(15)), promotype.ErrNotFound)
	must(t, s.RevokeToken(ctx, a, tok.Hash, at(2)))
	got, err := s.GetToken(ctx, tok.Hash)
	must(t, err)
	tok.RevokedAt = at(2).Ptr()
	diff(t, "revoked token", tok, got)
	wantErr(t, "revoked already", s.RevokeToken(ctx, a, tok.Hash, at(3)), promotype.ErrNotFound)

	// A revocation rolled back leaves the token live.
	other := token(a, "app-a", 2, 0)
	must(t, s.InsertToken(ctx, other, 10))
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.RevokeToken(ctx, a, other.Hash, at(1)))
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("rolled back: got %v", err)
	}
	got, err = s.GetToken(ctx, other.Hash)
	must(t, err)
	diff(t, "after a rolled back revocation", other, got)
}

func testTokenLimit(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := keyed(t, s)
	const max = 3
	for n := range max {
		must(t, s.InsertToken(ctx, token(a, "app-a", n, 0), max))
	}
	// Another project's tokens do not count.
	must(t, s.InsertToken(ctx, token(b, "app-b", 100, 0), max))
	err := s.InsertToken(ctx, token(a, "app-a", 10, 1), max)
	wantErr(t, "one more", err, auth.ErrTokenLimitExceeded)
	if _, err := s.GetToken(ctx, token(a, "app-a", 10, 1).Hash); err == nil {
		t.Error("a refused token was stored")
	}
	// A revoked token does not count.
	must(t, s.RevokeToken(ctx, a, token(a, "app-a", 0, 0).Hash, at(2)))
	must(t, s.InsertToken(ctx, token(a, "app-a", 11, 2), max))
	wantErr(t, "full again", s.InsertToken(ctx, token(a, "app-a", 12, 2), max), auth.ErrTokenLimitExceeded)
	// Expired tokens do not count (the store may drop them).
	must(t, s.InsertToken(ctx, token(a, "app-a", 13, 15), max))
	for _, n := range []int{1, 2} {
		if got, err := s.GetToken(ctx, token(a, "app-a", n, 0).Hash); err == nil && got.Live(at(15)) {
			t.Errorf("token %d is live after its expiry", n)
		}
	}
	if _, err := s.GetToken(ctx, token(b, "app-b", 100, 0).Hash); err != nil {
		t.Errorf("pruning project a touched project b: %v", err)
	}
}

func testTokenLimitConcurrent(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, _ := keyed(t, s)
	const max, callers = 5, 16
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { errs[i] = s.InsertToken(ctx, token(a, "app-a", i, 0), max) })
	}
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		default:
			wantErr(t, fmt.Sprintf("caller %d", i), err, auth.ErrTokenLimitExceeded)
		}
	}
	if ok != max {
		t.Errorf("%d tokens issued concurrently, want %d", ok, max)
	}
}

func testDeleteAppKey(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := keyed(t, s)
	must(t, s.InsertAppKey(ctx, appKey(a, "app-a2")))
	mine := []*auth.Token{token(a, "app-a", 1, 0), token(a, "app-a", 2, 0)}
	theirs := token(a, "app-a2", 3, 0)
	for _, tok := range append(mine, theirs) {
		must(t, s.InsertToken(ctx, tok, 10))
	}
	must(t, s.RevokeToken(ctx, a, mine[1].Hash, at(1)))

	wantErr(t, "another project's key", s.DeleteAppKey(ctx, b, "app-a", at(2)), promotype.ErrNotFound)
	wantErr(t, "unknown key", s.DeleteAppKey(ctx, a, "app-x", at(2)), promotype.ErrNotFound)
	must(t, s.DeleteAppKey(ctx, a, "app-a", at(5)))
	_, err := s.GetAppKey(ctx, "app-a")
	wantErr(t, "deleted key", err, promotype.ErrNotFound)
	wantErr(t, "deleted again", s.DeleteAppKey(ctx, a, "app-a", at(6)), promotype.ErrNotFound)

	got, err := s.GetToken(ctx, mine[0].Hash)
	must(t, err)
	mine[0].RevokedAt = at(5).Ptr()
	diff(t, "the key's live token", mine[0], got)
	got, err = s.GetToken(ctx, mine[1].Hash)
	must(t, err)
	mine[1].RevokedAt = at(1).Ptr()
	diff(t, "the key's revoked token", mine[1], got)
	got, err = s.GetToken(ctx, theirs.Hash)
	must(t, err)
	diff(t, "another key's token", theirs, got)
	wantErr(t, "a token of the deleted key", s.InsertToken(ctx, token(a, "app-a", 4, 6), 10), promotype.ErrUnauthorized)
	if _, err := s.GetAppKey(ctx, "app-b"); err != nil {
		t.Errorf("project b's key: %v", err)
	}
}

// feedTimeout bounds how long a store may take to deliver an invalidation
// (bunstore: the NOTIFY delay) or to become current (its listener's start).
const feedTimeout = 10 * time.Second

func testCredentialFeed(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, _ := keyed(t, s)
	got := make(chan auth.Invalidation, 100)
	current, stop := s.WatchCredentials(func(inv auth.Invalidation) {
		if !inv.All { // InvalidateAll may come at any time
			got <- inv
		}
	})
	defer stop()
	deadline := time.Now().Add(feedTimeout)
	for !current() {
		if time.Now().After(deadline) {
			t.Fatal("the subscription never became current")
		}
		time.Sleep(5 * time.Millisecond)
	}
	expect := func(what string, want auth.Invalidation) {
		t.Helper()
		select {
		case inv := <-got:
			diff(t, what, want, inv)
		case <-time.After(feedTimeout):
			t.Fatalf("%s: no invalidation delivered", what)
		}
	}
	tok := token(a, "app-a", 1, 0)
	must(t, s.InsertToken(ctx, tok, 10))
	must(t, s.RevokeToken(ctx, a, tok.Hash, at(1)))
	expect("revoked token", auth.Invalidation{Token: &tok.Hash})

	// Inside a transaction: delivered by the commit at the latest.
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		return tx.DeleteAppKey(ctx, a, "app-a", at(2))
	}))
	expect("deleted app key", auth.Invalidation{AppID: "app-a"})

	// Refused changes announce nothing that could be mistaken for them.
	wantErr(t, "revoke again", s.RevokeToken(ctx, a, tok.Hash, at(3)), promotype.ErrNotFound)
	if !current() {
		t.Error("the subscription stopped being current")
	}

	stop()
	must(t, s.InsertAppKey(ctx, appKey(a, "app-c")))
	must(t, s.DeleteAppKey(ctx, a, "app-c", at(4)))
	select {
	case inv := <-got:
		if inv.AppID == "app-c" {
			t.Errorf("delivered after stop: %+v", inv)
		}
	case <-time.After(200 * time.Millisecond):
	}
}

func testKeys(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	k := appKey(p, "app-1")
	must(t, s.InsertAppKey(ctx, k))
	got, err := s.GetAppKey(ctx, "app-1")
	must(t, err)
	diff(t, "app key", k, got)
	if !auth.Match("secret-app-1", got.SecretHash) {
		t.Error("stored hash does not match its secret")
	}
	wantErr(t, "duplicate app key", s.InsertAppKey(ctx, k), promotype.ErrDuplicateFound)
	_, err = s.GetAppKey(ctx, "app-missing")
	wantErr(t, "missing app key", err, promotype.ErrNotFound)

	m := &auth.ManagementKey{ID: "mgmt-1", SecretHash: auth.Hash("s"), ProjectIDs: []string{p}, CreatedAt: at(2)}
	must(t, s.InsertManagementKey(ctx, m))
	wantErr(t, "duplicate management key", s.InsertManagementKey(ctx, m), promotype.ErrDuplicateFound)
	m.ProjectIDs = append(m.ProjectIDs, "proj_b")
	must(t, s.UpdateManagementKey(ctx, m))
	gotM, err := s.GetManagementKey(ctx, "mgmt-1")
	must(t, err)
	diff(t, "management key", m, gotM)
	wantErr(t, "update missing management key", s.UpdateManagementKey(ctx, &auth.ManagementKey{ID: "nope"}), promotype.ErrNotFound)
	_, err = s.GetManagementKey(ctx, "nope")
	wantErr(t, "missing management key", err, promotype.ErrNotFound)
}
