package auth

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/promoengine/promo/promotype"
)

// Cache bounds: past them the cache drops what has expired, then everything.
const (
	maxCachedApps    = 10_000
	maxCachedTokens  = 100_000
	maxUnknownApps   = 10_000
	unknownAppExpiry = 10 * time.Second
)

// cache holds verified credentials, so that authenticating a request that
// was seen before reads no store: app keys by id (the stored hash of their
// secret; the presented secret is still hashed and compared on every
// request) and live tokens by hash (what they grant and until when).
//
// It is kept true to the store by the store's invalidation feed
// (Store.WatchCredentials) and by the engine's own changes, which it applies
// at once:
//
//   - an entry is answered only while the feed is current;
//   - an invalidation drops its entries and bumps the generation; a fill
//     records the generation before it reads the store and is discarded if
//     the generation moved meanwhile, so an entry read before a revocation
//     can never be stored after the revocation was applied;
//   - a token entry carries its expiry, checked against the engine's clock
//     on every hit.
//
// Unknown app ids are remembered for unknownAppExpiry (on the engine's
// clock), so that a client repeating an unknown id does not read the store
// on every request. An id this engine creates is forgotten at once
// (forgetUnknown); one created through another replica works after at most
// unknownAppExpiry. Unknown tokens are not cached: a token issued by
// another replica works at once.
type cache struct {
	mu     sync.RWMutex
	gen    uint64
	apps   map[string]cachedApp
	tokens map[TokenHash]Access
	// unknown holds app ids the store did not know, until when.
	unknown map[string]time.Time

	current func() bool // the feed's; nil: never answer from the cache
	stop    func()
}

// cachedApp is an app key: its project and the hash of its secret.
type cachedApp struct {
	projectID string
	hash      TokenHash
}

func newCache() *cache {
	return &cache{apps: map[string]cachedApp{}, tokens: map[TokenHash]Access{}, unknown: map[string]time.Time{}}
}

// watch subscribes the cache to store's invalidations.
func (c *cache) watch(store Store) {
	c.current, c.stop = store.WatchCredentials(c.invalidate)
}

// trusted reports whether entries may be answered now.
func (c *cache) trusted() bool { return c.current != nil && c.current() }

// generation returns the generation a fill must find unchanged to store
// what it read.
func (c *cache) generation() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen
}

// app returns the cached app key id.
func (c *cache) app(id string) (cachedApp, bool) {
	if !c.trusted() {
		return cachedApp{}, false
	}
	c.mu.RLock()
	e, ok := c.apps[id]
	c.mu.RUnlock()
	return e, ok
}

// putApp caches k if the generation is still gen.
func (c *cache) putApp(k *AppKey, gen uint64) {
	if len(k.SecretHash) != sha256.Size {
		return
	}
	e := cachedApp{projectID: k.ProjectID, hash: TokenHash(k.SecretHash)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.apps) >= maxCachedApps {
		clear(c.apps)
	}
	c.apps[k.AppID] = e
}

// unknownApp reports whether app id was unknown to the store a moment
// before now.
func (c *cache) unknownApp(id string, now time.Time) bool {
	c.mu.RLock()
	until, ok := c.unknown[id]
	c.mu.RUnlock()
	return ok && now.Before(until)
}

// putUnknownApp remembers that the store did not know id, if the
// generation is still gen. The map is bounded: expired entries go first,
// then everything.
func (c *cache) putUnknownApp(id string, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.unknown) >= maxUnknownApps {
		for k, until := range c.unknown {
			if !now.Before(until) {
				delete(c.unknown, k)
			}
		}
		if len(c.unknown) >= maxUnknownApps {
			clear(c.unknown)
		}
	}
	c.unknown[id] = now.Add(unknownAppExpiry)
}

// forgetUnknownApp drops id from the unknown ids (it was just created) and
// bumps the generation, so that a lookup that started before the creation
// cannot record it as unknown afterwards.
func (c *cache) forgetUnknownApp(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.unknown, id)
}

// token returns what the cached token h grants.
func (c *cache) token(h TokenHash) (Access, bool) {
	if !c.trusted() {
		return Access{}, false
	}
	c.mu.RLock()
	a, ok := c.tokens[h]
	c.mu.RUnlock()
	return a, ok
}

// putToken caches the live token h if the generation is still gen.
func (c *cache) putToken(h TokenHash, a Access, gen uint64, now promotype.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.tokens) >= maxCachedTokens {
		for k, v := range c.tokens {
			if !now.Before(v.ExpiresAt.Time) {
				delete(c.tokens, k)
			}
		}
		if len(c.tokens) >= maxCachedTokens {
			clear(c.tokens)
		}
	}
	c.tokens[h] = a
}

// invalidate drops what inv names and bumps the generation. It is the
// feed's callback: quick, and it never calls the store.
func (c *cache) invalidate(inv Invalidation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	switch {
	case inv.All:
		clear(c.apps)
		clear(c.tokens)
		clear(c.unknown)
	case inv.Token != nil:
		delete(c.tokens, *inv.Token)
	case inv.AppID != "":
		delete(c.apps, inv.AppID)
		for k, v := range c.tokens {
			if v.ClientID == inv.AppID {
				delete(c.tokens, k)
			}
		}
	}
}

// forgetProject drops every cached key and token of projectID (the project
// was deleted) and bumps the generation.
func (c *cache) forgetProject(projectID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for id, a := range c.apps {
		if a.projectID == projectID {
			delete(c.apps, id)
		}
	}
	for h, a := range c.tokens {
		if a.ProjectID == projectID {
			delete(c.tokens, h)
		}
	}
}
