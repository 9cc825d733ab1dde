package auth

import (
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
)

func testCache(current bool) *cache {
	c := newCache()
	c.current = func() bool { return current }
	return c
}

var cacheNow = promotype.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

func TestCacheFillAfterInvalidationIsDropped(t *testing.T) {
	t.Parallel()
	c := testCache(true)
	h := HashToken("t")
	a := Access{ProjectID: "p", ClientID: "app", ExpiresAt: promotype.NewTime(cacheNow.Add(time.Minute))}

	gen := c.generation()
	c.invalidate(Invalidation{Token: &h}) // the revocation lands while the fill reads the store
	c.putToken(h, a, gen, cacheNow)
	if _, ok := c.token(h); ok {
		t.Fatal("a fill older than an invalidation was cached")
	}
	k := &AppKey{AppID: "app", ProjectID: "p", SecretHash: Hash("secret-secret-secret")}
	gen = c.generation()
	c.invalidate(Invalidation{AppID: "other"})
	c.putApp(k, gen)
	if _, ok := c.app("app"); ok {
		t.Fatal("an app key fill older than an invalidation was cached")
	}

	gen = c.generation()
	c.putToken(h, a, gen, cacheNow)
	c.putApp(k, gen)
	if got, ok := c.token(h); !ok || got != a {
		t.Fatalf("token not cached: %v %v", got, ok)
	}
	if _, ok := c.app("app"); !ok {
		t.Fatal("app key not cached")
	}
}

func TestCacheInvalidations(t *testing.T) {
	t.Parallel()
	c := testCache(true)
	exp := promotype.NewTime(cacheNow.Add(time.Minute))
	h1, h2, h3 := HashToken("1"), HashToken("2"), HashToken("3")
	c.putToken(h1, Access{ClientID: "app", ExpiresAt: exp}, 0, cacheNow)
	c.putToken(h2, Access{ClientID: "app", ExpiresAt: exp}, 0, cacheNow)
	c.putToken(h3, Access{ClientID: "other", ExpiresAt: exp}, 0, cacheNow)
	c.putApp(&AppKey{AppID: "app", SecretHash: Hash("secret-secret-secret")}, 0)
	c.putApp(&AppKey{AppID: "other", SecretHash: Hash("secret-secret-secret")}, 0)

	c.invalidate(Invalidation{Token: &h1})
	if _, ok := c.token(h1); ok {
		t.Error("revoked token still cached")
	}
	c.invalidate(Invalidation{AppID: "app"})
	if _, ok := c.token(h2); ok {
		t.Error("token of a deleted key still cached")
	}
	if _, ok := c.app("app"); ok {
		t.Error("deleted key still cached")
	}
	if _, ok := c.token(h3); !ok {
		t.Error("another key's token dropped")
	}
	c.invalidate(InvalidateAll)
	if _, ok := c.token(h3); ok {
		t.Error("InvalidateAll kept a token")
	}
	if _, ok := c.app("other"); ok {
		t.Error("InvalidateAll kept a key")
	}
}

func TestCacheNotTrustedWhileFeedIsBehind(t *testing.T) {
	t.Parallel()
	c := testCache(false)
	h := HashToken("t")
	c.putToken(h, Access{ExpiresAt: promotype.NewTime(cacheNow.Add(time.Minute))}, 0, cacheNow)
	if _, ok := c.token(h); ok {
		t.Error("answered while the feed is not current")
	}
	if (&cache{}).trusted() {
		t.Error("a cache without a feed is trusted")
	}
}

func TestCacheBounds(t *testing.T) {
	t.Parallel()
	c := testCache(true)
	expired := promotype.NewTime(cacheNow.Add(-time.Second))
	for i := range maxCachedTokens {
		var h TokenHash
		h[0], h[1], h[2] = byte(i), byte(i>>8), byte(i>>16)
		c.tokens[h] = Access{ExpiresAt: expired}
	}
	fresh := HashToken("fresh")
	c.putToken(fresh, Access{ExpiresAt: promotype.NewTime(cacheNow.Add(time.Minute))}, 0, cacheNow)
	if len(c.tokens) != 1 {
		t.Errorf("%d tokens after a full cache of expired ones took one more, want 1", len(c.tokens))
	}
}
