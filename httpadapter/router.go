package httpadapter

import (
	"net/http"
	"slices"
	"strings"
)

// route is one row of the route table: a method and a ServeMux path pattern,
// the credentials it takes and the endpoint serving it.
type route struct {
	method  string
	pattern string
	auth    scheme
	handle  handler
}

// routes is the route table: every endpoint the adapter serves.
func (s *server) routes() []route {
	return slices.Concat(
		s.productRoutes(),
		s.collectionRoutes(), // product_collections.go
		s.rewardRoutes(),
		s.locationRoutes(),
		s.managementRoutes(),
		s.userRoutes(),
		s.settingsRoutes(),    // settings.go: webhooks, metadata and event schemas, branding
		s.oauthRoutes(),       // oauth.go
		s.salesRoutes(),       // orders.go, customers.go
		s.campaignRoutes(),    // campaigns.go, vouchers.go, async_actions.go
		s.ruleRoutes(),        // validation_rules.go
		s.promotionRoutes(),   // promotions.go
		s.validationRoutes(),  // validations.go
		s.redemptionRoutes(),  // redemptions.go
		s.publicationRoutes(), // publications.go
		s.exportRoutes(),      // exports.go
		s.webhookSendoutRoutes(),
		s.transactionRoutes(),
		s.clientRoutes(),    // client.go
		s.clientKeyRoutes(), // client_keys.go
		s.importRoutes(),    // imports.go
		s.loyaltyRoutes(),   // loyalties.go
		s.hostedRoutes(),    // hosted_routes.go: orders export, /v1 metadata schemas
		s.segmentRoutes(),   // segments.go
		s.binRoutes(),       // bin.go
		s.templateRoutes(),  // templates.go
		s.referralRoutes(),  // referrals.go
	)
}

// methodOrder is the order in which allowed methods are listed.
var methodOrder = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// buildMux registers every route on a ServeMux, plus, for each path, a
// method-less pattern that answers other methods with 405 (the ServeMux's own
// 405 has a plain-text body), and a root pattern answering unknown paths with
// 404. Routing errors are answered before authentication.
func (s *server) buildMux(routes []route) *http.ServeMux {
	mux := http.NewServeMux()
	allowed := map[string][]string{}
	var patterns []string
	for _, rt := range routes {
		if _, seen := allowed[rt.pattern]; !seen {
			patterns = append(patterns, rt.pattern)
		}
		allowed[rt.pattern] = append(allowed[rt.pattern], rt.method)
		mux.Handle(rt.method+" "+muxPattern(rt.pattern), s.endpoint(rt))
	}
	for _, p := range patterns {
		handle405(mux, p, allowed[p], s.methodNotAllowed(allowed[p]))
		if strings.HasPrefix(p, clientPrefix) {
			mux.Handle(http.MethodOptions+" "+muxPattern(p), s.preflight(allowed[p]))
		}
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, errNotFoundRoute(r))
	})
	return mux
}

// handle405 registers h for the other methods of pattern p, whose routes
// have methods: under the method-less pattern, or, when ServeMux refuses
// it (a literal segment beside another route's wildcard, as
// /v1/products/importCSV beside GET /v1/products/{productId}: neither is
// more specific), under each other method of methodOrder.
func handle405(mux *http.ServeMux, p string, methods []string, h http.Handler) {
	defer func() {
		if recover() == nil {
			return
		}
		for _, m := range methodOrder {
			if m != http.MethodHead && !slices.Contains(methods, m) {
				mux.Handle(m+" "+muxPattern(p), h)
			}
		}
	}()
	mux.Handle(muxPattern(p), h)
}

// methodNotAllowed answers 405 with an Allow header listing methods (and
// HEAD, which ServeMux serves with every GET route).
func (s *server) methodNotAllowed(methods []string) http.Handler {
	methods = slices.Clone(methods)
	slices.SortFunc(methods, func(a, b string) int { return slices.Index(methodOrder, a) - slices.Index(methodOrder, b) })
	allow := methods
	if slices.Contains(methods, http.MethodGet) {
		allow = slices.Insert(slices.Clone(methods), slices.Index(methods, http.MethodGet)+1, http.MethodHead)
	}
	allowHeader := strings.Join(allow, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allowHeader)
		s.writeError(w, r, errMethodNotAllowed(r.Method, methods))
	})
}

// endpoint wraps a route's handler with its authentication and writes what
// the handler returns: the body with its status, 204 for a nil body, or the
// error.
func (s *server) endpoint(rt route) http.Handler {
	handle := rt.handle
	return s.authenticate(rt.auth, func(w http.ResponseWriter, r *http.Request, p principal) {
		c := &call{w: w, r: r, principal: p, maxBody: s.maxBody}
		status, body, err := handle(c)
		switch {
		case err != nil:
			s.writeError(w, r, err)
		case status == 0: // the handler answered by itself (a file download)
		case status == http.StatusNoContent:
			writeNoContent(w)
		case body == nil: // an answer without a body (token revoke's 404)
			w.WriteHeader(status)
		default:
			s.writeJSON(w, r, status, body)
		}
	})
}

// Some routes overlap in a way ServeMux refuses: the campaign-scoped
// promotion routes (/v1/promotions/{campaignId}/tiers, .../stacks/{stackId})
// and the tier routes (/v1/promotions/tiers/{tierId}) both match
// "/v1/promotions/tiers/tiers", and neither is more specific; so do the
// program routes (/v1/loyalties/{campaignId}/members) and the member routes
// (/v1/loyalties/members/{memberId}), and the referral routes alike. The campaign-scoped ones are
// registered under the overlap's moved prefix, and movedPath moves a
// request for a campaign there: a first segment after the prefix, with
// more segments after it, that is none of the reserved names names a
// campaign.
const (
	promotionsPrefix = "/v1/promotions/"
	campaignPrefix   = "/v1/promotions/_campaign/"
)

// overlap is one prefix whose campaign-scoped routes are moved.
type overlap struct {
	prefix, moved string
	param         string   // the campaign's path parameter
	reserved      []string // first segments that name no campaign
}

var overlaps = []overlap{
	{promotionsPrefix, campaignPrefix, "{campaignId}", []string{"tiers", "stacks", "validation"}},
	{"/v1/loyalties/", "/v1/loyalties/_program/", "{programId}", []string{"members"}},
	{"/v1/referrals/", "/v1/referrals/_campaign/", "{campaignId}", []string{"members"}},
}

// muxPattern is the pattern a route is registered under.
func muxPattern(p string) string {
	for _, o := range overlaps {
		if rest, ok := strings.CutPrefix(p, o.prefix+o.param+"/"); ok {
			return o.moved + o.param + "/" + rest
		}
	}
	return p
}

// unmovedPattern is the route table's pattern of a registered one.
func unmovedPattern(p string) string {
	for _, o := range overlaps {
		if rest, ok := strings.CutPrefix(p, o.moved); ok {
			return o.prefix + rest
		}
	}
	return p
}

// promotionPath rewrites the path of a campaign-scoped request of an
// overlap to its registered form; other paths are returned unchanged.
func promotionPath(path string) (string, bool) {
	for _, o := range overlaps {
		rest, ok := strings.CutPrefix(path, o.prefix)
		if !ok {
			continue
		}
		first, _, more := strings.Cut(rest, "/")
		if !more || slices.Contains(o.reserved, first) {
			return path, false
		}
		return o.moved + rest, true
	}
	return path, false
}
