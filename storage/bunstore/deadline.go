package bunstore

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
)

// Default deadlines of the store's calls: a database that stalls, or a
// network that loses its answers, fails the call instead of holding it (and
// the goroutine, connection and request behind it) for ever.
const (
	// DefaultQueryTimeout bounds one query ([Open] sets it; see
	// [AddQueryDeadline]).
	DefaultQueryTimeout = 5 * time.Second
	// DefaultTxTimeout bounds a whole transaction, from acquiring its
	// connection to its commit (see [WithTxTimeout]).
	DefaultTxTimeout = 30 * time.Second
	// DefaultConnectTimeout bounds opening a connection, TLS and
	// authentication included, unless the DSN sets connect_timeout.
	DefaultConnectTimeout = 5 * time.Second
)

// Option configures a Store.
type Option func(*Store)

// WithTxTimeout bounds each transaction the store runs (RunInTx,
// RunInBulkTx) to d (default DefaultTxTimeout); d <= 0 keeps the default.
// A caller's earlier deadline still wins.
func WithTxTimeout(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.txTimeout = d
		}
	}
}

// OpenOption configures [Open].
type OpenOption func(*openConfig)

type openConfig struct {
	query, connect time.Duration
	maxConns       int
	tracer         pgx.QueryTracer
	citus          bool
}

// WithQueryTimeout bounds each query to d (default DefaultQueryTimeout);
// d < 0 turns the bound off.
func WithQueryTimeout(d time.Duration) OpenOption {
	return func(c *openConfig) { c.query = d }
}

// WithConnectTimeout bounds opening a connection to d (default
// DefaultConnectTimeout, or the DSN's connect_timeout).
func WithConnectTimeout(d time.Duration) OpenOption {
	return func(c *openConfig) { c.connect = d }
}

// withDeadline returns ctx bounded by d, unless its own deadline comes
// first.
func withDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// AddQueryDeadline bounds every query db runs to d (unless the caller's
// context has an earlier deadline). [Open] adds it with
// DefaultQueryTimeout; a host that builds its own *bun.DB adds it itself.
func AddQueryDeadline(db *bun.DB, d time.Duration) {
	queryDeadlines.Store(db, d) // for the prepared statements (prepared.go)
	if d > 0 {
		// In place, as callers hold db (bun's WithQueryHook returns a copy).
		*db = *db.WithQueryHook(queryDeadline{d})
	}
}

// queryDeadline is the bun hook of AddQueryDeadline.
type queryDeadline struct{ d time.Duration }

type cancelKey struct{}

// longQueries marks a context whose queries the query deadline leaves
// alone (Migrate: a migration or its lock may take minutes); the caller's
// own deadline bounds them.
type longQueries struct{}

func withoutQueryDeadline(ctx context.Context) context.Context {
	return context.WithValue(ctx, longQueries{}, true)
}

func (h queryDeadline) BeforeQuery(ctx context.Context, ev *bun.QueryEvent) context.Context {
	if ctx.Value(longQueries{}) != nil {
		return ctx
	}
	if ev.IQuery == nil && ev.Query == "BEGIN" {
		// bun makes BEGIN's context the transaction's: the transaction's
		// own deadline (WithTxTimeout) bounds it, not one query's.
		return ctx
	}
	ctx, cancel := withDeadline(ctx, h.d)
	if ev.Stash == nil {
		ev.Stash = map[any]any{}
	}
	ev.Stash[cancelKey{}] = cancel
	return ctx
}

// AfterQuery releases the deadline of a query made with bun's query
// builder, which has read its rows by then (the store never uses
// SelectQuery.Rows, whose rows are read later). A raw QueryContext returns
// rows still to be read when its hook runs: its deadline is left to expire
// on its own.
func (h queryDeadline) AfterQuery(_ context.Context, ev *bun.QueryEvent) {
	if cancel, ok := ev.Stash[cancelKey{}].(context.CancelFunc); ok && ev.IQuery != nil {
		cancel()
	}
}

// WithMaxConns sets the size of the connection pool (open and idle);
// n <= 0 keeps the default, 4 per CPU (at least 4).
func WithMaxConns(n int) OpenOption {
	return func(c *openConfig) {
		if n > 0 {
			c.maxConns = n
		}
	}
}
