package auth

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Store is the storage port of credentials. Keys and tokens are global rows:
// an app id or a token hash resolves its project. Get methods return a
// not_found error for an unknown id.
type Store interface {
	InsertAppKey(ctx context.Context, k *AppKey) error
	GetAppKey(ctx context.Context, appID string) (*AppKey, error)
	// DeleteAppKey removes the app key appID of projectID and revokes (at
	// at) every live token it issued, in one step, and announces both to
	// WatchCredentials subscribers. A key of another project is not_found.
	DeleteAppKey(ctx context.Context, projectID, appID string, at promotype.Time) error

	InsertManagementKey(ctx context.Context, k *ManagementKey) error
	GetManagementKey(ctx context.Context, id string) (*ManagementKey, error)
	UpdateManagementKey(ctx context.Context, k *ManagementKey) error

	ClientStore

	// InsertToken stores t, atomically checking two conditions first: the
	// app key t.ClientID exists in t.ProjectID (else 401 unauthorized, as
	// for a key deleted meanwhile), and the project holds fewer than
	// maxLive tokens that are live at t.CreatedAt (else
	// TokenLimitExceeded(maxLive)). Concurrent calls never exceed maxLive.
	// A taken hash is duplicate_found. The store may drop the project's
	// tokens that expired before t.CreatedAt.
	InsertToken(ctx context.Context, t *Token, maxLive int) error
	// GetToken returns the token with hash h, live or not (an expired one
	// may have been dropped: not_found).
	GetToken(ctx context.Context, h TokenHash) (*Token, error)
	// RevokeToken marks the token h of projectID revoked at at and announces
	// it to WatchCredentials subscribers. A token that is unknown, of
	// another project, revoked already or expired at at is not_found.
	RevokeToken(ctx context.Context, projectID string, h TokenHash, at promotype.Time) error

	// WatchCredentials subscribes fn to the invalidations of cached
	// credentials (DeleteAppKey, RevokeToken) made through any handle of
	// the store: another engine in the process, or another process over the
	// same database. Every invalidation that commits is delivered, at its
	// commit or after it; one whose transaction rolls back may be delivered
	// too. fn runs on the store's goroutine (or inside the write that
	// caused it), must be quick and must not call the store.
	//
	// current reports whether the subscription is up to date: every
	// invalidation committed more than a short moment ago (the store's
	// documented delay) has been delivered. While it returns false a
	// subscriber must not answer from its cache; when it turns true again
	// after a gap, fn has been called with InvalidateAll first. stop ends
	// the subscription.
	WatchCredentials(fn func(Invalidation)) (current func() bool, stop func())
}

// Invalidation names the cached credentials that must no longer be trusted.
// Exactly one of its fields is set.
type Invalidation struct {
	// Token is the hash of a revoked token.
	Token *TokenHash
	// AppID is a deleted app key; the tokens it issued are revoked too.
	AppID string
	// All: anything may have changed (the feed missed some changes).
	All bool
}

// InvalidateAll is the invalidation of every cached credential.
var InvalidateAll = Invalidation{All: true}
