package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
)

// Prepared statements for the hot paths (validation and redemption).
//
// Bun writes every argument into the SQL text, so each call is a new text
// that PostgreSQL parses and plans again: on the tables with many list
// indexes (vouchers, customers) planning alone took 50–80 µs a statement,
// about a third of a redemption's server time. A prepared statement is
// parsed once per connection and, once PostgreSQL settles on a generic
// plan, not planned again. So the hot statements are written once by Bun
// with $n placeholders (bun.Safe("$1")), cached as text, and sent with
// their arguments through the pgx driver in QueryExecModeCacheStatement
// (prepared on first use on each connection, kept in pgx's per-connection
// cache). Their rows are scanned by Bun's model scanning as before.
//
// These statements bypass Bun's query hooks: the query deadline is applied
// here ([AddQueryDeadline]'s duration for the db, else
// DefaultQueryTimeout), and a tracing hook (bunotel) does not see them.

// prepared is a statement whose text Bun builds once, on first use.
type prepared struct {
	once  sync.Once
	text  string
	build func(db bun.IDB) string
	// table is the one table the statement reads or writes (triggers
	// aside): in a transaction, the rows held back for another table are
	// not sent before it (pending).
	table string
}

// newPrepared returns the statement build writes on table: build renders
// a Bun query whose arguments are bun.Safe("$1"), bun.Safe("$2"), ...
func newPrepared(table string, build func(db bun.IDB) string) *prepared {
	return &prepared{build: build, table: table}
}

func (p *prepared) sql(db bun.IDB) string {
	p.once.Do(func() { p.text = p.build(db) })
	return p.text
}

// statements are the prepared statements built for a table and a shape
// of query (cachedStatement).
var statements sync.Map // string → *prepared

// cachedStatement is the statement of key on table, built by build on
// its first use.
func cachedStatement(key, table string, build func(db bun.IDB) string) *prepared {
	if p, ok := statements.Load(key); ok {
		return p.(*prepared)
	}
	p, _ := statements.LoadOrStore(key, newPrepared(table, build))
	return p.(*prepared)
}

// rawPrepared is a statement on table written by hand with $n
// placeholders.
func rawPrepared(table, text string) *prepared {
	return &prepared{build: func(bun.IDB) string { return text }, table: table}
}

// placeholder is the n-th argument of a prepared statement.
func placeholder(n int) bun.Safe { return bun.Safe(fmt.Sprintf("$%d", n)) }

// rawQuerier is the database/sql handle under a bun.IDB.
type rawQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func raw(db bun.IDB) rawQuerier {
	switch d := db.(type) {
	case *bun.DB:
		return d.DB
	case bun.Tx:
		return d.Tx
	case *bun.Tx:
		return d.Tx
	case bun.Conn:
		return d.Conn
	case *bun.Conn:
		return d.Conn
	case copyTx:
		return d.Tx.Tx
	case pendingTx:
		return barrierConn{d}
	}
	panic(fmt.Sprintf("bunstore: unsupported bun.IDB %T", db))
}

// queryDeadlines holds the duration AddQueryDeadline set for each *bun.DB.
var queryDeadlines sync.Map // *bun.DB → time.Duration

func rootDB(db bun.IDB) *bun.DB { return db.NewSelect().DB() }

func queryTimeout(root *bun.DB) time.Duration {
	if d, ok := queryDeadlines.Load(root); ok {
		return d.(time.Duration)
	}
	return DefaultQueryTimeout
}

// queryPrepared runs p with args and hands its rows to scan; the rows are
// closed and the deadline released when it returns.
func queryPrepared(ctx context.Context, db bun.IDB, p *prepared, args []any, scan func(root *bun.DB, rows *sql.Rows) error) error {
	root := rootDB(db)
	if ctx.Value(longQueries{}) == nil {
		var cancel context.CancelFunc
		ctx, cancel = withDeadline(ctx, queryTimeout(root))
		defer cancel()
	}
	all := make([]any, 0, len(args)+1)
	all = append(append(all, pgx.QueryExecModeCacheStatement), args...)
	q := raw(db)
	if t, ok := db.(pendingTx); ok && !t.p.holds(p.table) {
		q = t.Tx.Tx // nothing held for p's table: the held rows wait
	}
	rows, err := q.QueryContext(ctx, p.sql(db), all...)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }() // rows.Err reports a failed read
	if err := scan(root, rows); err != nil {
		return err
	}
	return rows.Err()
}

// getPrepared scans the first row of p into dest (a Bun model);
// sql.ErrNoRows when there is none.
func getPrepared(ctx context.Context, db bun.IDB, p *prepared, dest any, args ...any) error {
	return queryPrepared(ctx, db, p, args, func(root *bun.DB, rows *sql.Rows) error {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return err
			}
			return sql.ErrNoRows
		}
		return root.ScanRow(ctx, rows, dest)
	})
}

// selectPrepared scans every row of p into dest (a pointer to a slice of
// a Bun model).
func selectPrepared(ctx context.Context, db bun.IDB, p *prepared, dest any, args ...any) error {
	return queryPrepared(ctx, db, p, args, func(root *bun.DB, rows *sql.Rows) error {
		return root.ScanRows(ctx, rows, dest)
	})
}
