package bunstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// A connection PostgreSQL terminates in the middle of a transaction (as a
// restart or an administrator does: SQLSTATE 57P01) undid the transaction
// before its commit: the store's error is unavailable and retryable, every
// domain transaction (storage.TxFor) runs again and commits once, and a
// read meeting such a connection is unavailable (the adapter's 503).
func TestTerminatedConnectionIsRetryable(t *testing.T) {
	dsn := bunstoretest.NewDSN(t)
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Skip("the test needs a URL DSN")
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	app := "promo_terminate_" + hex.EncodeToString(b) // only this test's connections are terminated
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	db, err := bunstore.Open(u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := bunstore.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	admin, err := bunstore.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.Close() })
	terminate := func() {
		t.Helper()
		if _, err := admin.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", app); err != nil {
			t.Fatal(err)
		}
	}
	s := bunstore.New(db)
	add := func(ctx context.Context, tx storage.Tx, key string) error {
		return tx.AddCounters(ctx, "p", redemption.CounterDelta{Key: key, Delta: 1})
	}

	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := add(ctx, tx, "a"); err != nil {
			return err
		}
		terminate()
		return add(ctx, tx, "b")
	})
	t.Logf("terminated in a transaction: %v", err)
	if !errors.Is(err, promotype.ErrRetryable) || !promotype.Unavailable(err) {
		t.Errorf("a transaction whose connection was terminated: %v, want retryable and unavailable", err)
	}

	runs := 0
	err = storage.TxFor(s, func(tx storage.Tx) storage.Tx { return tx })(ctx, func(ctx context.Context, tx storage.Tx) error {
		runs++
		if err := add(ctx, tx, "a"); err != nil {
			return err
		}
		if runs == 1 {
			terminate()
		}
		return add(ctx, tx, "b")
	})
	if err != nil || runs != 2 {
		t.Errorf("a domain transaction whose connection was terminated once: %v after %d runs, want a commit on the second", err, runs)
	}
	c, err := s.Counters(ctx, "p", "a", "b")
	if err != nil || c["a"] != 1 || c["b"] != 1 {
		t.Errorf("counters %v, %v: want the second run's deltas only", c, err)
	}

	terminate() // the pool's idle connections
	_, err = s.Counters(ctx, "p", "a")
	t.Logf("a read after the pool's connections were terminated: %v", err)
	if err != nil && !promotype.Unavailable(err) {
		t.Errorf("a read on a terminated connection: %v, want unavailable (or a fresh connection)", err)
	}
}
