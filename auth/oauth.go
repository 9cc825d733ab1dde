package auth

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// OAuth is the OAuth 2.0 client-credentials API: tokens are issued to an app
// key pair with a set of scopes, live TokenLifetime, can be introspected and
// revoked, and authenticate requests as "Authorization: Bearer <token>".
// Tokens are stored only as SHA-256 hashes; they are shared through the
// store, so every engine over the same database accepts every token, and a
// revocation reaches all of them through the store's invalidation feed.
type OAuth struct {
	svc *Service
}

// NewOAuth returns the OAuth API over svc's store and credential cache.
func NewOAuth(svc *Service) *OAuth { return &OAuth{svc: svc} }

// Access is what a live token grants.
type Access struct {
	ProjectID string
	ClientID  string
	Scopes    Scopes
	ExpiresAt promotype.Time
}

// Allows reports whether the token may call method on path (see [Allows]).
func (a Access) Allows(method, path string) bool { return Allows(a.Scopes, method, path) }

// IssueToken issues a token of projectID to the app key clientID (the
// X-App-Id of the key pair that asked). in.GrantType must be
// client_credentials (else 400 invalid_grant_type) and in.Scope a list of
// accepted scope values separated by spaces (else 400 invalid_scope). A
// project holding MaxLiveTokens live tokens gets 400 token_limit_exceeded.
// The answer holds the token in clear text; only its hash is kept.
func (o *OAuth) IssueToken(ctx context.Context, projectID, clientID string, in TokenParams) (*IssuedToken, error) {
	if in.GrantType != GrantClientCredentials {
		return nil, InvalidGrantType()
	}
	set, scope, err := ParseScope(in.Scope)
	if err != nil {
		return nil, err
	}
	now := o.svc.env.Clock.Now()
	accessToken := newAccessToken()
	t := &Token{
		Hash:      HashToken(accessToken),
		ProjectID: projectID,
		ClientID:  clientID,
		Scope:     scope,
		CreatedAt: now,
		ExpiresAt: promotype.NewTime(now.Add(TokenLifetime)),
	}
	gen := o.svc.cache.generation()
	if err := o.svc.store.InsertToken(ctx, t, MaxLiveTokens); err != nil {
		return nil, err
	}
	o.svc.cache.putToken(t.Hash, Access{ProjectID: projectID, ClientID: clientID, Scopes: set, ExpiresAt: t.ExpiresAt}, gen, now)
	return issued(t, accessToken, now), nil
}

// Introspect describes accessToken as seen by projectID: its details and
// active true while it is live; only active false when it is unknown,
// expired, revoked, or a token of another project. An empty accessToken is
// 400 missing_parameters.
func (o *OAuth) Introspect(ctx context.Context, projectID, accessToken string) (*Introspection, error) {
	if accessToken == "" {
		return nil, MissingParameters("access_token")
	}
	now := o.svc.env.Clock.Now()
	t, err := o.svc.store.GetToken(ctx, HashToken(accessToken))
	if errors.Is(err, promotype.ErrNotFound) {
		return &Introspection{}, nil
	}
	if err != nil {
		return nil, err
	}
	if t.ProjectID != projectID || !t.Live(now) {
		return &Introspection{}, nil
	}
	return &Introspection{IssuedToken: issued(t, accessToken, now), Active: true}, nil
}

// Revoke revokes accessToken, a live token of projectID; this engine
// refuses it before Revoke returns, every other engine over the same store
// as soon as the store's feed delivers the revocation. A token that is
// unknown, of another project, expired or revoked already is 404 not_found;
// an empty accessToken is 400 missing_parameters.
func (o *OAuth) Revoke(ctx context.Context, projectID, accessToken string) error {
	if accessToken == "" {
		return MissingParameters("access_token")
	}
	h := HashToken(accessToken)
	err := o.svc.store.RevokeToken(ctx, projectID, h, o.svc.env.Clock.Now())
	o.svc.cache.invalidate(Invalidation{Token: &h})
	if errors.Is(err, promotype.ErrNotFound) {
		return errTokenNotFound()
	}
	return err
}

// errTokenNotFound is the 404 of revoking a token that is not live. It never
// echoes the token.
func errTokenNotFound() error {
	return promotype.Newf(promotype.StatusNotFound, "not_found", "Resource not found", "Cannot find an active access token with this value")
}

// Authenticate checks a bearer token and returns what it grants. An empty,
// unknown, expired or revoked token is 401 unauthorized. A token seen before
// is answered from the cache without reading the store (expiry is still
// checked against the clock, and revocations still apply at once).
func (o *OAuth) Authenticate(ctx context.Context, accessToken string) (Access, error) {
	if accessToken == "" {
		return Access{}, promotype.Unauthorized()
	}
	h := HashToken(accessToken)
	now := o.svc.env.Clock.Now()
	if a, ok := o.svc.cache.token(h); ok {
		if !now.Before(a.ExpiresAt.Time) {
			return Access{}, promotype.Unauthorized()
		}
		return a, nil
	}
	gen := o.svc.cache.generation()
	t, err := o.svc.store.GetToken(ctx, h)
	if err != nil {
		return Access{}, unauthorizedOr(err)
	}
	if !t.Live(now) {
		return Access{}, promotype.Unauthorized()
	}
	set, _, err := ParseScope(t.Scope)
	if err != nil {
		set = 0 // a scope value no longer accepted grants nothing
	}
	a := Access{ProjectID: t.ProjectID, ClientID: t.ClientID, Scopes: set, ExpiresAt: t.ExpiresAt}
	o.svc.cache.putToken(h, a, gen, now)
	return a, nil
}

// Authorize authenticates a bearer token (401 as Authenticate) and checks
// that its scopes cover method on path (else 403
// missing_required_permission).
func (o *OAuth) Authorize(ctx context.Context, accessToken, method, path string) (Access, error) {
	a, err := o.Authenticate(ctx, accessToken)
	if err != nil {
		return Access{}, err
	}
	if !a.Allows(method, path) {
		return Access{}, MissingRequiredPermission(method, path)
	}
	return a, nil
}
