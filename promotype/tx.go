package promotype

import (
	"context"
	"fmt"
)

// TxFunc runs fn in one transaction over a store S bound to it. A domain
// package declares its storage port S and receives a TxFunc[S], so it can make
// multi-step changes atomically without knowing the store implementation.
// fn's error (or panic) rolls the transaction back.
//
// fn may run more than once: a transaction that fails Retryable (a
// deadlock, a serialization failure, a connection lost before the commit)
// runs again, in a new transaction (Retry). So fn reads anew what it
// needs and sets, rather than accumulates, whatever it leaves outside the
// transaction.
type TxFunc[S any] func(ctx context.Context, fn func(ctx context.Context, tx S) error) error

// PortOf returns tx, a transaction's store handed to a hook through a
// narrower port, as the port P the hook's package declares; what names the
// change for the error when the store lacks P (a wiring mistake, never a
// request's).
func PortOf[P any](tx any, what string) (P, error) {
	st, ok := tx.(P)
	if !ok {
		var zero P
		return zero, fmt.Errorf("promo: the transaction of %s (%T) lacks the ports of %T", what, tx, &zero)
	}
	return st, nil
}
