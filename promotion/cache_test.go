package promotion

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// countingBuilder builds empty snapshots and counts them per project.
type countingBuilder struct {
	mu     sync.Mutex
	builds map[string]int
}

func (b *countingBuilder) Snapshot(_ context.Context, projectID string) (*Snapshot, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.builds[projectID]++
	return NewSnapshot(nil, nil, nil), nil
}

func (b *countingBuilder) counts() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return map[string]int{"A": b.builds["A"], "B": b.builds["B"]}
}

func newTestCache(ttl, maxAge time.Duration) (*snapshotCache, *countingBuilder) {
	b := &countingBuilder{builds: map[string]int{}}
	c := newSnapshotCache(b, slog.New(slog.NewTextHandler(io.Discard, nil)))
	c.ttl, c.maxAge = ttl, maxAge
	return c, b
}

func mustSnapshot(t *testing.T, c *snapshotCache, projectID string) *Snapshot {
	t.Helper()
	s, err := c.Snapshot(context.Background(), projectID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCacheChangeIsPerProject: a change told for one project rebuilds that
// project's snapshot at its next use and leaves the other's alone.
func TestCacheChangeIsPerProject(t *testing.T) {
	t.Parallel()
	c, b := newTestCache(time.Hour, time.Hour)
	a0, b0 := mustSnapshot(t, c, "A"), mustSnapshot(t, c, "B")
	mustSnapshot(t, c, "A")
	if diff := cmp.Diff(map[string]int{"A": 1, "B": 1}, b.counts()); diff != "" {
		t.Errorf("builds before any change (-want +got):\n%s", diff)
	}
	c.Changed("A")
	c.Changed("A")
	if mustSnapshot(t, c, "B") != b0 {
		t.Errorf("B's snapshot was replaced by a change in A")
	}
	if mustSnapshot(t, c, "A") == a0 {
		t.Errorf("A's snapshot was served after a change in A")
	}
	mustSnapshot(t, c, "A")
	if diff := cmp.Diff(map[string]int{"A": 2, "B": 1}, b.counts()); diff != "" {
		t.Errorf("builds after two changes in A (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Stats{Projects: 2, Builds: 3}, c.stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

// TestCacheRefreshesInBackground: past the TTL the old snapshot is served
// while one rebuild runs in the background; past the maximum age the
// validation waits for a rebuild.
func TestCacheRefreshesInBackground(t *testing.T) {
	t.Parallel()
	c, b := newTestCache(time.Millisecond, time.Hour)
	first := mustSnapshot(t, c, "A")
	time.Sleep(5 * time.Millisecond)
	if mustSnapshot(t, c, "A") != first {
		t.Errorf("a stale snapshot younger than the maximum age was not served")
	}
	deadline := time.Now().Add(5 * time.Second)
	for b.counts()["A"] < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no background rebuild")
		}
		time.Sleep(time.Millisecond)
	}
	if st := c.stats(); st.Builds != 1 || st.Refreshes < 1 {
		t.Errorf("stats %+v, want 1 build and a refresh", st)
	}

	old, ob := newTestCache(0, time.Millisecond)
	stale := mustSnapshot(t, old, "A")
	time.Sleep(5 * time.Millisecond)
	if mustSnapshot(t, old, "A") == stale || ob.counts()["A"] != 2 {
		t.Errorf("a snapshot past the maximum age was served without a rebuild")
	}
}
