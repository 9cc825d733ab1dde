package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/promoengine/promo/auth"
)

// The credential invalidation feed (auth.Store.WatchCredentials) over
// PostgreSQL. One listener per *sql.DB, shared by every Store over it,
// holds a dedicated connection of the pool that LISTENs on authChannel:
//
//   - A revocation's NOTIFY is sent by PostgreSQL when its transaction
//     commits, so every listener (every process over the database) delivers
//     it a network round trip after the commit: about a millisecond on one
//     host. The revoking engine itself has applied it before its call
//     returned.
//   - Every feedCheckInterval the listener reads promo_auth_generation on
//     the same connection. A generation ahead of the last one notified means
//     a notification was missed: subscribers get auth.InvalidateAll. The
//     read is also the connection's health check.
//   - The subscription is current only for feedStaleAfter after the last
//     successful check. When the connection fails, it stops being current at
//     once; the listener reconnects with back-off and, once it listens
//     again, delivers auth.InvalidateAll before it is current again.
//
// So a cache that trusts its entries only while current is behind the
// database by the notification delay, by at most feedCheckInterval if a
// notification is lost on a live connection, and never by more than
// feedStaleAfter: after that it reads the store until the feed recovers.
//
// The listener stops when its last subscriber stops or when the *sql.DB is
// closed (noticed at the next check). A Store over a bun.Tx or bun.Conn has
// no listener: its subscriptions are never current.
const (
	feedCheckInterval = time.Second
	feedStaleAfter    = 3 * feedCheckInterval
	feedCheckTimeout  = 2 * time.Second
	feedMaxBackoff    = 5 * time.Second
)

func neverCurrent() bool { return false }

var (
	listenersMu sync.Mutex
	listeners   = map[*sql.DB]*listener{}
)

// listenerFor returns the running listener of db, starting one if needed.
func listenerFor(db *sql.DB) *listener {
	listenersMu.Lock()
	defer listenersMu.Unlock()
	if l := listeners[db]; l != nil {
		return l
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{db: db, cancel: cancel, subs: map[int]func(auth.Invalidation){}}
	listeners[db] = l
	go l.run(ctx)
	return l
}

// listener is the feed of one *sql.DB.
type listener struct {
	db     *sql.DB
	cancel context.CancelFunc

	mu   sync.Mutex
	next int
	subs map[int]func(auth.Invalidation)

	freshUntil atomic.Int64 // monotonic nanoseconds (since clockBase) until which the feed is current
	pid        atomic.Int64 // backend pid of the listening connection, 0 between sessions
	schema     string       // current_schema() of the listening connection
	seen       int64        // the highest generation delivered
}

// clockBase anchors the monotonic clock of freshUntil.
var clockBase = time.Now()

func monotonic() int64 { return int64(time.Since(clockBase)) }

func (l *listener) current() bool { return monotonic() < l.freshUntil.Load() }

func (l *listener) subscribe(fn func(auth.Invalidation)) (func() bool, func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := l.next
	l.next++
	l.subs[id] = fn
	var once sync.Once
	return l.current, func() { once.Do(func() { l.unsubscribe(id) }) }
}

// unsubscribe removes a subscriber; the last one stops the listener.
func (l *listener) unsubscribe(id int) {
	listenersMu.Lock()
	defer listenersMu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.subs, id)
	if len(l.subs) == 0 {
		l.cancel()
		if listeners[l.db] == l {
			delete(listeners, l.db)
		}
	}
}

func (l *listener) deliver(inv auth.Invalidation) {
	l.mu.Lock()
	subs := make([]func(auth.Invalidation), 0, len(l.subs))
	for _, fn := range l.subs {
		subs = append(subs, fn)
	}
	l.mu.Unlock()
	for _, fn := range subs {
		fn(inv)
	}
}

// run keeps a listening session up until ctx ends or the pool is closed.
func (l *listener) run(ctx context.Context) {
	defer l.retire()
	keepListening(ctx, l.db, l.session, func() { l.freshUntil.Store(0) })
}

// keepListening runs session (one LISTEN connection) until ctx ends or the
// pool is closed, starting it again after each failure (its error only
// means "try again") with a backoff that resets once a session lasted.
// ended, if not nil, runs after each session.
func keepListening(ctx context.Context, db *sql.DB, session func(context.Context) error, ended func()) {
	backoff := 50 * time.Millisecond
	for ctx.Err() == nil && !poolClosed(db) {
		started := time.Now()
		_ = session(ctx)
		if ended != nil {
			ended()
		}
		if time.Since(started) > feedStaleAfter {
			backoff = 50 * time.Millisecond // it worked for a while
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff/2 + rand.N(backoff/2+1)): // jitter: replicas do not reconnect in step
		}
		backoff = min(2*backoff, feedMaxBackoff)
	}
}

// retire takes the listener out of the registry (a later subscriber starts
// a new one).
func (l *listener) retire() {
	l.freshUntil.Store(0)
	listenersMu.Lock()
	defer listenersMu.Unlock()
	if listeners[l.db] == l {
		delete(listeners, l.db)
	}
}

// session listens on one dedicated connection until it fails. The
// connection is closed afterwards, never handed back to the pool still
// listening.
func (l *listener) session(ctx context.Context) error {
	conn, err := l.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }() // back to the pool: nothing to do on failure
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("bunstore: the credential feed needs the pgx driver, not %T", dc)
		}
		if err := l.listen(ctx, sc); err != nil {
			return errors.Join(err, driver.ErrBadConn)
		}
		return driver.ErrBadConn
	})
	return err
}

// listen runs the LISTEN loop on c.
func (l *listener) listen(ctx context.Context, sc *stdlib.Conn) error {
	c := sc.Conn()
	l.pid.Store(int64(c.PgConn().PID()))
	defer l.pid.Store(0)
	setup, cancel := context.WithTimeout(ctx, feedCheckTimeout)
	defer cancel()
	if _, err := c.Exec(setup, "LISTEN "+authChannel); err != nil {
		return err
	}
	var gen int64
	if err := c.QueryRow(setup, "SELECT coalesce(current_schema(), ''), (SELECT gen FROM promo_auth_generation)").Scan(&l.schema, &gen); err != nil {
		return err
	}
	// Anything may have happened while nobody listened.
	l.seen = gen
	l.deliver(auth.InvalidateAll)
	l.freshUntil.Store(monotonic() + int64(feedStaleAfter))

	nextCheck := time.Now().Add(feedCheckInterval)
	for {
		wait, cancel := context.WithDeadline(ctx, nextCheck)
		n, err := c.WaitForNotification(wait)
		cancel()
		switch {
		case err == nil:
			l.notified(n.Payload)
			continue
		case ctx.Err() != nil:
			return ctx.Err()
		case !pgconn.Timeout(err):
			return err
		}
		if poolClosed(l.db) {
			return errPoolClosed
		}
		check, cancel := context.WithTimeout(ctx, feedCheckTimeout)
		err = c.QueryRow(check, "SELECT gen FROM promo_auth_generation").Scan(&gen)
		cancel()
		if err != nil {
			return err
		}
		if gen > l.seen {
			l.seen = gen
			l.deliver(auth.InvalidateAll)
		}
		l.freshUntil.Store(monotonic() + int64(feedStaleAfter))
		nextCheck = time.Now().Add(feedCheckInterval)
	}
}

// notification is the JSON payload of a NOTIFY on authChannel.
type notification struct {
	Schema string `json:"s"`
	Gen    int64  `json:"g"`
	Token  string `json:"t"` // hex SHA-256 of a revoked token
	AppID  string `json:"a"` // a deleted app key
}

// notified delivers one notification of the listener's schema.
func (l *listener) notified(payload string) {
	var n notification
	if err := json.Unmarshal([]byte(payload), &n); err != nil || n.Schema != l.schema {
		return
	}
	l.seen = max(l.seen, n.Gen)
	switch {
	case n.AppID != "":
		l.deliver(auth.Invalidation{AppID: n.AppID})
	case n.Token != "":
		var h auth.TokenHash
		if b, err := hex.DecodeString(n.Token); err == nil && len(b) == len(h) {
			copy(h[:], b)
			l.deliver(auth.Invalidation{Token: &h})
			return
		}
		l.deliver(auth.InvalidateAll)
	}
}

var errPoolClosed = errors.New("bunstore: the database pool is closed")

// poolClosed reports whether db was closed, without touching the network:
// asking a closed pool for a connection fails with its "closed" error
// before it looks at the (already cancelled) context.
func poolClosed(db *sql.DB) bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := db.Conn(ctx)
	if c != nil {
		_ = c.Close()
	}
	return err != nil && !errors.Is(err, context.Canceled)
}
