package httpadapter

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/memory"
)

// countingStore counts the calls of the credential port that reach the
// store (GetReward too, to show the request's own read).
type countingStore struct {
	storage.Store
	auth, other atomic.Int64
}

func (s *countingStore) GetAppKey(ctx context.Context, id string) (*auth.AppKey, error) {
	s.auth.Add(1)
	return s.Store.GetAppKey(ctx, id)
}

func (s *countingStore) GetToken(ctx context.Context, h auth.TokenHash) (*auth.Token, error) {
	s.auth.Add(1)
	return s.Store.GetToken(ctx, h)
}

func (s *countingStore) GetManagementKey(ctx context.Context, id string) (*auth.ManagementKey, error) {
	s.auth.Add(1)
	return s.Store.GetManagementKey(ctx, id)
}

func (s *countingStore) GetReward(ctx context.Context, projectID, id string) (*reward.Reward, error) {
	s.other.Add(1)
	return s.Store.GetReward(ctx, projectID, id)
}

// benchEnv is a server over a counting memory store (wall clock), with a
// project, its key pair, a token of scope rewards and one reward.
type benchEnv struct {
	s        *server
	store    *countingStore
	project  string
	app      auth.Credentials
	token    string
	rewardID string
}

// uncachedStore is a store whose invalidation feed is never current, so the
// engine cannot trust its credential cache: every request reads the store.
type uncachedStore struct{ storage.Store }

func (uncachedStore) WatchCredentials(func(auth.Invalidation)) (func() bool, func()) {
	return func() bool { return false }, func() {}
}

func newBenchEnv(b *testing.B, cached bool) *benchEnv {
	ctx := context.Background()
	var inner storage.Store = memory.New()
	if !cached {
		inner = uncachedStore{inner}
	}
	store := &countingStore{Store: inner}
	eng, err := promo.New(store)
	if err != nil {
		b.Fatal(err)
	}
	p, err := eng.CreateProject(ctx, project.Params{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	app, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := eng.OAuth().IssueToken(ctx, p.ID, app.ID, auth.TokenParams{GrantType: auth.GrantClientCredentials, Scope: "rewards"})
	if err != nil {
		b.Fatal(err)
	}
	rw, err := eng.Rewards().Create(ctx, p.ID, reward.Params{Name: promo.Ptr("Coins"), Parameters: &reward.Parameters{
		Coin: &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("0.5")}}})
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{s: New(eng).(*server), store: store, project: p.ID, app: app, token: tok.AccessToken, rewardID: rw.ID}
}

// request is GET /v1/rewards/{id} with the credentials of kind.
func (e *benchEnv) request(kind string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/v1/rewards/"+e.rewardID, nil)
	switch kind {
	case "keypair":
		r.Header.Set(headerAppID, e.app.ID)
		r.Header.Set(headerAppToken, e.app.Secret)
	case "bearer":
		r.Header.Set(headerAuthorization, "Bearer "+e.token)
	}
	return r
}

// reportCalls reports the store calls per op made since before.
func (e *benchEnv) reportCalls(b *testing.B, authBefore, otherBefore int64) {
	n := float64(b.N)
	b.ReportMetric(float64(e.store.auth.Load()-authBefore)/n, "authcalls/op")
	b.ReportMetric(float64(e.store.other.Load()-otherBefore)/n, "storecalls/op")
}

// BenchmarkAuthentication is what authentication and the scope check add
// to a request, with the memory store: the middleware around a handler that
// does nothing. "none" is the middleware-less baseline; "keypair" and
// "bearer" are warm (the key or token was seen before), as every request
// but a client's first is; the "-uncached" ones run without the credential
// cache (a store read and, for the key pair, its hash check per request).
// authcalls/op counts the credential reads that reached the store.
func BenchmarkAuthentication(b *testing.B) {
	for _, name := range []string{"none", "keypair", "bearer", "keypair-uncached", "bearer-uncached"} {
		b.Run(name, func(b *testing.B) {
			kind, uncached := strings.CutSuffix(name, "-uncached")
			e := newBenchEnv(b, !uncached)
			r := e.request(kind)
			var got string
			next := func(_ http.ResponseWriter, _ *http.Request, p principal) { got = p.projectID }
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next(w, r, principal{projectID: e.project}) })
			if kind != "none" {
				h = e.s.authenticate(appKey, next)
			}
			w := &discard{header: http.Header{}}
			h.ServeHTTP(w, r) // warm the cache
			if got != e.project {
				b.Fatalf("%s: authenticated as %q (status %d)", kind, got, w.status)
			}
			a, o := e.store.auth.Load(), e.store.other.Load()
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, r)
			}
			e.reportCalls(b, a, o)
		})
	}
}

// BenchmarkGetRewardAuth is the whole GET /v1/rewards/{rewardId} through
// the handler on the memory store, with each kind of credentials; "none"
// serves the same endpoint through a mux without authentication.
func BenchmarkGetRewardAuth(b *testing.B) {
	for _, kind := range []string{"none", "keypair", "bearer"} {
		b.Run(kind, func(b *testing.B) {
			e := newBenchEnv(b, true)
			if kind == "none" {
				e.s.mux = e.unauthenticatedMux()
			}
			r := e.request(kind)
			w := &discard{header: http.Header{}}
			e.s.ServeHTTP(w, r)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
			a, o := e.store.auth.Load(), e.store.other.Load()
			b.ReportAllocs()
			for b.Loop() {
				clear(w.header)
				e.s.ServeHTTP(w, r)
			}
			e.reportCalls(b, a, o)
		})
	}
}

// unauthenticatedMux serves GET /v1/rewards/{rewardId} exactly as the
// route table does (server.endpoint), minus authentication.
func (e *benchEnv) unauthenticatedMux() *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range e.s.routes() {
		if rt.method != http.MethodGet || rt.pattern != "/v1/rewards/{rewardId}" {
			continue
		}
		handle := rt.handle
		mux.HandleFunc(rt.method+" "+rt.pattern, func(w http.ResponseWriter, r *http.Request) {
			c := &call{w: w, r: r, principal: principal{projectID: e.project}, maxBody: e.s.maxBody}
			status, body, err := handle(c)
			if err != nil {
				e.s.writeError(w, r, err)
				return
			}
			e.s.writeJSON(w, r, status, body)
		})
	}
	return mux
}

// discard is a reusable ResponseWriter that keeps only the status.
type discard struct {
	header http.Header
	status int
}

func (w *discard) Header() http.Header         { return w.header }
func (w *discard) Write(b []byte) (int, error) { return len(b), nil }
func (w *discard) WriteHeader(code int)        { w.status = code }
