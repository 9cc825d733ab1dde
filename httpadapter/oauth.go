package httpadapter

import (
	"errors"
	"net/http"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// oauthRoutes are the OAuth token endpoints. They take the key pair only
// (never a bearer token) and form-encoded bodies.
func (s *server) oauthRoutes() []route {
	o := s.engine.OAuth()
	return []route{
		{http.MethodPost, "/v1/oauth/token", appKeyOnly, withForm(func(c *call, f form) (*auth.IssuedToken, error) {
			return o.IssueToken(c.ctx(), c.projectID, c.clientID, auth.TokenParams{GrantType: f["grant_type"], Scope: f["scope"]})
		}, "grant_type", "scope")},
		{http.MethodPost, "/v1/oauth/introspect", appKeyOnly, withForm(func(c *call, f form) (*auth.Introspection, error) {
			return o.Introspect(c.ctx(), c.projectID, f["access_token"])
		}, "access_token")},
		{http.MethodPost, "/v1/oauth/token/revoke", appKeyOnly, revokeToken(o)},
	}
}

// revokeToken answers 204, or, as the hosted service does, 404 with no body
// for a token that is not live (unknown, expired, revoked, another
// project's).
func revokeToken(o *auth.OAuth) handler {
	return func(c *call) (int, any, error) {
		f, err := decodeForm(c.w, c.r, c.maxBody, "access_token")
		if err != nil {
			return 0, nil, err
		}
		err = o.Revoke(c.ctx(), c.projectID, f["access_token"])
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			return http.StatusNotFound, nil, nil
		case err != nil:
			return 0, nil, err
		}
		return http.StatusNoContent, nil, nil
	}
}

// withForm is an endpoint that decodes the form body (the fields named)
// and answers 200 with fn's result.
func withForm[Out any](fn func(c *call, f form) (Out, error), fields ...string) handler {
	return func(c *call) (int, any, error) {
		f, err := decodeForm(c.w, c.r, c.maxBody, fields...)
		if err != nil {
			return 0, nil, err
		}
		out, err := fn(c, f)
		return http.StatusOK, out, err
	}
}
