package httpadapter

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// The client-side API (/client/v1): what a browser or mobile application
// calls with a client key pair (X-Client-Application-Id, X-Client-Token)
// from one of the key's allowed origins, or with an OAuth token whose
// scopes cover the path (client_api, client_<name>). Its endpoints call
// the same services as their /v1 counterparts; the OpenAPI documents the
// same request bodies for both, so no field is refused on the client side.
//
// The project's client settings (client_*_enabled) gate what they name:
// redemptions, the customers a redemption or an event would create, and
// events with loyalty or referral data (project.Service.CheckClient).
//
// Not served: the deprecated client endpoints (validate, redeem, publish,
// customers, consents).

// Client credential and CORS headers.
const (
	headerClientAppID = "X-Client-Application-Id"
	headerClientToken = "X-Client-Token"
	headerOrigin      = "Origin"
)

// clientPrefix starts every client-side path.
const clientPrefix = "/client/v1/"

// corsAllowHeaders are the request headers a preflight allows: the client
// credentials, the body's type, the official SDKs' channel header, an
// OAuth token, and the adapter's request id and idempotency key.
var corsAllowHeaders = strings.Join([]string{"Content-Type", headerClientAppID, headerClientToken,
	"X-Voucherify-Channel", headerAuthorization, headerRequestID, headerIdempotencyKey}, ", ")

// corsMaxAge is how long (seconds) a browser may keep a preflight's answer.
const corsMaxAge = 600

// clientRoutes are the client-side endpoints.
func (s *server) clientRoutes() []route {
	red, v, pt := s.engine.Redemptions(), s.engine.Validations(), s.engine.PromotionTiers()
	return []route{
		{http.MethodPost, "/client/v1/validations", clientKey, withBody(func(c *call, in redemption.ValidationParams) (*redemption.Validation, error) {
			return v.Validate(c.ctx(), c.projectID, in)
		})},
		{http.MethodPost, "/client/v1/qualifications", clientKey, withBody(func(c *call, in redemption.QualificationParams) (*redemption.Qualification, error) {
			return s.engine.Qualifications().Qualify(c.ctx(), c.projectID, in)
		})},
		{http.MethodPost, "/client/v1/redemptions", clientKey, withBody(func(c *call, in redemption.ValidationParams) (*redemption.Redemptions, error) {
			if err := s.engine.Projects().CheckClient(c.ctx(), c.projectID, project.ClientRequest{Redeem: true, Customer: in.Customer}); err != nil {
				return nil, err
			}
			return red.Redeem(c.ctx(), c.projectID, in, c.redeemOptions())
		})},
		{http.MethodGet, "/client/v1/promotions/tiers", clientKey, s.hostedList("tiers", withoutBody(func(c *call) (*promotype.List[*campaign.PromotionTier], error) {
			return listTiers(c, pt, "")
		}))},
		{http.MethodPost, "/client/v1/events", clientKey, withBody(func(c *call, in project.TrackParams) (*project.Tracked, error) {
			gate := project.ClientRequest{Customer: in.Customer,
				LoyaltyEvent: in.Loyalty != nil || in.Referral != nil}
			if err := s.engine.Projects().CheckClient(c.ctx(), c.projectID, gate); err != nil {
				return nil, err
			}
			return s.engine.CustomEvents().Track(c.ctx(), c.projectID, in)
		})},
	}
}

// clientPrincipal checks the credentials of a /client/v1 request: the
// client key pair and the Origin it allows, or, with neither key header, a
// bearer token whose scopes cover the path. On success with a key pair the
// answer carries the CORS headers that let the origin read it.
func (s *server) clientPrincipal(w http.ResponseWriter, r *http.Request) (principal, error) {
	ctx := r.Context()
	w.Header().Add("Vary", headerOrigin)
	id, token := r.Header.Get(headerClientAppID), r.Header.Get(headerClientToken)
	if id == "" && token == "" {
		return s.bearerPrincipal(r)
	}
	origin := r.Header.Get(headerOrigin)
	projectID, err := s.engine.Auth().AuthenticateClient(ctx, id, token, origin)
	if err != nil {
		return principal{}, err
	}
	setCORS(w.Header(), origin)
	return principal{projectID: projectID, clientID: id}, nil
}

// setCORS lets origin read the answer, with credentials (the official
// browser SDK sends its requests with credentials: 'include').
func setCORS(h http.Header, origin string) {
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", headerRequestID)
}

// preflight answers a CORS preflight (OPTIONS) of a client-side path that
// serves methods. The request carries no credentials, so the origin is
// checked against every client key: one that some key allows is answered
// 204 with the allowed methods and headers; any other, and a requested
// method the path does not serve, 403 (the browser then sends nothing).
// A request that is not a preflight (no Access-Control-Request-Method) is
// answered 405 as any other unserved method.
func (s *server) preflight(methods []string) http.Handler {
	methods = slices.Clone(methods)
	slices.SortFunc(methods, func(a, b string) int { return slices.Index(methodOrder, a) - slices.Index(methodOrder, b) })
	allowMethods := strings.Join(append(slices.Clone(methods), http.MethodOptions), ", ")
	notAllowed := s.methodNotAllowed(methods)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", headerOrigin)
		want := r.Header.Get("Access-Control-Request-Method")
		if want == "" {
			notAllowed.ServeHTTP(w, r)
			return
		}
		origin := r.Header.Get(headerOrigin)
		ok, err := s.engine.Auth().ClientOriginAllowed(r.Context(), origin)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if !ok {
			s.writeError(w, r, promotype.Forbidden("origin_not_allowed", "Origin not allowed",
				"No client key allows the origin %q", origin))
			return
		}
		if !slices.Contains(methods, want) && !(want == http.MethodHead && slices.Contains(methods, http.MethodGet)) {
			s.writeError(w, r, promotype.Forbidden("method_not_allowed", "Method not allowed",
				"%s is not served here; allowed: %s", want, strings.Join(methods, ", ")))
			return
		}
		h := w.Header()
		setCORS(h, origin)
		h.Set("Access-Control-Allow-Methods", allowMethods)
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", strconv.Itoa(corsMaxAge))
		w.WriteHeader(http.StatusNoContent)
	})
}
