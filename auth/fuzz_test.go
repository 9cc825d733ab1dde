package auth

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/promoengine/promo/promotype"
)

// FuzzParseScope: any input either parses to a non-empty set whose
// normalized form parses back to the same set and form, or fails with a 400
// invalid_scope; it never panics.
func FuzzParseScope(f *testing.F) {
	for _, s := range []string{"api", "vouchers,campaigns", " rewards  skus rewards ", "", "client_api client_validate", "\x00", "api\u00a0vouchers"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		set, norm, err := ParseScope(in)
		if err != nil {
			var e *promotype.Error
			if !errors.As(err, &e) || e.Code != 400 || e.Key != "invalid_scope" {
				t.Fatalf("ParseScope(%q): %v", in, err)
			}
			return
		}
		if set == 0 || strings.Contains(norm, ",") || strings.Contains(norm, "  ") {
			t.Fatalf("ParseScope(%q) = %v, %q", in, set, norm)
		}
		for _, v := range strings.Split(norm, " ") {
			if _, ok := scopeByName[v]; !ok {
				t.Fatalf("ParseScope(%q) kept %q", in, v)
			}
		}
		again, norm2, err := ParseScope(norm)
		if err != nil || again != set || norm2 != norm {
			t.Fatalf("ParseScope(%q) = %q does not round-trip: %v %q %v", in, norm, again, norm2, err)
		}
		if set.Len() != len(strings.Fields(norm)) {
			t.Fatalf("ParseScope(%q): %d scopes, %q", in, set.Len(), norm)
		}
	})
}

// FuzzAllows: whatever the path, a covered path is clean, under /v1/ or
// /client/v1/, never /v1/oauth, and its first segment is the name of a
// scope of the set (or the set holds api or client_api).
func FuzzAllows(f *testing.F) {
	for _, p := range []string{"/v1/rewards/x", "/v1/oauth/token", "/client/v1/validate", "/v1/../v1/oauth", "/v1/SKUs", "/management/v1/projects"} {
		f.Add(uint64(1)<<32, p)
	}
	f.Fuzz(func(t *testing.T, bits uint64, p string) {
		if c := path.Clean(p); clean(p) && c != p && c+"/" != p {
			t.Fatalf("clean(%q), but path.Clean gives %q", p, c)
		}
		set := Scopes(bits) & (1<<len(scopeNames) - 1)
		if !Allows(set, "GET", p) {
			return
		}
		if path.Clean(p) != strings.TrimSuffix(p, "/") && path.Clean(p) != p {
			t.Fatalf("%q is covered but not clean", p)
		}
		var seg string
		switch {
		case strings.HasPrefix(p, "/v1/"):
			seg = firstSegment(p[4:])
			if seg == "oauth" {
				t.Fatalf("%q is covered", p)
			}
			if set.Has(ScopeAPI) {
				return
			}
			if strings.EqualFold(seg, "skus") {
				seg = "skus"
			}
		case strings.HasPrefix(p, "/client/v1/"):
			if set.Has(ScopeClientAPI) {
				return
			}
			seg = clientPrefix + firstSegment(p[11:])
		default:
			t.Fatalf("%q is covered", p)
		}
		sc, ok := scopeByName[seg]
		if !ok || !set.Has(sc) {
			t.Fatalf("%q is covered by %s", p, set)
		}
	})
}
