// Package storage defines [Store]: every domain port plus transactions. The
// implementations live below it (memory, bunstore) and all of them must pass
// the conformance suite in storage/storagetest.
//
// Contract shared by every store:
//   - Every read and write is scoped by project; a row of another project is
//     exactly as invisible as a missing one (promotype.NotFound).
//   - Get and Find return promotype.NotFound for missing rows and for rows in
//     the bin; Insert and Update return promotype duplicate_found errors
//     (HTTP 409) for a second live row with a unique key (source id).
//   - Values passed in and returned are the caller's own: mutating them never
//     changes the store.
//   - Lists filter with promotype.Query.Match semantics and order by
//     Query.OrderBy, then id, both in the Query.Desc direction; null values
//     sort first ascending and last descending; strings compare bytewise.
//   - RunInTx commits when fn returns nil and rolls back when it returns an
//     error or panics (the panic goes on after the rollback).
package storage

import (
	"context"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// Store is every domain port plus RunInTx.
type Store interface {
	project.Store
	auth.Store
	catalog.Store
	location.Store
	campaign.Store
	campaign.RuleStore
	campaign.TierStore
	campaign.StackStore
	customer.Store
	order.Store
	voucher.Store
	webhook.Store
	webhook.OutboxStore
	project.SettingsStore
	promotype.EventStore

	// RunInTx runs fn in one transaction over tx, a Store bound to it.
	RunInTx(ctx context.Context, fn func(ctx context.Context, tx Store) error) error
}

// Tx adapts a Store's RunInTx to the transaction port a domain package
// declares (promotype.TxFunc over its own Store interface).
func Tx[S any](s Store, bind func(Store) S) func(ctx context.Context, fn func(ctx context.Context, tx S) error) error {
	return func(ctx context.Context, fn func(ctx context.Context, tx S) error) error {
		return s.RunInTx(ctx, func(ctx context.Context, tx Store) error { return fn(ctx, bind(tx)) })
	}
}
