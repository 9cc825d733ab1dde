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

// EnvCitusDSN names the database of a Citus coordinator (with the citus
// extension and its workers registered) for the same tests on a cluster:
// NewCitus, NewCitusDB and NewCitusDSN read it instead of EnvDSN.
const EnvCitusDSN = "PROMO_TEST_CITUS_DSN"

// citusShardCount is the shard count of the tests' distributed tables
// unless the DSN sets citus.shard_count: two per worker of the test
// cluster, so that projects spread over both workers while a fresh schema
// stays quick to create.
const citusShardCount = "4"

// DSN returns the test database's DSN, or "" when Postgres tests are off.
func DSN() string { return os.Getenv(EnvDSN) }

// CitusDSN returns the test cluster's DSN, or "" when Citus tests are off.
func CitusDSN() string { return os.Getenv(EnvCitusDSN) }

// New returns a bunstore.Store over a fresh, migrated schema.
func New(t testing.TB) storage.Store {
	t.Helper()
	return newStore(t, NewDB(t))
}

func newStore(t testing.TB, db *bun.DB) storage.Store {
	t.Helper()
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
	return openDB(t, NewDSN(t))
}

// NewCitusDB is NewDB on the Citus cluster EnvCitusDSN names, opened
// with bunstore.WithCitus.
func NewCitusDB(t testing.TB) *bun.DB {
	t.Helper()
	return openDB(t, NewCitusDSN(t), bunstore.WithCitus())
}

func openDB(t testing.TB, dsn string, opts ...bunstore.OpenOption) *bun.DB {
	t.Helper()
	db, err := bunstore.Open(dsn, opts...)
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
	return newSchema(t, EnvDSN, DSN())
}

// NewCitusDSN is NewDSN on the Citus cluster EnvCitusDSN names (a schema
// is created on the coordinator and Citus creates it on the workers). The
// DSN sets citus.shard_count to citusShardCount unless it sets it itself.
func NewCitusDSN(t testing.TB) string {
	t.Helper()
	return newSchema(t, EnvCitusDSN, citusDSN(t))
}

func newSchema(t testing.TB, env, dsn string) string {
	t.Helper()
	if dsn == "" {
		t.Skip(env + " is not set")
	}
	schema := "promo_t_" + randomHex(8)
	withPath, err := withParam(dsn, "search_path", schema)
	if err != nil {
		t.Fatalf("bunstoretest: %s: %v", env, err)
	}
	db, err := bunstore.Open(dsn)
	if err != nil {
		t.Fatalf("bunstoretest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		t.Fatalf("bunstoretest: %s is set but PostgreSQL is unreachable: %v", env, err)
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

// withParam adds key=value to a URL or keyword/value DSN.
func withParam(dsn, key, value string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", err
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " " + key + "=" + value, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
