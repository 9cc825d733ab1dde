package bunstore

import (
	"context"

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
	committing := false
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		p := &pending{behind: behind}
		st := &Store{db: pendingTx{Tx: tx, p: p}, txTimeout: s.txTimeout, listeners: &listenerMemo{}, pending: p, cluster: s.cluster}
		err := fn(ctx, storage.Handle(st))
		if err == nil {
			err = p.flush(ctx, tx)
		}
		if p.err != nil {
			return p.err // whatever the statement that met it returned
		}
		committing = err == nil
		return err
	})
	return txErr(ctx, err, committing)
}
