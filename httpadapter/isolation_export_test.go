package httpadapter

import "net/http"

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
