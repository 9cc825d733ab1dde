package promotype

import "context"

// TxFunc runs fn in one transaction over a store S bound to it. A domain
// package declares its storage port S and receives a TxFunc[S], so it can make
// multi-step changes atomically without knowing the store implementation.
// fn's error (or panic) rolls the transaction back.
type TxFunc[S any] func(ctx context.Context, fn func(ctx context.Context, tx S) error) error
