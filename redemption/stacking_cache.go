package redemption

import (
	"context"
	"sync"
	"time"
)

// rulesTTL is how long a project's stacking rules are served from memory
// to validations, redemptions and qualifications. A write through this
// engine's StackingRulesService is seen at once (it tells the cache); one
// through another engine over the same database (another replica) within
// rulesTTL, as the promotion snapshot sees tier changes (promotion/cache.go).
const rulesTTL = time.Second

// rulesCache keeps each project's effective stacking rules for rulesTTL,
// saving every validation and redemption a read. Each project has a
// version bumped by changed: a read that began before a change does not
// store what it read.
type rulesCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[string]*rulesEntry
}

type rulesEntry struct {
	version uint64
	rules   *StackingRules // nil until read
	at      time.Time
}

func newRulesCache() *rulesCache { return &rulesCache{ttl: rulesTTL, m: map[string]*rulesEntry{}} }

// effective returns the project's rules (the caller's own copy), read
// through st when the cached ones are missing or older than the TTL.
func (c *rulesCache) effective(ctx context.Context, st Store, projectID string) (*StackingRules, error) {
	c.mu.Lock()
	e := c.m[projectID]
	if e == nil {
		e = &rulesEntry{}
		c.m[projectID] = e
	}
	version, cached := e.version, e.rules
	fresh := cached != nil && time.Since(e.at) < c.ttl
	c.mu.Unlock()
	if fresh {
		return cached.Clone(), nil
	}
	r, err := effective(ctx, st, projectID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if e.version == version {
		e.rules, e.at = r.Clone(), time.Now()
	}
	c.mu.Unlock()
	return r, nil
}

// changed drops the project's cached rules: the next read goes to the
// store.
func (c *rulesCache) changed(projectID string) {
	c.mu.Lock()
	if e := c.m[projectID]; e != nil {
		e.version++
		e.rules = nil
	}
	c.mu.Unlock()
}
