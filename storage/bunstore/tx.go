package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/storage"
)

// RunInTx implements storage.Store. fn runs over a Store bound to a new
// transaction, which commits when fn returns nil and rolls back when it
// returns an error or panics (the panic goes on after the rollback). On a
// store already bound to a transaction, fn joins it. The activity rows fn
// appended are written just before the commit, in one statement.
func (s *Store) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	switch s.db.(type) {
	case bun.Tx, *bun.Tx:
		return fn(ctx, storage.Handle(s))
	}
	ctx, cancel := withDeadline(ctx, s.txTimeout)
	defer cancel()
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		st := &Store{db: tx, txTimeout: s.txTimeout, listeners: &listenerMemo{}, activities: &activityBuffer{}}
		if err := fn(ctx, storage.Handle(st)); err != nil {
			return err
		}
		return st.activities.flush(ctx, tx)
	})
}
