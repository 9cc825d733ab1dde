package promotion

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// snapshotter gives a project's compiled tiers. The store-backed builder
// and the cache in front of it both are one.
type snapshotter interface {
	Snapshot(ctx context.Context, projectID string) (*Snapshot, error)
}

// Snapshot freshness. Writes through this service's engine (told through
// Changed) rebuild a project's snapshot before the next validation reads
// it: read your writes. Writes through another engine (another replica)
// are seen after snapshotTTL: an older snapshot is still served while one
// request's background rebuild runs, so no validation waits for a rebuild
// of a big project; past snapshotMaxAge (a rebuild kept failing)
// validations wait for one.
const (
	snapshotTTL    = time.Second
	snapshotMaxAge = 10 * time.Second
)

// snapshotCache wraps a snapshotter with a per-project cache. Each project
// has its own version, bumped by Changed: a write in one project never
// rebuilds another's snapshot.
type snapshotCache struct {
	next        snapshotter
	logger      *slog.Logger
	ttl, maxAge time.Duration // snapshotTTL and snapshotMaxAge; shorter in tests

	mu       sync.Mutex
	projects map[string]*cacheSlot

	builds, refreshes atomic.Uint64
}

// cacheSlot is one project's version and latest snapshot.
type cacheSlot struct {
	version uint64      // changes told for the project
	entry   *cacheEntry // nil until a snapshot is built
}

// cacheEntry is a snapshot built at a project version.
type cacheEntry struct {
	version    uint64
	built      time.Time
	snap       *Snapshot
	refreshing atomic.Bool // a background rebuild is under way
}

func newSnapshotCache(next snapshotter, logger *slog.Logger) *snapshotCache {
	return &snapshotCache{next: next, logger: logger, ttl: snapshotTTL, maxAge: snapshotMaxAge, projects: map[string]*cacheSlot{}}
}

// slot returns the project's slot, making it; c.mu must be held.
func (c *snapshotCache) slot(projectID string) *cacheSlot {
	s := c.projects[projectID]
	if s == nil {
		s = &cacheSlot{}
		c.projects[projectID] = s
	}
	return s
}

// Changed drops the project's snapshot: the next validation rebuilds it.
func (c *snapshotCache) Changed(projectID string) {
	c.mu.Lock()
	c.slot(projectID).version++
	c.mu.Unlock()
}

// Snapshot returns the project's snapshot: from the cache when no change
// was told since it was built, rebuilding in the background once it is
// older than the TTL.
func (c *snapshotCache) Snapshot(ctx context.Context, projectID string) (*Snapshot, error) {
	var v uint64
	var ent *cacheEntry
	c.mu.Lock()
	if s := c.projects[projectID]; s != nil {
		v, ent = s.version, s.entry
	}
	c.mu.Unlock()
	if ent != nil && ent.version == v {
		age := time.Since(ent.built)
		if age < c.ttl {
			return ent.snap, nil
		}
		if age < c.maxAge {
			if ent.refreshing.CompareAndSwap(false, true) {
				go c.refresh(projectID, ent)
			}
			return ent.snap, nil
		}
	}
	c.builds.Add(1)
	return c.rebuild(ctx, projectID, v)
}

// rebuild builds the project's snapshot and caches it as of version v (the
// project's version read before building), unless a newer one is cached.
func (c *snapshotCache) rebuild(ctx context.Context, projectID string, v uint64) (*Snapshot, error) {
	built := time.Now()
	snap, err := c.next.Snapshot(ctx, projectID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	s := c.slot(projectID)
	if cur := s.entry; cur == nil || cur.version < v || (cur.version == v && cur.built.Before(built)) {
		s.entry = &cacheEntry{version: v, built: built, snap: snap}
	}
	c.mu.Unlock()
	return snap, nil
}

// refresh rebuilds a stale snapshot in the background; on failure the next
// validation past the TTL tries again.
func (c *snapshotCache) refresh(projectID string, stale *cacheEntry) {
	defer stale.refreshing.Store(false)
	c.refreshes.Add(1)
	ctx, cancel := context.WithTimeout(context.Background(), c.maxAge)
	defer cancel()
	if _, err := c.rebuild(ctx, projectID, stale.version); err != nil {
		c.logger.LogAttrs(ctx, slog.LevelWarn, "promo: refreshing the promotion snapshot", slog.String("project_id", projectID), slog.Any("error", err))
	}
}

// Stats counts the work of a Service's snapshot cache since it was made.
type Stats struct {
	// Projects is the number of projects with a cached snapshot.
	Projects int
	// Builds counts the snapshots built while a validation waited: a
	// project's first, the first after a change in the project, or one
	// older than the cache's maximum age.
	Builds uint64
	// Refreshes counts the snapshots rebuilt in the background because they
	// were older than the cache's time to live (to see writes made through
	// another engine over the same store).
	Refreshes uint64
}

func (c *snapshotCache) stats() Stats {
	st := Stats{Builds: c.builds.Load(), Refreshes: c.refreshes.Load()}
	c.mu.Lock()
	for _, s := range c.projects {
		if s.entry != nil {
			st.Projects++
		}
	}
	c.mu.Unlock()
	return st
}
