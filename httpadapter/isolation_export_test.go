package httpadapter

import (
	"net/http"
	"strings"
)

// Routes returns "METHOD pattern" for every route of a handler made by New,
// for the isolation test's coverage check.
func Routes(h http.Handler) []string {
	s := h.(*server)
	var out []string
	for _, rt := range s.routes() {
		out = append(out, rt.method+" "+rt.pattern)
	}
	return out
}

// RouteOf returns the "METHOD pattern" of the route r reaches on a handler
// made by New (as Routes spells it), or "" when none does: the path
// rewrites of ServeHTTP (one trailing slash, campaign-scoped promotions)
// apply first.
func RouteOf(h http.Handler, r *http.Request) string {
	s := h.(*server)
	u := *r.URL
	if _, ok := trimTrailingSlash(u.EscapedPath()); ok {
		u.Path, _ = trimTrailingSlash(u.Path)
		u.RawPath = ""
	}
	if p, ok := promotionPath(u.Path); ok {
		u.Path, u.RawPath = p, ""
	}
	r2 := *r
	r2.URL = &u
	_, pattern := s.mux.Handler(&r2)
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		return "" // the 404 and 405 fallbacks
	}
	return method + " " + unmovedPattern(path)
}
