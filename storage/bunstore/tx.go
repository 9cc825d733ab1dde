package bunstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/storage"
)

// RunInTx implements storage.Store. fn runs over a Store bound to a new
// transaction, which commits when fn returns nil and rolls back when it
// returns an error or panics (the panic goes on after the rollback). On a
// store already bound to a transaction, fn joins it. The customer
// activities fn appended are written just before the commit, in one
// statement (pending).
func (s *Store) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	return s.runInTx(ctx, false, fn)
}

// RunInTxWriteBehind implements storage.WriteBehindStore: RunInTx whose
// new orders, redemption rows and events are held back too and written in
// one statement with the activities, before the next statement that may
// read them, at the end of a savepoint, or before the commit (pending). A
// held row that cannot be stored (a taken key) is the transaction's error:
// it rolls back.
func (s *Store) RunInTxWriteBehind(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	return s.runInTx(ctx, true, fn)
}

func (s *Store) runInTx(ctx context.Context, behind bool, fn func(ctx context.Context, tx storage.Tx) error) error {
	switch s.db.(type) {
	case bun.Tx, *bun.Tx, pendingTx:
		return fn(ctx, storage.Handle(s))
	}
	ctx, cancel := withDeadline(ctx, s.txTimeout)
	defer cancel()
	txCtx, gate := commitGuard(ctx, s.txTimeout)
	defer gate.release()
	committing := false
	err := s.db.RunInTx(txCtx, nil, func(_ context.Context, tx bun.Tx) error {
		p := &pending{behind: behind}
		st := &Store{db: pendingTx{Tx: tx, p: p}, txTimeout: s.txTimeout, listeners: &listenerMemo{}, pending: p, cluster: s.cluster}
		err := fn(ctx, storage.Handle(st))
		if err == nil {
			err = p.flush(ctx, tx)
		}
		if p.err != nil {
			return p.err // whatever the statement that met it returned
		}
		if err == nil {
			err = gate.commit()
		}
		committing = err == nil
		return err
	})
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		// The context ended mid-transaction: whatever the statement then
		// running reported (the transaction already rolled back, a
		// cancelled query), the cause is the context's, which callers
		// tell apart (a client gone, a deadline passed).
		err = fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	return txErr(ctx, err, committing)
}

// commitGuard returns the context a transaction begins and commits under,
// and its guard. Until guard.commit, the transaction ends (rolls back) when
// ctx does: a request whose deadline passes before its commit writes
// nothing and answers so. From guard.commit on, ctx's end no longer
// touches it (only the transaction's own timeout d does): a COMMIT that
// was sent finishes and its outcome is known, instead of a cancellation
// racing it and leaving a committed write answered as a failure.
func commitGuard(ctx context.Context, d time.Duration) (context.Context, *txGate) {
	txCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var timeout context.CancelFunc
	txCtx, timeout = withDeadline(txCtx, d)
	g := &txGate{ctx: ctx, cancel: cancel, timeout: timeout}
	g.stop = context.AfterFunc(ctx, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if !g.committing {
			cancel()
		}
	})
	return txCtx, g
}

// txGate is commitGuard's guard.
type txGate struct {
	ctx             context.Context
	mu              sync.Mutex
	committing      bool
	cancel, timeout context.CancelFunc
	stop            func() bool
}

// commit reports whether the transaction may commit: ctx has not ended.
// From then on ctx's end leaves the transaction alone.
func (g *txGate) commit() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.ctx.Err(); err != nil {
		return err
	}
	g.committing = true
	return nil
}

// release frees the guard's resources once the transaction has ended.
func (g *txGate) release() {
	g.stop()
	g.timeout()
	g.cancel()
}
