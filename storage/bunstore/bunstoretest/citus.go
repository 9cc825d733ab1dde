package bunstoretest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
)

// Stores on the Citus cluster come from a pool of migrated schemas.
// Migrating a fresh schema on the cluster takes seconds (every DDL
// statement is a distributed transaction over the coordinator and the
// workers), which over the suite's hundred or so stores would be minutes;
// emptying a schema with one TRUNCATE takes a fraction of a second. So
// NewCitus takes a free schema of the pool (migrating a new one when none
// is free), and when the test ends, closes its pool and empties the
// schema in the background, giving it back when done: meanwhile the next
// test runs on another schema (the pool keeps poolTarget of them). DropCitusPool drops the pool's schemas (call it from
// TestMain); a process that dies leaves them (promo_pool_<pid>_...) for
// the next DropCitusPool, of any process, to drop.
var pool struct {
	mu       sync.Mutex
	changed  *sync.Cond // a schema was given back, or could not be
	free     []string   // schemas, migrated and empty
	cleaning int        // schemas being emptied
	size     int        // schemas this process created
	emptying sync.WaitGroup
}

func init() { pool.changed = sync.NewCond(&pool.mu) }

// poolTarget is how many schemas the pool makes before a test waits for
// one being emptied rather than migrating another.
const poolTarget = 2

// poolPrefix names the pool's schemas.
const poolPrefix = "promo_pool_"

// citusDSN returns EnvCitusDSN with citus.shard_count set, skipping t
// when it is unset.
func citusDSN(t testing.TB) string {
	t.Helper()
	dsn := CitusDSN()
	if dsn == "" {
		t.Skip(EnvCitusDSN + " is not set")
	}
	if !strings.Contains(dsn, "citus.shard_count") {
		var err error
		if dsn, err = withParam(dsn, "citus.shard_count", citusShardCount); err != nil {
			t.Fatalf("bunstoretest: %s: %v", EnvCitusDSN, err)
		}
	}
	return dsn
}

// NewCitus is New on the Citus cluster EnvCitusDSN names: the schema's
// tables are distributed (bunstore.Migrate's Citus mode). It skips t when
// EnvCitusDSN is unset.
func NewCitus(t testing.TB) storage.Store {
	t.Helper()
	return bunstore.New(openDB(t, NewCitusStoreDSN(t), bunstore.WithCitus(), bunstore.WithQueryTimeout(citusQueryTimeout))) // closed before the schema is emptied
}

// citusQueryTimeout bounds each query of a store on the test cluster:
// three PostgreSQL instances share the test machine's cores, and under the
// concurrency tests (200 redemptions of one voucher) a query waits for a
// pooled connection longer than bunstore.DefaultQueryTimeout.
const citusQueryTimeout = 30 * time.Second

// NewCitusStoreDSN returns the DSN (search_path set) of a migrated, empty
// schema of the pool on the cluster, for tests that open their own pools
// (with bunstore.WithCitus); they must close them in a cleanup registered
// after this call. The schema goes back to the pool when t ends. It skips t
// when EnvCitusDSN is unset.
func NewCitusStoreDSN(t testing.TB) string {
	t.Helper()
	dsn := citusDSN(t)
	admin, err := bunstore.Open(dsn)
	if err != nil {
		t.Fatalf("bunstoretest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		_ = admin.Close()
		t.Fatalf("bunstoretest: %s is set but the cluster is unreachable: %v", EnvCitusDSN, err)
	}
	schema, err := takeSchema(ctx, admin, dsn)
	if err != nil {
		_ = admin.Close()
		t.Fatalf("bunstoretest: %v", err)
	}
	t.Cleanup(func() {
		pool.mu.Lock()
		pool.cleaning++
		pool.mu.Unlock()
		pool.emptying.Add(1)
		go func() {
			defer pool.emptying.Done()
			defer func() { _ = admin.Close() }()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := emptySchema(ctx, admin, schema)
			pool.mu.Lock()
			defer pool.mu.Unlock()
			pool.cleaning--
			if err != nil { // the schema is left for DropCitusPool
				fmt.Fprintf(os.Stderr, "bunstoretest: empty %s: %v\n", schema, err)
			} else {
				pool.free = append(pool.free, schema)
			}
			pool.changed.Broadcast()
		}()
	})
	withPath, err := withParam(dsn, "search_path", schema)
	if err != nil {
		t.Fatalf("bunstoretest: %v", err)
	}
	return withPath
}

// takeSchema returns a free schema of the pool, or a new migrated one.
func takeSchema(ctx context.Context, admin *bun.DB, dsn string) (string, error) {
	pool.mu.Lock()
	for len(pool.free) == 0 && pool.cleaning > 0 && pool.size >= poolTarget {
		pool.changed.Wait() // an emptying is bounded by its own minute
	}
	if n := len(pool.free); n > 0 {
		s := pool.free[n-1]
		pool.free = pool.free[:n-1]
		pool.mu.Unlock()
		return s, nil
	}
	pool.size++
	pool.mu.Unlock()
	schema := fmt.Sprintf("%s%d_%s", poolPrefix, os.Getpid(), randomHex(4))
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA ?", bun.Ident(schema)); err != nil {
		return "", fmt.Errorf("create schema: %w", err)
	}
	withPath, err := withParam(dsn, "search_path", schema)
	if err != nil {
		return "", err
	}
	db, err := bunstore.Open(withPath, bunstore.WithCitus())
	if err != nil {
		return "", err
	}
	defer func() { _ = db.Close() }()
	if err := bunstore.Migrate(ctx, db); err != nil {
		return "", err
	}
	return schema, nil
}

// emptySchema truncates the tables of schema that hold rows (a truncation
// of all of them costs a distributed transaction over every shard: about
// a second), restarting their sequences, and puts back the row the
// migrations seed in promo_auth_generation.
func emptySchema(ctx context.Context, admin *bun.DB, schema string) error {
	var probe string
	err := admin.NewRaw(`SELECT string_agg(format('SELECT %L AS t WHERE EXISTS (SELECT 1 FROM %s)', table_name, format('%I.%I', table_schema, table_name)), ' UNION ALL ')
		FROM information_schema.tables
		WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name <> 'promo_schema_migrations'`, schema).
		Scan(ctx, &probe)
	if err != nil {
		return err
	}
	var full []string
	if err := admin.NewRaw(probe).Scan(ctx, &full); err != nil {
		return err
	}
	reseed := false
	for i, t := range full {
		reseed = reseed || t == "promo_auth_generation"
		full[i] = pgx.Identifier{schema, t}.Sanitize()
	}
	if len(full) == 0 {
		return nil
	}
	return admin.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "TRUNCATE "+strings.Join(full, ", ")+" RESTART IDENTITY CASCADE"); err != nil {
			return err
		}
		if !reseed {
			return nil
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO ?.promo_auth_generation (id, gen) VALUES (true, 0)", bun.Ident(schema))
		return err
	})
}

// Main is the TestMain of a package whose tests use the Citus stores: it
// runs the tests, then drops the Citus pool (DropCitusPool), failing the
// run when that fails, and exits.
func Main(m *testing.M) {
	code := m.Run()
	if err := DropCitusPool(); err != nil {
		fmt.Fprintln(os.Stderr, "bunstoretest: drop the Citus pool:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// DropCitusPool drops the pooled schemas of this process and those a dead
// process left on the cluster EnvCitusDSN names; it does nothing when the
// variable is unset. Call it from TestMain after m.Run.
func DropCitusPool() error {
	dsn := CitusDSN()
	if dsn == "" {
		return nil
	}
	pool.emptying.Wait()
	pool.mu.Lock()
	pool.free, pool.size = nil, 0
	pool.mu.Unlock()
	db, err := bunstore.Open(dsn)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var schemas []string
	if err := db.NewRaw("SELECT nspname FROM pg_namespace WHERE starts_with(nspname, ?)", poolPrefix).Scan(ctx, &schemas); err != nil {
		return err
	}
	for _, s := range schemas {
		if !ownedOrOrphaned(s) {
			continue
		}
		if _, err := db.ExecContext(ctx, "DROP SCHEMA ? CASCADE", bun.Ident(s)); err != nil {
			return fmt.Errorf("drop %s: %w", s, err)
		}
	}
	return nil
}

// ownedOrOrphaned reports whether the pooled schema s is this process's or
// that of a process no longer running.
func ownedOrOrphaned(s string) bool {
	pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(s, poolPrefix), "_", 2)[0])
	if err != nil || pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscall.Signal(0)) != nil
}
