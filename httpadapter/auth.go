package httpadapter

import (
	"errors"
	"net/http"
	"strings"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// scheme is the kind of credentials a route takes.
type scheme uint8

const (
	// appKey: the /v1 API, with the X-App-Id and X-App-Token key pair or an
	// OAuth token (Authorization: Bearer) whose scopes cover the path.
	appKey scheme = iota + 1
	// appKeyOnly: the /v1/oauth endpoints, with the key pair only.
	appKeyOnly
	// managementKey: the /management/v1 API, with the X-Management-Id and
	// X-Management-Token key pair. A {projectId} in the path must be a
	// project the key is granted.
	managementKey
	// clientKey: the /client/v1 API, with the X-Client-Application-Id and
	// X-Client-Token key pair from an allowed Origin, or an OAuth token
	// whose scopes cover the path (client.go).
	clientKey
	// appKeyOrToken: as appKey, except that a request with a token query
	// parameter goes on with no principal (the export download, whose
	// token is checked by the handler).
	appKeyOrToken
)

// Credential headers.
const (
	headerAppID           = "X-App-Id"
	headerAppToken        = "X-App-Token"
	headerManagementID    = "X-Management-Id"
	headerManagementToken = "X-Management-Token"
	headerAuthorization   = "Authorization"
)

// principal is who a request acts as: always a project for /v1 (and, with a
// key pair, the app id, which the token endpoint issues to); for
// /management/v1 the management key and the project of the path, if any.
type principal struct {
	projectID  string
	clientID   string
	management *auth.ManagementKey
}

// authedHandler is a handler that runs once the request is authenticated.
type authedHandler func(w http.ResponseWriter, r *http.Request, p principal)

// authenticate is the authentication middleware: it checks the credentials
// that sch requires and calls next with the principal, or answers 401
// (missing or wrong credentials), 403 (a token whose scopes do not cover
// the path) or 404 (a project the management key is not granted, answered
// exactly as a project that does not exist). A client that failed too often
// is answered 429 before its credentials are checked (see
// AuthFailureLimit).
func (s *server) authenticate(sch scheme, next authedHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if retry := s.authLimit.retryAfter(r); retry > 0 {
			setRetryAfter(w, retry)
			s.writeError(w, r, errTooManyFailures(retry))
			return
		}
		var p principal
		var err error
		if sch == appKeyOrToken && r.URL.Query().Has("token") {
			next(w, r, p)
			return
		}
		if sch == clientKey {
			p, err = s.clientPrincipal(w, r)
		} else {
			p, err = s.principal(r, sch)
		}
		if err != nil {
			if errors.Is(err, promotype.ErrUnauthorized) {
				s.authLimit.fail(r)
			}
			s.writeError(w, r, err)
			return
		}
		if rw, ok := w.(*responseWriter); ok {
			rw.projectID = p.projectID
		}
		next(w, r, p)
	}
}

// principal checks r's credentials for scheme sch. Each scheme reads only its
// own headers, so an app key pair or a token never works on /management/v1
// and a management key pair never on /v1.
//
// On /v1 a request with either key pair header is checked as a key pair;
// one with neither is checked as a bearer token. Both paths answer from the
// engine's credential cache when the key or token was seen before, without
// reading the store.
func (s *server) principal(r *http.Request, sch scheme) (principal, error) {
	ctx := r.Context()
	switch sch {
	case appKey, appKeyOnly, appKeyOrToken:
		id, token := r.Header.Get(headerAppID), r.Header.Get(headerAppToken)
		if sch != appKeyOnly && id == "" && token == "" {
			return s.bearerPrincipal(r)
		}
		projectID, err := s.engine.Auth().AuthenticateApp(ctx, id, token)
		if err != nil {
			return principal{}, err
		}
		return principal{projectID: projectID, clientID: id}, nil
	case managementKey:
		projectID := r.PathValue("projectId")
		k, err := s.engine.Auth().AuthorizeManagement(ctx, r.Header.Get(headerManagementID), r.Header.Get(headerManagementToken), projectID)
		if err != nil {
			return principal{}, err
		}
		return principal{projectID: projectID, management: k}, nil
	}
	return principal{}, promotype.Unauthorized()
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header; the scheme name is case-insensitive (RFC 7235).
func bearerToken(header string) (string, bool) {
	const prefix = "Bearer "
	if len(header) <= len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return "", false
	}
	token := strings.TrimSpace(header[len(prefix):])
	return token, token != ""
}

// bearerPrincipal authenticates r by its OAuth bearer token, whose scopes
// must cover r's method and path.
func (s *server) bearerPrincipal(r *http.Request) (principal, error) {
	bearer, ok := bearerToken(r.Header.Get(headerAuthorization))
	if !ok {
		return principal{}, promotype.Unauthorized()
	}
	a, err := s.engine.OAuth().Authorize(r.Context(), bearer, r.Method, r.URL.Path)
	if err != nil {
		return principal{}, err
	}
	return principal{projectID: a.ProjectID, clientID: a.ClientID}, nil
}
