package auth

import (
	"math/bits"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// Scope is one of the 42 OAuth scope values the token endpoint accepts.
type Scope uint8

// Scopes is a set of scope values.
type Scopes uint64

// The scopes that cover a whole API; every other value covers the paths
// that start with its name (see [Allows]).
const (
	// ScopeAPI covers the whole server-side API (/v1).
	ScopeAPI Scope = 0
	// ScopeClientAPI covers the whole client-side API (/client/v1).
	ScopeClientAPI Scope = 5
)

// scopeNames are the accepted scope values, in the order the hosted API lists
// them; a Scope is an index into it.
var scopeNames = [...]string{
	"api", "assets", "async-actions", "campaigns", "categories", "client_api", "client_consents",
	"client_customers", "client_events", "client_promotions", "client_publish", "client_qualifications",
	"client_redeem", "client_redemptions", "client_validate", "client_validations", "client_vouchers",
	"consents", "customers", "events", "exports", "locations", "loyalties", "metadata-schemas", "orders",
	"product-collections", "products", "promotions", "publications", "qualifications", "redemptions",
	"referrals", "rewards", "segments", "skus", "task-results", "templates", "trash-bin",
	"validation-rules-assignments", "validation-rules", "validations", "vouchers",
}

// clientPrefix starts the name of a client-side scope.
const clientPrefix = "client_"

var (
	// scopeByName maps every accepted value to its Scope.
	scopeByName = map[string]Scope{}
	// serverScope maps a first path segment under /v1/ to the scope that
	// covers it; clientScope the same under /client/v1/.
	serverScope = map[string]Scope{}
	clientScope = map[string]Scope{}
)

func init() {
	for i, name := range scopeNames {
		sc := Scope(i)
		scopeByName[name] = sc
		switch {
		case sc == ScopeAPI || sc == ScopeClientAPI:
		case strings.HasPrefix(name, clientPrefix):
			clientScope[strings.TrimPrefix(name, clientPrefix)] = sc
		default:
			serverScope[name] = sc
		}
	}
}

// ScopeNames returns the 42 accepted scope values in the hosted API's order.
func ScopeNames() []string { return append([]string(nil), scopeNames[:]...) }

// String returns the scope's value ("rewards").
func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return "unknown"
}

// Has reports whether the set holds sc.
func (s Scopes) Has(sc Scope) bool { return s&(1<<sc) != 0 }

// With returns the set plus sc.
func (s Scopes) With(sc Scope) Scopes { return s | 1<<sc }

// Len returns the number of scopes in the set.
func (s Scopes) Len() int { return bits.OnesCount64(uint64(s)) }

// String returns the set's values separated by spaces, in the hosted API's order.
func (s Scopes) String() string {
	var b strings.Builder
	for i, name := range scopeNames {
		if s.Has(Scope(i)) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(name)
		}
	}
	return b.String()
}

// ParseScope parses the scope parameter of a token request: one or more of
// the accepted values separated by spaces. It returns the set and the
// values in the order given, without repeats, joined by single spaces (the
// scope a token reports). A value with a comma (values must be separated by
// spaces) or a value that is not accepted is 400 invalid_scope naming it
// ("Invalid scope: vouchers,campaigns"); a blank scope is 400 invalid_scope.
func ParseScope(scope string) (Scopes, string, error) {
	var set Scopes
	var b strings.Builder
	for field := range strings.FieldsSeq(scope) {
		sc, ok := scopeByName[field]
		if !ok {
			return 0, "", InvalidScope(field)
		}
		if set.Has(sc) {
			continue
		}
		set = set.With(sc)
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(field)
	}
	if set == 0 {
		return 0, "", promotype.BadRequest("invalid_scope", "Invalid scope",
			"Property scope is required: one or more scope values separated by spaces")
	}
	return set, b.String(), nil
}

// Allows reports whether a bearer token holding scopes may call method on
// path (a request's URL path, as the router sees it). It is the hosted API's scope
// table, for every method alike:
//
//   - api covers every path under /v1/; client_api every path under
//     /client/v1/;
//   - any other server-side scope covers the paths whose first segment
//     under /v1/ is its name: rewards covers /v1/rewards and
//     /v1/rewards/rew_1, never /v1/rewards-x, and validation-rules does not
//     cover /v1/validation-rules-assignments; skus covers /v1/skus in any
//     case (the hosted service documents /v1/SKUs);
//   - a client_<name> scope covers the paths whose first segment under
//     /client/v1/ is <name> (client_publish covers /client/v1/publish);
//   - /v1/oauth/... (token endpoints take the key pair only), the
//     management API and every other path are never covered.
//
// A path that is not clean (an empty, "." or ".." segment) is never
// covered, so a scope cannot reach past its prefix.
func Allows(scopes Scopes, method, p string) bool {
	_ = method // every method is covered alike
	if scopes == 0 || !clean(p) {
		return false
	}
	switch {
	case strings.HasPrefix(p, "/v1/"):
		seg := firstSegment(p[len("/v1/"):])
		if seg == "oauth" {
			return false
		}
		if scopes.Has(ScopeAPI) {
			return true
		}
		sc, ok := serverScope[seg]
		if !ok && strings.EqualFold(seg, "skus") {
			sc, ok = serverScope["skus"], true
		}
		return ok && scopes.Has(sc)
	case strings.HasPrefix(p, "/client/v1/"):
		if scopes.Has(ScopeClientAPI) {
			return true
		}
		sc, ok := clientScope[firstSegment(p[len("/client/v1/"):])]
		return ok && scopes.Has(sc)
	}
	return false
}

// firstSegment returns rest up to its first slash.
func firstSegment(rest string) string {
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[:i]
	}
	return rest
}

// clean reports whether p is an absolute path with no empty, "." or ".."
// segment (a single trailing slash is allowed), as path.Clean would leave
// it, without allocating.
func clean(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	start := 1
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch seg := p[start:i]; seg {
		case ".", "..":
			return false
		case "":
			if i != len(p) || start != i { // only a trailing slash may end empty
				return false
			}
		}
		start = i + 1
	}
	return true
}
