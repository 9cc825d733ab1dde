package promo_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
)

// tokenRE is the form of an access token: 50 base62 characters.
var tokenRE = regexp.MustCompile(`^[0-9A-Za-z]{50}$`)

// oauthFixture is an engine with a project and an app key pair of it.
type oauthFixture struct {
	fixture
	app promo.Credentials
}

func eachOAuthStore(t *testing.T, fn func(t *testing.T, f oauthFixture)) {
	t.Helper()
	eachStore(t, func(t *testing.T, f fixture) {
		app := must[promo.Credentials](t)(f.eng.Auth().CreateAppKey(ctx, f.project, promo.KeyParams{ID: "app-1"}))
		fn(t, oauthFixture{fixture: f, app: app})
	})
}

// issue issues a token of scope to the fixture's key pair.
func (f oauthFixture) issue(t testing.TB, scope string) *auth.IssuedToken {
	t.Helper()
	return must[*auth.IssuedToken](t)(f.eng.OAuth().IssueToken(ctx, f.project, f.app.ID,
		auth.TokenParams{GrantType: auth.GrantClientCredentials, Scope: scope}))
}

func TestOAuthIssueToken(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		f.clock.Advance(1500 * time.Millisecond)
		got := f.issue(t, "  rewards   api rewards\tvouchers ")
		if !tokenRE.MatchString(got.AccessToken) {
			t.Errorf("access token %q is not 50 base62 characters", got.AccessToken)
		}
		want := &auth.IssuedToken{AccessToken: got.AccessToken, ClientID: "app-1", ExpiresAt: t0.Add(901 * time.Second).Unix(),
			ExpiresIn: 900, Scope: "rewards api vouchers", TokenType: "Bearer"}
		diff(t, "issued token", want, got)
		if other := f.issue(t, "api"); other.AccessToken == got.AccessToken {
			t.Error("two tokens are equal")
		}
	})
}

func TestOAuthIssueTokenErrors(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		tests := []struct {
			name          string
			in            auth.TokenParams
			code          int
			key, message  string
			clientID, pid string
		}{
			{name: "no grant type", in: auth.TokenParams{Scope: "api"}, code: 400, key: "invalid_grant_type", message: "Invalid grant_type"},
			{name: "other grant type", in: auth.TokenParams{GrantType: "password", Scope: "api"}, code: 400, key: "invalid_grant_type", message: "Invalid grant_type"},
			{name: "grant type case", in: auth.TokenParams{GrantType: "Client_Credentials", Scope: "api"}, code: 400, key: "invalid_grant_type", message: "Invalid grant_type"},
			{name: "no scope", in: auth.TokenParams{GrantType: "client_credentials"}, code: 400, key: "invalid_scope", message: "Invalid scope"},
			{name: "blank scope", in: auth.TokenParams{GrantType: "client_credentials", Scope: "  \t "}, code: 400, key: "invalid_scope", message: "Invalid scope"},
			{name: "commas", in: auth.TokenParams{GrantType: "client_credentials", Scope: "vouchers,campaigns"}, code: 400, key: "invalid_scope", message: "Invalid scope: vouchers,campaigns"},
			{name: "unknown value", in: auth.TokenParams{GrantType: "client_credentials", Scope: "api everything"}, code: 400, key: "invalid_scope", message: "Invalid scope: everything"},
			{name: "case matters", in: auth.TokenParams{GrantType: "client_credentials", Scope: "API"}, code: 400, key: "invalid_scope", message: "Invalid scope: API"},
			{name: "unknown key", in: auth.TokenParams{GrantType: "client_credentials", Scope: "api"}, clientID: "app-x", code: 401, key: "unauthorized", message: "Unauthorized"},
			{name: "key of another project", in: auth.TokenParams{GrantType: "client_credentials", Scope: "api"}, pid: "proj_other", code: 401, key: "unauthorized", message: "Unauthorized"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				clientID, pid := f.app.ID, f.project
				if tc.clientID != "" {
					clientID = tc.clientID
				}
				if tc.pid != "" {
					pid = tc.pid
				}
				_, err := f.eng.OAuth().IssueToken(ctx, pid, clientID, tc.in)
				if e := wantErr(t, err, tc.code, tc.key); e.Message != tc.message {
					t.Errorf("message %q, want %q", e.Message, tc.message)
				}
			})
		}
	})
}

func TestOAuthAuthenticate(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		tok := f.issue(t, "rewards skus")
		o := f.eng.OAuth()
		want := auth.Access{ProjectID: f.project, ClientID: "app-1", ExpiresAt: at(900 * time.Second)}
		want.Scopes = want.Scopes.With(scope(t, "rewards")).With(scope(t, "skus"))
		diff(t, "access", want, must[auth.Access](t)(o.Authenticate(ctx, tok.AccessToken)))

		must[auth.Access](t)(o.Authorize(ctx, tok.AccessToken, "GET", "/v1/rewards/rew_1"))
		must[auth.Access](t)(o.Authorize(ctx, tok.AccessToken, "DELETE", "/v1/SKUs/sku_1"))
		for _, p := range []string{"/v1/products/prod_1/skus", "/v1/vouchers", "/v1/oauth/introspect", "/management/v1/projects/" + f.project} {
			_, err := o.Authorize(ctx, tok.AccessToken, "GET", p)
			wantErr(t, err, 403, "missing_required_permission")
		}
		for _, bad := range []string{"", "nope", tok.AccessToken + "x", strings.ToLower(tok.AccessToken)} {
			if bad == tok.AccessToken {
				continue
			}
			_, err := o.Authenticate(ctx, bad)
			wantErr(t, err, 401, "unauthorized")
		}

		// Expiry is honoured from the cache as from the store.
		f.clock.Advance(899*time.Second + 999*time.Millisecond)
		must[auth.Access](t)(o.Authenticate(ctx, tok.AccessToken))
		f.clock.Advance(time.Millisecond)
		_, err := o.Authenticate(ctx, tok.AccessToken)
		wantErr(t, err, 401, "unauthorized")
		_, err = o.Authorize(ctx, tok.AccessToken, "GET", "/v1/rewards")
		wantErr(t, err, 401, "unauthorized")
	})
}

func scope(t *testing.T, name string) auth.Scope {
	t.Helper()
	set, _, err := auth.ParseScope(name)
	if err != nil || set.Len() != 1 {
		t.Fatalf("scope %q: %v", name, err)
	}
	for i := range len(auth.ScopeNames()) {
		if set.Has(auth.Scope(i)) {
			return auth.Scope(i)
		}
	}
	return 0
}

func TestOAuthIntrospect(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		o := f.eng.OAuth()
		tok := f.issue(t, "api")
		f.clock.Advance(100*time.Second + 500*time.Millisecond)
		got := must[*auth.Introspection](t)(o.Introspect(ctx, f.project, tok.AccessToken))
		want := *tok
		want.ExpiresIn = 799
		diff(t, "active", &auth.Introspection{IssuedToken: &want, Active: true}, got)

		inactive := &auth.Introspection{}
		other := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Other"}))
		diff(t, "another project's token", inactive, must[*auth.Introspection](t)(o.Introspect(ctx, other.ID, tok.AccessToken)))
		diff(t, "unknown token", inactive, must[*auth.Introspection](t)(o.Introspect(ctx, f.project, "nope")))
		_, err := o.Introspect(ctx, f.project, "")
		wantErr(t, err, 400, "missing_parameters")

		revoked := f.issue(t, "api")
		must[struct{}](t)(struct{}{}, o.Revoke(ctx, f.project, revoked.AccessToken))
		diff(t, "revoked token", inactive, must[*auth.Introspection](t)(o.Introspect(ctx, f.project, revoked.AccessToken)))
		f.clock.Advance(800 * time.Second)
		diff(t, "expired token", inactive, must[*auth.Introspection](t)(o.Introspect(ctx, f.project, tok.AccessToken)))
	})
}

func TestOAuthRevoke(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		o := f.eng.OAuth()
		tok := f.issue(t, "api")
		must[auth.Access](t)(o.Authenticate(ctx, tok.AccessToken)) // cached now

		other := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Other"}))
		wantErr(t, o.Revoke(ctx, other.ID, tok.AccessToken), 404, "not_found")
		must[auth.Access](t)(o.Authenticate(ctx, tok.AccessToken))

		must[struct{}](t)(struct{}{}, o.Revoke(ctx, f.project, tok.AccessToken))
		_, err := o.Authenticate(ctx, tok.AccessToken)
		wantErr(t, err, 401, "unauthorized")
		wantErr(t, o.Revoke(ctx, f.project, tok.AccessToken), 404, "not_found")
		wantErr(t, o.Revoke(ctx, f.project, "nope"), 404, "not_found")
		wantErr(t, o.Revoke(ctx, f.project, ""), 400, "missing_parameters")

		expired := f.issue(t, "api")
		f.clock.Advance(auth.TokenLifetime)
		wantErr(t, o.Revoke(ctx, f.project, expired.AccessToken), 404, "not_found")
	})
}

func TestOAuthTokenLimit(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		o := f.eng.OAuth()
		tokens := make([]*auth.IssuedToken, 0, auth.MaxLiveTokens)
		for range auth.MaxLiveTokens {
			tokens = append(tokens, f.issue(t, "api"))
		}
		in := auth.TokenParams{GrantType: auth.GrantClientCredentials, Scope: "api"}
		_, err := o.IssueToken(ctx, f.project, f.app.ID, in)
		wantErr(t, err, 400, "token_limit_exceeded")

		// Another project has its own allowance.
		other := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Other"}))
		otherApp := must[promo.Credentials](t)(f.eng.Auth().CreateAppKey(ctx, other.ID, promo.KeyParams{}))
		must[*auth.IssuedToken](t)(o.IssueToken(ctx, other.ID, otherApp.ID, in))

		// A revoked token frees its place; expired tokens free theirs.
		must[struct{}](t)(struct{}{}, o.Revoke(ctx, f.project, tokens[0].AccessToken))
		f.issue(t, "api")
		_, err = o.IssueToken(ctx, f.project, f.app.ID, in)
		wantErr(t, err, 400, "token_limit_exceeded")
		f.clock.Advance(auth.TokenLifetime)
		f.issue(t, "api")
		_, err = o.Authenticate(ctx, tokens[1].AccessToken)
		wantErr(t, err, 401, "unauthorized")
	})
}

func TestOAuthDeleteAppKey(t *testing.T) {
	eachOAuthStore(t, func(t *testing.T, f oauthFixture) {
		o := f.eng.OAuth()
		tok := f.issue(t, "api")
		must[auth.Access](t)(o.Authenticate(ctx, tok.AccessToken))
		must[string](t)(f.eng.Auth().AuthenticateApp(ctx, f.app.ID, f.app.Secret))
		other := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Other"}))
		wantErr(t, f.eng.Auth().DeleteAppKey(ctx, other.ID, f.app.ID), 404, "not_found")
		must[string](t)(f.eng.Auth().AuthenticateApp(ctx, f.app.ID, f.app.Secret))

		must[struct{}](t)(struct{}{}, f.eng.Auth().DeleteAppKey(ctx, f.project, f.app.ID))
		_, err := f.eng.Auth().AuthenticateApp(ctx, f.app.ID, f.app.Secret)
		wantErr(t, err, 401, "unauthorized")
		_, err = o.Authenticate(ctx, tok.AccessToken)
		wantErr(t, err, 401, "unauthorized")
		_, err = o.IssueToken(ctx, f.project, f.app.ID, auth.TokenParams{GrantType: auth.GrantClientCredentials, Scope: "api"})
		wantErr(t, err, 401, "unauthorized")
		wantErr(t, f.eng.Auth().DeleteAppKey(ctx, f.project, f.app.ID), 404, "not_found")
	})
}
