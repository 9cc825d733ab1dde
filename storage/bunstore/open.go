package bunstore

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// Open returns a *bun.DB for dsn (a PostgreSQL URL or keyword/value string,
// as pgx parses it) over the pgx database/sql driver. It does not connect:
// the first query (or db.PingContext) does.
//
// Bun formats every argument into the SQL text itself, so unless dsn names a
// default_query_exec_mode, queries go over the simple protocol: one round
// trip each, instead of pgx preparing and caching every distinct query text.
// The few statements of the hot paths that the store prepares itself get
// generic plans (plan_cache_mode force_generic_plan, unless dsn sets it).
//
// The pool keeps up to 4 connections per CPU (at least 4), all of which may
// idle, each closed after 5 idle minutes or 30 minutes of life; a host
// changes them through db.DB (a *sql.DB).
//
// Every query is bounded by DefaultQueryTimeout and every connection
// attempt by DefaultConnectTimeout (unless dsn sets connect_timeout), so
// that a database that accepts connections but never answers fails calls
// instead of hanging them; opts change both.
func Open(dsn string, opts ...OpenOption) (*bun.DB, error) {
	oc := openConfig{query: DefaultQueryTimeout, connect: DefaultConnectTimeout}
	for _, o := range opts {
		o(&oc)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("bunstore: parse dsn: %w", err)
	}
	if !strings.Contains(dsn, "connect_timeout") {
		cfg.ConnectTimeout = oc.connect
	}
	if !strings.Contains(dsn, "default_query_exec_mode") {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	}
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set && oc.citus {
		// A Citus coordinator cannot plan some of the prepared statements
		// generically (an array parameter over the distribution column:
		// "could not create distributed plan"); with custom plans it sees
		// the values and routes each execution to its shard.
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	} else if !set {
		// The prepared statements of the hot paths (prepared.go) are
		// lookups by key whose generic plan is the right one; PostgreSQL's
		// default would plan the array-parameter ones again on every call.
		cfg.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	if oc.tracer != nil {
		cfg.Tracer = oc.tracer
	}
	sqldb := stdlib.OpenDB(*cfg)
	conns := max(4, 4*runtime.GOMAXPROCS(0))
	if oc.maxConns > 0 {
		conns = oc.maxConns
	}
	sqldb.SetMaxOpenConns(conns)
	sqldb.SetMaxIdleConns(conns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	sqldb.SetConnMaxLifetime(30 * time.Minute)
	db := bun.NewDB(sqldb, pgdialect.New())
	AddQueryDeadline(db, oc.query)
	return db, nil
}

// WithCitus opens a pool to a Citus coordinator (docs/architecture.md,
// "Scaling out on Citus"): the prepared statements of the hot paths are
// planned for their arguments on each execution (plan_cache_mode
// force_custom_plan, unless dsn sets it), which Citus needs to route them
// to one shard.
func WithCitus() OpenOption {
	return func(c *openConfig) { c.citus = true }
}

// WithQueryTracer hands every statement the pgx driver sends — Bun's, the
// store's prepared ones, BEGIN and COMMIT — to t (pgx's tracing hook: for
// driver-level tracing, or to count round trips).
func WithQueryTracer(t pgx.QueryTracer) OpenOption {
	return func(c *openConfig) { c.tracer = t }
}
