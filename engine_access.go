package promo

import "github.com/promoengine/promo/auth"

// accessServices are the OAuth token services.
type accessServices struct {
	oauth *auth.OAuth
}

func (e *Engine) wireAccess() {
	e.access.oauth = auth.NewOAuth(e.auth)
}

// OAuth is the OAuth 2.0 API: issuing tokens to an app key pair,
// introspection, revocation, and the bearer check with its scope table
// (Authorize). Tokens are shared through the store, so every engine over the
// same database accepts them, and a revocation reaches every engine (see
// auth.Store.WatchCredentials for how fast).
func (e *Engine) OAuth() *auth.OAuth { return e.access.oauth }
