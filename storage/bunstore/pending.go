package bunstore

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// Rows held back in transactions.
//
// Every transaction RunInTx runs holds back its customer activities and
// writes them just before the commit, in one statement. A transaction run
// with write-behind (RunInTxWriteBehind: the redemption's writes) also
// holds back the rows no later step of it needs an answer from — new
// customers and orders, redemption rows and outbox events (not counter
// deltas: see addRun) — and sends them all, in ONE statement
// (pending_send.go), just before the next statement that could read them,
// at the end of a savepoint, or before the commit. A redemption so sends
// its order, its ledger rows, its events and its activities in one round
// trip instead of four, and reads no webhook configuration (the event
// insert keeps the events some configuration hears, in SQL).
//
// Nothing reads past the buffer: every statement of the transaction goes
// through pendingTx, which sends the held rows first, except the prepared
// statements whose table holds no held row (the counters, the voucher
// spend, the reads of vouchers and customers). A held row that cannot be
// stored (its key is taken) fails the whole transaction: the error is kept
// and RunInTx returns it instead of committing, whatever the statement that
// sent the rows returned. Inside a savepoint, the rows are sent when its fn
// returns, so a taken key is that savepoint's error and the transaction
// goes on.

// pending is the rows a transaction holds back, and the first error of
// sending them.
type pending struct {
	behind      bool // write-behind: customers, orders, redemptions and events are held too
	customers   []*customerRow
	orders      []*orderRow
	redemptions []*redemptionRow
	events      []eventRow
	activities  []activityRow
	// heard says the events were kept already (heardEvents, on Citus,
	// which cannot run the event insert's correlated EXISTS over VALUES):
	// the insert writes them all.
	heard bool
	err   error
}

// maxHeld is how many rows a transaction holds back at most: one that
// writes many without reading sends them by this many (bounded memory,
// bounded statements).
const maxHeld = 256

// size is how many rows are held.
func (p *pending) size() int {
	if p == nil {
		return 0
	}
	return len(p.customers) + len(p.orders) + len(p.redemptions) + len(p.events) + len(p.activities)
}

// blocks reports whether a statement must wait for the held rows: rows
// other statements may read are held, or sending them failed.
func (p *pending) blocks() bool {
	return p != nil && (p.err != nil || len(p.customers)+len(p.orders)+len(p.redemptions)+len(p.events) > 0)
}

// holds reports whether rows of table that statements may read are held.
func (p *pending) holds(table string) bool {
	if p == nil {
		return false
	}
	switch table {
	case customerKeys.table:
		return len(p.customers) > 0
	case orderKeys.table:
		return len(p.orders) > 0
	case "promo_redemptions":
		return len(p.redemptions) > 0
	case "promo_events":
		return len(p.events) > 0
	}
	return false
}

// flush sends the held rows through db in one statement and empties the
// buffers. Its error is kept: the transaction cannot commit after it.
func (p *pending) flush(ctx context.Context, db bun.IDB) error {
	if p == nil || p.err != nil {
		return p.errOrNil()
	}
	if p.size() == 0 {
		return nil
	}
	var err error
	for rest := *p; rest.size() > 0 && err == nil; {
		var chunk pending
		chunk, rest = rest.split(maxHeld)
		err = chunk.send(ctx, db)
	}
	p.clear()
	p.err = err
	return err
}

// split returns the first n held rows (customers first, then orders,
// redemptions, activities and events) and the others: one statement binds
// at most n rows' values, well under PostgreSQL's 65,535 parameters.
func (p pending) split(n int) (head, rest pending) {
	head, rest = p, p
	take := func(l int) int {
		k := min(l, n)
		n -= k
		return k
	}
	k := take(len(p.customers))
	head.customers, rest.customers = p.customers[:k:k], p.customers[k:]
	k = take(len(p.orders))
	head.orders, rest.orders = p.orders[:k:k], p.orders[k:]
	k = take(len(p.redemptions))
	head.redemptions, rest.redemptions = p.redemptions[:k:k], p.redemptions[k:]
	k = take(len(p.activities))
	head.activities, rest.activities = p.activities[:k:k], p.activities[k:]
	k = take(len(p.events))
	head.events, rest.events = p.events[:k:k], p.events[k:]
	return head, rest
}

func (p *pending) errOrNil() error {
	if p == nil {
		return nil
	}
	return p.err
}

// clear empties the buffers (keeping their memory).
func (p *pending) clear() {
	p.customers, p.orders, p.redemptions, p.events, p.activities = p.customers[:0], p.orders[:0], p.redemptions[:0], p.events[:0], p.activities[:0]
}

// held is the buffer of rows held back when s is bound to a transaction
// run with write-behind (nil otherwise: write at once).
func (s *Store) held() *pending {
	if _, ok := s.db.(pendingTx); ok && s.pending.behind {
		return s.pending
	}
	return nil
}

// sendIfFull sends the rows s holds back when they reach maxHeld.
func (s *Store) sendIfFull(ctx context.Context) error {
	if s.pending.size() < maxHeld {
		return nil
	}
	return s.sendHeld(ctx)
}

// sendHeld sends the rows s holds back now.
func (s *Store) sendHeld(ctx context.Context) error {
	if s.pending.size() == 0 {
		return s.pending.errOrNil()
	}
	db := s.db
	if t, ok := db.(pendingTx); ok {
		db = t.Tx // not through the barrier: this is the send
	}
	return s.pending.flush(ctx, db)
}

// pendingTx is the transaction RunInTx runs: every statement sent through
// it first sends the rows the transaction holds back (pending.blocks).
type pendingTx struct {
	bun.Tx
	p *pending
}

// barrier sends the held rows when a statement must wait for them; a
// statement that follows a failed send runs with a cancelled context, so
// it fails too (RunInTx returns the send's error).
func (t pendingTx) barrier(ctx context.Context) context.Context {
	if !t.p.blocks() {
		return ctx
	}
	if err := t.p.flush(ctx, t.Tx); err != nil {
		c, cancel := context.WithCancelCause(ctx)
		cancel(err)
		return c
	}
	return ctx
}

// conn is the connection the transaction's queries run on.
func (t pendingTx) conn() bun.IConn { return barrierConn{t} }

func (t pendingTx) NewSelect() *bun.SelectQuery { return t.Tx.NewSelect().Conn(t.conn()) }
func (t pendingTx) NewInsert() *bun.InsertQuery { return t.Tx.NewInsert().Conn(t.conn()) }
func (t pendingTx) NewUpdate() *bun.UpdateQuery { return t.Tx.NewUpdate().Conn(t.conn()) }
func (t pendingTx) NewDelete() *bun.DeleteQuery { return t.Tx.NewDelete().Conn(t.conn()) }
func (t pendingTx) NewMerge() *bun.MergeQuery   { return t.Tx.NewMerge().Conn(t.conn()) }
func (t pendingTx) NewValues(model any) *bun.ValuesQuery {
	return t.Tx.NewValues(model).Conn(t.conn())
}
func (t pendingTx) NewRaw(query string, args ...any) *bun.RawQuery {
	return t.Tx.NewRaw(query, args...).Conn(t.conn())
}

func (t pendingTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(t.barrier(ctx), query, args...)
}

func (t pendingTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(t.barrier(ctx), query, args...)
}

func (t pendingTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(t.barrier(ctx), query, args...)
}

// barrierConn runs the queries of a pendingTx (Bun has run their hooks)
// and its prepared statements that may read held rows: the held rows
// first, then the query on the database/sql transaction.
type barrierConn struct{ t pendingTx }

func (c barrierConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.t.Tx.Tx.ExecContext(c.t.barrier(ctx), query, args...)
}

func (c barrierConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.t.Tx.Tx.QueryContext(c.t.barrier(ctx), query, args...)
}

func (c barrierConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return c.t.Tx.Tx.QueryRowContext(c.t.barrier(ctx), query, args...)
}
