package promo_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
)

// An OAuth token issued to an app key pair authenticates requests whose
// path its scopes cover, until it expires or is revoked.
func ExampleEngine_OAuth() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	app, err := eng.Auth().CreateAppKey(ctx, projectID, auth.KeyParams{ID: "my-app"})
	if err != nil {
		panic(err)
	}
	tok, err := eng.OAuth().IssueToken(ctx, projectID, app.ID, auth.TokenParams{GrantType: "client_credentials", Scope: "rewards vouchers"})
	if err != nil {
		panic(err)
	}
	fmt.Println(tok.TokenType, tok.Scope, tok.ExpiresIn, tok.ClientID)

	a, err := eng.OAuth().Authorize(ctx, tok.AccessToken, "GET", "/v1/rewards/rew_1")
	fmt.Println(a.ProjectID == projectID, err)
	_, err = eng.OAuth().Authorize(ctx, tok.AccessToken, "GET", "/v1/products")
	fmt.Println(err)

	if err := eng.OAuth().Revoke(ctx, projectID, tok.AccessToken); err != nil {
		panic(err)
	}
	_, err = eng.OAuth().Authenticate(ctx, tok.AccessToken)
	fmt.Println(errors.Is(err, promo.ErrUnauthorized))
	// Output:
	// Bearer rewards vouchers 900 my-app
	// true <nil>
	// missing_required_permission: Missing required permission (The scopes of the access token do not cover GET /v1/products)
	// true
}
