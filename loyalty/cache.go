package loyalty

import (
	"context"
	"sync"
	"time"
)

// rulesTTL is how long a project's order.paid rules are kept in memory
// before an order read them again. Rules written through this engine are
// seen at once; rules written through another engine over the same store
// (another replica) apply within rulesTTL, as promotion tiers do.
const rulesTTL = time.Second

// ruleCache keeps, per project, its active earning rules and its tiers, so
// that an order becoming PAID in a project without rules costs no
// statement.
type ruleCache struct {
	mu       sync.Mutex
	projects map[string]*ruleEntry
}

type ruleEntry struct {
	version uint64 // bumped by changed
	loaded  uint64 // the version rules were read at; 0: never
	at      time.Time
	rules   *projectRules
}

// projectRules are what a project's earnings read: its active rules, and
// its programs' tiers by campaign id.
type projectRules struct {
	rules []*EarningRule
	tiers map[string][]*Tier
}

func newRuleCache() ruleCache { return ruleCache{projects: map[string]*ruleEntry{}} }

// changed drops the project's rules: the next order reads them again.
func (c *ruleCache) changed(projectID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(projectID)
	e.version++
}

func (c *ruleCache) entry(projectID string) *ruleEntry {
	e := c.projects[projectID]
	if e == nil {
		e = &ruleEntry{version: 1}
		c.projects[projectID] = e
	}
	return e
}

// get returns the project's rules, loading them with load when none are
// kept for the current version or they are older than rulesTTL. The
// rules returned are shared: callers must not change them.
func (c *ruleCache) get(ctx context.Context, projectID string, load func(ctx context.Context) (*projectRules, error)) (*projectRules, error) {
	c.mu.Lock()
	e := c.entry(projectID)
	v := e.version
	if e.loaded == v && time.Since(e.at) < rulesTTL {
		rules := e.rules
		c.mu.Unlock()
		return rules, nil
	}
	c.mu.Unlock()
	at := time.Now()
	rules, err := load(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if e.version == v && (e.loaded != v || e.at.Before(at)) {
		e.loaded, e.at, e.rules = v, at, rules
	}
	c.mu.Unlock()
	return rules, nil
}
