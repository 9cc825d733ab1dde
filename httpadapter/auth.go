package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// scheme is the kind of credentials a route takes.
type scheme uint8

const (
	// appKey: the /v1 API, with the X-App-Id and X-App-Token key pair.
	appKey scheme = iota + 1
	// managementKey: the /management/v1 API, with the X-Management-Id and
	// X-Management-Token key pair. A {projectId} in the path must be a
	// project the key is granted.
	managementKey
)

// Credential headers.
const (
	headerAppID           = "X-App-Id"
	headerAppToken        = "X-App-Token"
	headerManagementID    = "X-Management-Id"
	headerManagementToken = "X-Management-Token"
)

// principal is who a request acts as: always a project for /v1; for
// /management/v1 the management key and the project of the path, if any.
type principal struct {
	projectID  string
	management *auth.ManagementKey
}

// authedHandler is a handler that runs once the request is authenticated.
type authedHandler func(w http.ResponseWriter, r *http.Request, p principal)

// authenticate is the authentication middleware: it checks the credentials
// that s requires and calls next with the principal, or answers 401 (missing
// or wrong credentials) or 404 (a project the management key is not
// granted, answered exactly as a project that does not exist).
func (s *server) authenticate(sch scheme, next authedHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := s.principal(r, sch)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		next(w, r, p)
	}
}

// principal checks r's credentials for scheme sch. Each scheme reads only its
// own headers, so an app key pair never works on /management/v1 and a
// management key pair never on /v1.
func (s *server) principal(r *http.Request, sch scheme) (principal, error) {
	ctx := r.Context()
	switch sch {
	case appKey:
		projectID, err := s.engine.Auth().AuthenticateApp(ctx, r.Header.Get(headerAppID), r.Header.Get(headerAppToken))
		if err != nil {
			return principal{}, err
		}
		return principal{projectID: projectID}, nil
	case managementKey:
		k, err := s.engine.Auth().AuthenticateManagement(ctx, r.Header.Get(headerManagementID), r.Header.Get(headerManagementToken))
		if err != nil {
			return principal{}, err
		}
		projectID := r.PathValue("projectId")
		if projectID != "" && !k.Grants(projectID) {
			return principal{}, promotype.NotFound("project", projectID)
		}
		return principal{projectID: projectID, management: k}, nil
	}
	return principal{}, promotype.Unauthorized()
}
