package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"time"

	"github.com/promoengine/promo/promotype"
)

// OAuth settings of the hosted service.
const (
	// TokenLifetime is how long an access token lives from its issue.
	TokenLifetime = 900 * time.Second
	// MaxLiveTokens is how many live (issued, not expired, not revoked)
	// tokens a project may hold; a further token request is refused.
	MaxLiveTokens = 1000
	// GrantClientCredentials is the only grant type the token endpoint takes.
	GrantClientCredentials = "client_credentials"
	// TokenType is the prefix a token is sent with (Authorization: Bearer).
	TokenType = "Bearer"
	// tokenLength is the number of base62 characters of an access token
	// (about 297 bits), the length of the hosted service's tokens.
	tokenLength = 50
)

const base62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// TokenHash is the stored form of an access token: its SHA-256.
type TokenHash [sha256.Size]byte

// HashToken returns the stored form of an access token (or of a key
// secret). It does not allocate for secrets of up to 64 bytes.
func HashToken(accessToken string) TokenHash {
	var buf [64]byte
	if len(accessToken) <= len(buf) {
		return sha256.Sum256(append(buf[:0], accessToken...))
	}
	return sha256.Sum256([]byte(accessToken))
}

// Token is an issued access token as the store keeps it: never the token,
// only its hash.
type Token struct {
	Hash      TokenHash
	ProjectID string
	ClientID  string // the app id of the key pair that asked for it
	Scope     string // the scope values, separated by spaces
	CreatedAt promotype.Time
	ExpiresAt promotype.Time
	RevokedAt *promotype.Time
}

// Clone returns a copy of t that shares nothing with it.
func (t *Token) Clone() *Token {
	c := *t
	if t.RevokedAt != nil {
		c.RevokedAt = t.RevokedAt.Ptr()
	}
	return &c
}

// Live reports whether t may be used at now: not revoked and not expired.
func (t *Token) Live(now promotype.Time) bool {
	return t.RevokedAt == nil && now.Before(t.ExpiresAt.Time)
}

// TokenParams is the body of a token request (form-encoded over HTTP).
type TokenParams struct {
	GrantType string // must be client_credentials
	Scope     string // scope values separated by spaces
}

// IssuedToken is the answer of a token request, and of introspection for a
// live token. AccessToken is shown in clear text only here.
type IssuedToken struct {
	AccessToken string `json:"access_token"`
	ClientID    string `json:"client_id"`
	ExpiresAt   int64  `json:"expires_at"` // Unix time, seconds
	ExpiresIn   int64  `json:"expires_in"` // whole seconds left
	Scope       string `json:"scope"`
	TokenType   string `json:"token_type"`
}

// Introspection is what introspection tells of a token: its details and
// active true while it is live, only active false otherwise (unknown,
// expired, revoked, or another project's).
type Introspection struct {
	*IssuedToken
	Active bool `json:"active"`
}

// issued describes t, whose clear text is accessToken, at now.
func issued(t *Token, accessToken string, now promotype.Time) *IssuedToken {
	left := t.ExpiresAt.Sub(now.Time)
	return &IssuedToken{
		AccessToken: accessToken,
		ClientID:    t.ClientID,
		ExpiresAt:   t.ExpiresAt.Unix(),
		ExpiresIn:   max(0, int64(left/time.Second)),
		Scope:       t.Scope,
		TokenType:   TokenType,
	}
}

// newAccessToken returns a random access token: 50 base62 characters from
// crypto/rand.
func newAccessToken() string { return promotype.RandomString(tokenLength, base62) }

// equalHash compares two hashes in constant time.
func equalHash(a, b TokenHash) bool { return subtle.ConstantTimeCompare(a[:], b[:]) == 1 }
