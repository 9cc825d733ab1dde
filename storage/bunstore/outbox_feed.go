package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
)

// The event feed (webhook.OutboxStore.WatchEvents) over PostgreSQL: each
// watch holds a dedicated connection of the pool that LISTENs on
// eventsChannel. AppendEvents notifies in the appending transaction, so the
// watcher of every process over the database is woken a network round trip
// after the commit. The connection is checked every eventFeedCheck; when
// it fails the watch reconnects with back-off and wakes once listening
// again (events may have been appended meanwhile). Dispatchers poll as
// well, so a lost notification costs latency, never an event.
const eventFeedCheck = 30 * time.Second

// WatchEvents implements webhook.OutboxStore. A Store over a bun.Tx or a
// bun.Conn cannot watch: wake is never called.
func (s *Store) WatchEvents(wake func()) (stop func()) {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchEvents(ctx, db.DB, wake)
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
}

// watchEvents keeps a listening session up until ctx ends or the pool is
// closed.
func watchEvents(ctx context.Context, db *sql.DB, wake func()) {
	keepListening(ctx, db, func(ctx context.Context) error { return listenEvents(ctx, db, wake) }, nil)
}

// listenEvents listens on one dedicated connection until it fails or ctx
// ends. The connection is closed afterwards, never handed back to the pool
// still listening.
func listenEvents(ctx context.Context, db *sql.DB, wake func()) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("bunstore: the event feed needs the pgx driver, not %T", dc)
		}
		return errors.Join(listenLoop(ctx, sc, wake), driver.ErrBadConn)
	})
}

func listenLoop(ctx context.Context, sc *stdlib.Conn, wake func()) error {
	c := sc.Conn()
	setup, cancel := context.WithTimeout(ctx, feedCheckTimeout)
	defer cancel()
	if _, err := c.Exec(setup, "LISTEN "+eventsChannel); err != nil {
		return err
	}
	var schema string
	if err := c.QueryRow(setup, "SELECT coalesce(current_schema(), '')").Scan(&schema); err != nil {
		return err
	}
	wake() // anything may have been appended while nobody listened
	for {
		wait, cancel := context.WithTimeout(ctx, eventFeedCheck)
		n, err := c.WaitForNotification(wait)
		cancel()
		switch {
		case err == nil:
			if n.Payload == schema {
				wake()
			}
			continue
		case ctx.Err() != nil:
			return ctx.Err()
		case !pgconn.Timeout(err):
			return err
		}
		check, cancel := context.WithTimeout(ctx, feedCheckTimeout)
		_, err = c.Exec(check, "SELECT 1")
		cancel()
		if err != nil {
			return err
		}
	}
}
