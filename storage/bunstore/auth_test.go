package bunstore_test

import (
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// replica opens a second pool over db's schema: another process over the
// same database.
func replica(t *testing.T, db *bun.DB) *bun.DB {
	t.Helper()
	var schema string
	must(t, db.NewSelect().ColumnExpr("current_schema()").Scan(ctx, &schema))
	u, err := url.Parse(bunstoretest.DSN())
	if err != nil {
		t.Skipf("the replica test needs a URL DSN: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	other, err := bunstore.Open(u.String())
	must(t, err)
	t.Cleanup(func() { _ = other.Close() })
	return other
}

// recorder collects the invalidations a subscription delivers.
type recorder struct {
	mu   sync.Mutex
	got  []auth.Invalidation
	wake chan struct{}
}

func newRecorder() *recorder { return &recorder{wake: make(chan struct{}, 1000)} }

func (r *recorder) deliver(inv auth.Invalidation) {
	r.mu.Lock()
	r.got = append(r.got, inv)
	r.mu.Unlock()
	r.wake <- struct{}{}
}

// wait returns the first delivered invalidation that match accepts, or
// fails after timeout.
func (r *recorder) wait(t *testing.T, what string, timeout time.Duration, match func(auth.Invalidation) bool) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := time.After(timeout)
	for {
		r.mu.Lock()
		for i, inv := range r.got {
			if match(inv) {
				r.got = append(r.got[:i:i], r.got[i+1:]...)
				r.mu.Unlock()
				return time.Since(start)
			}
		}
		r.mu.Unlock()
		select {
		case <-r.wake:
		case <-deadline:
			t.Fatalf("%s: not delivered within %v", what, timeout)
		}
	}
}

func waitCurrent(t *testing.T, current func() bool, want bool, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for current() != want {
		if time.Now().After(deadline) {
			t.Fatalf("the subscription is not current=%v after %v", want, timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func isAll(inv auth.Invalidation) bool { return inv.All }

// keyedToken stores a project, an app key and a token, and returns it.
func keyedToken(t *testing.T, s *bunstore.Store) *auth.Token {
	t.Helper()
	must(t, s.InsertProject(ctx, &project.Project{ID: "p", Name: "P", TimeZone: "UTC", CreatedAt: at(0)}))
	must(t, s.InsertAppKey(ctx, &auth.AppKey{AppID: "app", ProjectID: "p", SecretHash: auth.Hash("secret"), CreatedAt: at(0)}))
	tok := &auth.Token{Hash: auth.HashToken("tok"), ProjectID: "p", ClientID: "app", Scope: "api", CreatedAt: at(0), ExpiresAt: at(15)}
	must(t, s.InsertToken(ctx, tok, 10))
	return tok
}

// A revocation committed through one pool reaches the subscribers of
// another pool (another process) through NOTIFY, in milliseconds.
func TestFeedAcrossPools(t *testing.T) {
	db, s := migrated(t)
	other := bunstore.New(replica(t, db))
	rec := newRecorder()
	current, stop := other.WatchCredentials(rec.deliver)
	defer stop()
	waitCurrent(t, current, true, 10*time.Second)
	rec.wait(t, "the first InvalidateAll", time.Second, isAll)

	tok := keyedToken(t, s)
	must(t, s.RevokeToken(ctx, "p", tok.Hash, at(1)))
	took := rec.wait(t, "the revocation", 5*time.Second, func(inv auth.Invalidation) bool {
		return inv.Token != nil && *inv.Token == tok.Hash
	})
	t.Logf("revocation delivered to the other pool %v after RevokeToken returned", took)
	must(t, s.DeleteAppKey(ctx, "p", "app", at(2)))
	rec.wait(t, "the key deletion", 5*time.Second, func(inv auth.Invalidation) bool { return inv.AppID == "app" })
}

// A notification that never comes (the generation moved without one) is
// caught by the periodic generation check: everything is invalidated.
func TestFeedMissedNotification(t *testing.T) {
	db, s := migrated(t)
	rec := newRecorder()
	current, stop := s.WatchCredentials(rec.deliver)
	defer stop()
	waitCurrent(t, current, true, 10*time.Second)
	rec.wait(t, "the first InvalidateAll", time.Second, isAll)
	_, err := db.ExecContext(ctx, "UPDATE promo_auth_generation SET gen = gen + 1")
	must(t, err)
	took := rec.wait(t, "InvalidateAll after a missed notification", 3*time.Second, isAll)
	t.Logf("missed notification detected after %v", took)
}

// When the listening connection dies the subscription stops being current
// at its next check, and after the reconnection it delivers InvalidateAll
// before it is current again.
func TestFeedReconnects(t *testing.T) {
	db, s := migrated(t)
	rec := newRecorder()
	current, stop := s.WatchCredentials(rec.deliver)
	defer stop()
	waitCurrent(t, current, true, 10*time.Second)
	rec.wait(t, "the first InvalidateAll", time.Second, isAll)
	pid := bunstore.ListenerPID(db)
	if pid == 0 {
		t.Fatal("no listening connection")
	}
	var killed bool
	must(t, db.NewRaw("SELECT pg_terminate_backend(?)", pid).Scan(ctx, &killed))
	if !killed {
		t.Fatalf("could not terminate the listening backend %d", pid)
	}
	rec.wait(t, "InvalidateAll after the reconnection", 10*time.Second, isAll)
	waitCurrent(t, current, true, 10*time.Second)
}

// A store bound to a transaction has no listener: never current.
func TestFeedInTransactionNeverCurrent(t *testing.T) {
	db, _ := migrated(t)
	tx, err := db.BeginTx(ctx, nil)
	must(t, err)
	defer func() { _ = tx.Rollback() }()
	current, stop := bunstore.New(tx).WatchCredentials(func(auth.Invalidation) {})
	defer stop()
	if current() {
		t.Error("a transaction-bound store's feed is current")
	}
}

// The listener stops when the pool is closed.
func TestFeedStopsWithThePool(t *testing.T) {
	db, _ := migrated(t)
	other := replica(t, db)
	_, stop := bunstore.New(other).WatchCredentials(func(auth.Invalidation) {})
	defer stop()
	deadline := time.Now().Add(10 * time.Second)
	for bunstore.ListenerPID(other) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the listener never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	must(t, other.Close())
	deadline = time.Now().Add(5 * time.Second)
	for bunstore.ListenerRunning(other) {
		if time.Now().After(deadline) {
			t.Fatal("the listener outlived its pool")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
