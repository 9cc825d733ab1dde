package storage

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/referral"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// Tx is every domain port: what a transaction's fn works through. It has
// no RunInTx, so a transaction cannot open (or silently join) another.
type Tx interface {
	project.Store
	project.UserStore
	async.Store
	auth.Store
	catalog.Store
	location.Store
	reward.Store
	rule.Store
	campaign.TierStore
	campaign.StackStore
	campaign.TemplateStore
	redemption.Store
	redemption.QualificationStore
	customer.Store
	order.Store
	voucher.Store
	publication.Store
	loyalty.Store
	segment.Store
	bin.Store
	referral.Store
	imports.Store
	export.Store
	webhook.Store
	webhook.OutboxStore
	project.SettingsStore
	promotype.EventStore
}

// Store is every domain port plus transactions.
type Store interface {
	Tx
	// RunInTx runs fn in one transaction over tx, the ports bound to it.
	RunInTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}

// BulkTxStore is the optional ability of a store to run large batches of
// writes (voucher generation and imports) in a transaction tuned for them.
// A store without it runs them through RunInTx; storagetest covers it on
// every store that has it.
type BulkTxStore interface {
	Store
	// RunInBulkTx is RunInTx for batches of writes.
	RunInBulkTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}

// WriteBehindStore is the optional ability of a store to hold back, in a
// transaction, the inserts of new customers and orders, redemption rows and
// events until a statement may read them or the transaction commits, and
// send them together (fewer round trips). Unlike RunInTx, an insert whose
// key is taken is then not refused by the insert itself: the transaction
// fails with that error (inside a Savepoint, the savepoint does). The
// redemption service, which answers such a conflict by running its
// transaction again, writes through it; storagetest covers it on every
// store that has it.
type WriteBehindStore interface {
	Store
	// RunInTxWriteBehind is RunInTx with write-behind.
	RunInTxWriteBehind(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}

// WriteBehindTxFor is TxFor over RunInTxWriteBehind when s is a
// WriteBehindStore, and over RunInTx when it is not.
func WriteBehindTxFor[S any](s Store, bind func(Tx) S) promotype.TxFunc[S] {
	b, ok := s.(WriteBehindStore)
	if !ok {
		return TxFor(s, bind)
	}
	return txOver(b.RunInTxWriteBehind, bind)
}

// TxFor adapts a Store's RunInTx to the transaction port a domain package
// declares (promotype.TxFunc over its own Store interface).
func TxFor[S any](s Store, bind func(Tx) S) promotype.TxFunc[S] {
	return txOver(s.RunInTx, bind)
}

// txOver is the TxFunc of run, a store's way to run a transaction, over
// the ports bind narrows its Tx to. A transaction that fails Retryable (a
// deadlock, a serialization failure, a connection lost before the commit)
// runs again within the retry budget of promotype.Retry, so every write of
// the engine retries the same way; past the budget it is a 503.
func txOver[S any](run func(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error, bind func(Tx) S) promotype.TxFunc[S] {
	return func(ctx context.Context, fn func(ctx context.Context, tx S) error) error {
		return promotype.Retry(ctx, func() error {
			return run(ctx, func(ctx context.Context, tx Tx) error { return fn(ctx, bind(tx)) })
		})
	}
}

// Handle returns tx as a value that has the ports of Tx only, so the fn of
// a transaction cannot reach RunInTx (or another ability of the store) by a
// type assertion. Stores pass their transaction-bound store through it.
func Handle(tx Tx) Tx { return handle{tx} }

type handle struct{ Tx }

// BulkTxFor is TxFor over the store's bulk transaction (RunInBulkTx) when
// it is a BulkTxStore, and over RunInTx when it is not: the wiring chooses
// the bulk ability once, the domain gets a plain TxFunc.
func BulkTxFor[S any](s Store, bind func(Tx) S) promotype.TxFunc[S] {
	b, ok := s.(BulkTxStore)
	if !ok {
		return TxFor(s, bind)
	}
	return txOver(b.RunInBulkTx, bind)
}
