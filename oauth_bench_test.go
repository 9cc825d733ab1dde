package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// BenchmarkTokenIssue measures OAuth().IssueToken (scope parsing, a random
// token, its hash, the store's atomic limit check and insert) on each
// store. The clock moves a minute per token, so the project holds about 15
// live tokens, as a client renewing its token does.
func BenchmarkTokenIssue(b *testing.B) {
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			clock := promotype.NewManualClock(t0)
			eng, err := promo.New(newStore(b), promo.WithClock(clock))
			if err != nil {
				b.Fatal(err)
			}
			p, err := eng.Projects().Create(ctx, project.Params{Name: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			app, err := eng.Auth().CreateAppKey(ctx, p.ID, promo.KeyParams{})
			if err != nil {
				b.Fatal(err)
			}
			in := auth.TokenParams{GrantType: auth.GrantClientCredentials, Scope: "vouchers campaigns rewards"}
			b.ReportAllocs()
			for b.Loop() {
				clock.Advance(time.Minute)
				if _, err := eng.OAuth().IssueToken(ctx, p.ID, app.ID, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// noFeedStore is a store whose invalidation feed is never current: the
// engine cannot trust its credential cache and reads the store every time.
type noFeedStore struct{ storage.Store }

func (noFeedStore) WatchCredentials(func(auth.Invalidation)) (func() bool, func()) {
	return func() bool { return false }, func() {}
}

// BenchmarkAuthenticate measures the Go API's credential checks on each
// store: a key pair (AuthenticateApp) and a token with its scope check
// (OAuth().Authorize), warm in the cache ("cached", no store read) and
// without the cache ("uncached": the read a request would make without it).
func BenchmarkAuthenticate(b *testing.B) {
	for name, newStore := range storeFactories {
		for _, cached := range []bool{true, false} {
			mode := map[bool]string{true: "cached", false: "uncached"}[cached]
			b.Run(name+"/"+mode, func(b *testing.B) {
				s := newStore(b)
				if !cached {
					s = noFeedStore{s}
				}
				cs := &countingStore{Store: s}
				eng, err := promo.New(cs)
				if err != nil {
					b.Fatal(err)
				}
				p := must[*project.Project](b)(eng.Projects().Create(ctx, project.Params{Name: "bench"}))
				app := must[promo.Credentials](b)(eng.Auth().CreateAppKey(ctx, p.ID, promo.KeyParams{}))
				tok := must[*auth.IssuedToken](b)(eng.OAuth().IssueToken(ctx, p.ID, app.ID, auth.TokenParams{GrantType: auth.GrantClientCredentials, Scope: "rewards"}))
				checks := map[string]func() error{
					"keypair": func() error { _, err := eng.Auth().AuthenticateApp(ctx, app.ID, app.Secret); return err },
					"bearer": func() error {
						_, err := eng.OAuth().Authorize(ctx, tok.AccessToken, "GET", "/v1/rewards/rew_1")
						return err
					},
				}
				for _, kind := range []string{"keypair", "bearer"} {
					check := checks[kind]
					b.Run(kind, func(b *testing.B) {
						if cached { // wait for the feed (PostgreSQL: the listener) and warm the cache
							deadline := time.Now().Add(10 * time.Second)
							for before := int64(-1); before != cs.calls.Load(); {
								before = cs.calls.Load()
								if err := check(); err != nil {
									b.Fatal(err)
								}
								if time.Now().After(deadline) {
									b.Fatal("the cache never warmed")
								}
								time.Sleep(time.Millisecond)
							}
						}
						before := cs.calls.Load()
						b.ReportAllocs()
						for b.Loop() {
							if err := check(); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(cs.calls.Load()-before)/float64(b.N), "storecalls/op")
					})
				}
			})
		}
	}
}
