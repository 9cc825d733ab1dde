// Package bunstoretest gives tests of any package a fresh, migrated
// PostgreSQL store:
//
//	func TestSomething(t *testing.T) {
//		store := bunstoretest.New(t) // skips unless PROMO_TEST_POSTGRES_DSN is set
//		...
//	}
//
// Each call creates its own schema (promo_t_<random hex>) in the database
// PROMO_TEST_POSTGRES_DSN names, so tests run in parallel without seeing
// each other, and drops it when the test ends. When the variable is set but
// the database cannot be reached, the test fails: it never skips silently.
package bunstoretest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
)

// EnvDSN is the environment variable that names the test database.
const EnvDSN = "PROMO_TEST_POSTGRES_DSN"

// DSN returns the test database's DSN, or "" when Postgres tests are off.
func DSN() string { return os.Getenv(EnvDSN) }

// New returns a bunstore.Store over a fresh, migrated schema.
func New(t testing.TB) storage.Store {
	t.Helper()
	db := NewDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := bunstore.Migrate(ctx, db); err != nil {
		t.Fatalf("bunstoretest: %v", err)
	}
	return bunstore.New(db)
}

// NewDB returns a *bun.DB whose search_path is a fresh, empty schema (not
// migrated). It skips t when PROMO_TEST_POSTGRES_DSN is unset and fails it
// when the database cannot be reached. The schema is dropped and the pool
// closed when t ends.
func NewDB(t testing.TB) *bun.DB {
	t.Helper()
	db, err := bunstore.Open(NewDSN(t))
	if err != nil {
		t.Fatalf("bunstoretest: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() }) // before NewDSN's cleanup drops the schema
	return db
}

// NewDSN returns the DSN of a fresh empty schema of the test database
// (search_path set; not migrated), for code that opens its own pool such as
// the standalone server. It skips t when PROMO_TEST_POSTGRES_DSN is unset
// and fails it when the database cannot be reached. The schema is dropped
// when t ends.
func NewDSN(t testing.TB) string {
	t.Helper()
	dsn := DSN()
	if dsn == "" {
		t.Skip(EnvDSN + " is not set")
	}
	schema := "promo_t_" + randomHex(8)
	withPath, err := withSearchPath(dsn, schema)
	if err != nil {
		t.Fatalf("bunstoretest: %s: %v", EnvDSN, err)
	}
	db, err := bunstore.Open(dsn)
	if err != nil {
		t.Fatalf("bunstoretest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		t.Fatalf("bunstoretest: %s is set but PostgreSQL is unreachable: %v", EnvDSN, err)
	}
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA ?", bun.Ident(schema)); err != nil {
		_ = db.Close()
		t.Fatalf("bunstoretest: create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP SCHEMA ? CASCADE", bun.Ident(schema)); err != nil {
			t.Errorf("bunstoretest: drop schema %s: %v", schema, err)
		}
		_ = db.Close()
	})
	return withPath
}

// withSearchPath adds search_path=schema to a URL or keyword/value DSN.
func withSearchPath(dsn, schema string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", err
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " search_path=" + schema, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
