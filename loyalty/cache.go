package loyalty

import (
	"context"

	"github.com/promoengine/promo/campaign"

	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Freshness of a project's earning rules in memory. Rules written through
// this engine are read again by the next earning (read your writes).
// Rules written through another engine over the same store (another
// replica) are seen after rulesTTL: an older copy is still used while one
// background read refreshes it, so no order waits for it (and a paid
// order in a project without rules costs no statement); past rulesMaxAge
// (a refresh kept failing) earnings read the rules again themselves. The
// promotion snapshot cache works the same way.
const (
	rulesTTL    = time.Second
	rulesMaxAge = 10 * time.Second
)

// ruleCache keeps, per project, its active earning rules and its tiers.
type ruleCache struct {
	mu       sync.Mutex
	projects map[string]*ruleEntry
}

type ruleEntry struct {
	version uint64 // bumped by changed
	loaded  *loadedRules
}

// loadedRules are a project's rules as read at a version.
type loadedRules struct {
	version    uint64
	at         time.Time
	rules      *projectRules
	refreshing atomic.Bool
}

// projectRules are what a project's earnings read: its active rules, the
// programs they belong to (nil: missing or inactive) and the programs'
// tiers, by campaign id. A write of a campaign reaches the cache through
// Service.Changed.
type projectRules struct {
	rules     []*EarningRule
	programs  map[string]*campaign.Campaign
	tiers     map[string][]*Tier
	tierRules map[string]*TiersExpiration // how members hold the tiers, by campaign id
}

func newRuleCache() ruleCache { return ruleCache{projects: map[string]*ruleEntry{}} }

// changed drops the project's rules: the next earning reads them again.
func (c *ruleCache) changed(projectID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entry(projectID).version++
}

func (c *ruleCache) entry(projectID string) *ruleEntry {
	e := c.projects[projectID]
	if e == nil {
		e = &ruleEntry{version: 1}
		c.projects[projectID] = e
	}
	return e
}

// get returns the project's rules: the copy kept for the current version
// when it is younger than rulesTTL; an older one (below rulesMaxAge) while
// refresh reads them again in the background; otherwise what load reads
// (in the caller's transaction). The rules returned are shared: callers
// must not change them.
func (c *ruleCache) get(ctx context.Context, projectID string, load, refresh func(ctx context.Context) (*projectRules, error), logger *slog.Logger) (*projectRules, error) {
	c.mu.Lock()
	e := c.entry(projectID)
	v, l := e.version, e.loaded
	c.mu.Unlock()
	if l != nil && l.version == v {
		age := time.Since(l.at)
		if age < rulesTTL {
			return l.rules, nil
		}
		if age < rulesMaxAge {
			if l.refreshing.CompareAndSwap(false, true) {
				go c.refresh(projectID, l, refresh, logger)
			}
			return l.rules, nil
		}
	}
	at := time.Now()
	rules, err := load(ctx)
	if err != nil {
		return nil, err
	}
	c.keep(projectID, v, at, rules)
	return rules, nil
}

// keep keeps rules read at version v at time at, unless newer ones are
// kept.
func (c *ruleCache) keep(projectID string, v uint64, at time.Time, rules *projectRules) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(projectID)
	if cur := e.loaded; e.version == v && (cur == nil || cur.version < v || cur.at.Before(at)) {
		e.loaded = &loadedRules{version: v, at: at, rules: rules}
	}
}

// refresh reads stale rules again in the background; on failure the next
// earning past the TTL tries again.
func (c *ruleCache) refresh(projectID string, stale *loadedRules, refresh func(ctx context.Context) (*projectRules, error), logger *slog.Logger) {
	defer stale.refreshing.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), rulesMaxAge)
	defer cancel()
	at := time.Now()
	rules, err := refresh(ctx)
	if err != nil {
		if logger != nil {
			logger.LogAttrs(ctx, slog.LevelWarn, "promo: refreshing the earning rules", slog.String("project_id", projectID), slog.Any("error", err))
		}
		return
	}
	c.keep(projectID, stale.version, at, rules)
}
