package promo_test

import (
	"context"
	"crypto/sha256"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
)

// countingStore counts the credential reads and writes that reach a store.
type countingStore struct {
	storage.Store
	calls atomic.Int64
}

func (s *countingStore) GetAppKey(ctx context.Context, id string) (*auth.AppKey, error) {
	s.calls.Add(1)
	return s.Store.GetAppKey(ctx, id)
}

func (s *countingStore) GetToken(ctx context.Context, h auth.TokenHash) (*auth.Token, error) {
	s.calls.Add(1)
	return s.Store.GetToken(ctx, h)
}

func (s *countingStore) GetManagementKey(ctx context.Context, id string) (*auth.ManagementKey, error) {
	s.calls.Add(1)
	return s.Store.GetManagementKey(ctx, id)
}

// replicaFactories make two stores over the same data, as two processes over
// one database would have: the same memory store twice, or two connection
// pools over one PostgreSQL schema.
var replicaFactories = map[string]func(t *testing.T) (storage.Store, storage.Store){
	"memory": func(*testing.T) (storage.Store, storage.Store) {
		s := memory.New()
		return s, s
	},
}

func init() {
	if bunstoretest.DSN() == "" {
		return
	}
	replicaFactories["postgres"] = func(t *testing.T) (storage.Store, storage.Store) {
		db := bunstoretest.NewDB(t)
		if err := bunstore.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		var schema string
		if err := db.NewSelect().ColumnExpr("current_schema()").Scan(ctx, &schema); err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(bunstoretest.DSN())
		if err != nil {
			t.Skipf("replicas need a URL DSN: %v", err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		other, err := bunstore.Open(u.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = other.Close() })
		return bunstore.New(db), bunstore.New(other)
	}
}

// replica is one engine of a replica pair.
type replica struct {
	eng   *promo.Engine
	store *countingStore
}

// cached waits until fn is answered without reading the store (the
// engine's credential feed is current and fn's credential cached), and
// fails after a timeout.
func (r replica) cached(t *testing.T, what string, fn func() error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		before := r.store.calls.Load()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if r.store.calls.Load() == before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still reads the store", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// refused waits until fn fails with a 401 and returns how long that took.
func refused(t *testing.T, what string, timeout time.Duration, fn func() error) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		err := fn()
		if err != nil {
			wantErr(t, err, 401, "unauthorized")
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			t.Fatalf("%s still accepted after %v", what, timeout)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// eachReplicaPair runs fn with two engines over the same data, sharing a
// clock, with a project and an app key of it.
func eachReplicaPair(t *testing.T, fn func(t *testing.T, a, b replica, projectID string, app promo.Credentials)) {
	for name, newStores := range replicaFactories {
		t.Run(name, func(t *testing.T) {
			sa, sb := newStores(t)
			clock := promotype.NewManualClock(t0)
			var rs [2]replica
			for i, s := range []storage.Store{sa, sb} {
				cs := &countingStore{Store: s}
				eng, err := promo.New(cs, promo.WithClock(clock))
				if err != nil {
					t.Fatal(err)
				}
				rs[i] = replica{eng: eng, store: cs}
			}
			p := must[*project.Project](t)(rs[0].eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			app := must[promo.Credentials](t)(rs[0].eng.Auth().CreateAppKey(ctx, p.ID, promo.KeyParams{}))
			fn(t, rs[0], rs[1], p.ID, app)
		})
	}
}

// A key pair and a token seen before are checked without reading the store.
func TestCredentialsCached(t *testing.T) {
	eachReplicaPair(t, func(t *testing.T, a, _ replica, projectID string, app promo.Credentials) {
		tok := must[*auth.IssuedToken](t)(a.eng.OAuth().IssueToken(ctx, projectID, app.ID, auth.TokenParams{GrantType: "client_credentials", Scope: "rewards"}))
		a.cached(t, "key pair", func() error { _, err := a.eng.Auth().AuthenticateApp(ctx, app.ID, app.Secret); return err })
		a.cached(t, "token", func() error {
			_, err := a.eng.OAuth().Authorize(ctx, tok.AccessToken, "GET", "/v1/rewards")
			return err
		})
		// A wrong secret for a cached key is refused without the store too.
		before := a.store.calls.Load()
		_, err := a.eng.Auth().AuthenticateApp(ctx, app.ID, app.Secret+"x")
		wantErr(t, err, 401, "unauthorized")
		_, err = a.eng.OAuth().Authorize(ctx, tok.AccessToken, "GET", "/v1/vouchers")
		wantErr(t, err, 403, "missing_required_permission")
		if n := a.store.calls.Load() - before; n != 0 {
			t.Errorf("%d store reads for cached credentials", n)
		}
	})
}

// Two engines over the same data (two replicas over one database): a token
// issued by one works on the other at once; revoked on one, it is refused
// by the other at once (memory) or within milliseconds (PostgreSQL NOTIFY),
// even though the other had it cached. Deleting the app key does the same
// for the key pair and the tokens it issued.
func TestRevocationReachesReplicas(t *testing.T) {
	eachReplicaPair(t, func(t *testing.T, a, b replica, projectID string, app promo.Credentials) {
		in := auth.TokenParams{GrantType: "client_credentials", Scope: "api"}
		tok := must[*auth.IssuedToken](t)(a.eng.OAuth().IssueToken(ctx, projectID, app.ID, in))
		second := must[*auth.IssuedToken](t)(b.eng.OAuth().IssueToken(ctx, projectID, app.ID, in))
		useToken := func(r replica, tok string) func() error {
			return func() error { _, err := r.eng.OAuth().Authenticate(ctx, tok); return err }
		}
		useKey := func(r replica) func() error {
			return func() error { _, err := r.eng.Auth().AuthenticateApp(ctx, app.ID, app.Secret); return err }
		}
		b.cached(t, "token on the other replica", useToken(b, tok.AccessToken))
		a.cached(t, "the other replica's token", useToken(a, second.AccessToken))
		b.cached(t, "key pair on the other replica", useKey(b))

		must[struct{}](t)(struct{}{}, a.eng.OAuth().Revoke(ctx, projectID, tok.AccessToken))
		wantErr(t, useToken(a, tok.AccessToken)(), 401, "unauthorized") // the revoking engine: before Revoke returned
		took := refused(t, "revoked token on the other replica", time.Second, useToken(b, tok.AccessToken))
		t.Logf("the other replica refused the revoked token %v after Revoke returned", took)
		if err := useToken(b, second.AccessToken)(); err != nil {
			t.Errorf("another token: %v", err)
		}

		must[struct{}](t)(struct{}{}, a.eng.Auth().DeleteAppKey(ctx, projectID, app.ID))
		refused(t, "key pair of a deleted key on the other replica", time.Second, useKey(b))
		refused(t, "token of a deleted key on the other replica", time.Second, useToken(b, second.AccessToken))
	})
}

// Keys are stored as hashes only.
func TestSecretsStoredAsHashes(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			eng := must[*promo.Engine](t)(promo.New(s))
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			app := must[promo.Credentials](t)(eng.Auth().CreateAppKey(ctx, p.ID, promo.KeyParams{}))
			k := must[*auth.AppKey](t)(s.GetAppKey(ctx, app.ID))
			if sum := sha256.Sum256([]byte(app.Secret)); string(k.SecretHash) != string(sum[:]) {
				t.Errorf("stored app key secret is not its SHA-256")
			}
			tok := must[*auth.IssuedToken](t)(eng.OAuth().IssueToken(ctx, p.ID, app.ID, auth.TokenParams{GrantType: "client_credentials", Scope: "api"}))
			stored := must[*auth.Token](t)(s.GetToken(ctx, sha256.Sum256([]byte(tok.AccessToken))))
			if stored.ClientID != app.ID || stored.ProjectID != p.ID {
				t.Errorf("stored token %+v", stored)
			}
		})
	}
}

// A management key works for every project it is granted and for no other
// (404, as for a project that does not exist); it is no app key.
func TestManagementKeyProjects(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		a := f.eng.Auth()
		second := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Second"}))
		third := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Third"}))
		m := must[promo.Credentials](t)(a.CreateManagementKey(ctx, promo.KeyParams{}, f.project, second.ID))
		for _, p := range []string{f.project, second.ID, ""} {
			must[*promo.ManagementKey](t)(a.AuthorizeManagement(ctx, m.ID, m.Secret, p))
		}
		_, err := a.AuthorizeManagement(ctx, m.ID, m.Secret, third.ID)
		wantErr(t, err, 404, "not_found")
		_, err = a.AuthorizeManagement(ctx, m.ID, m.Secret+"x", f.project)
		wantErr(t, err, 401, "unauthorized")
		_, err = a.AuthenticateApp(ctx, m.ID, m.Secret)
		wantErr(t, err, 401, "unauthorized")
		app := must[promo.Credentials](t)(a.CreateAppKey(ctx, f.project, promo.KeyParams{}))
		_, err = a.AuthenticateManagement(ctx, app.ID, app.Secret)
		wantErr(t, err, 401, "unauthorized")
	})
}
