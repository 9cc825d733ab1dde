package httpadapter_test

import (
	"net/http"
	"testing"
)

// FuzzOAuthRequests sends any body to the OAuth endpoints, form-encoded:
// never a 5xx.
func FuzzOAuthRequests(f *testing.F) {
	for _, s := range []string{"grant_type=client_credentials&scope=api", "grant_type=client_credentials&scope=vouchers,campaigns",
		"scope=%zz", "access_token=nope", "access_token=&access_token=x", "grant_type=client_credentials&scope=" + "api+api+rewards",
		"\x00=\xff", ""} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, body string) {
		for _, target := range []string{"/v1/oauth/token", "/v1/oauth/introspect", "/v1/oauth/token/revoke"} {
			fuzzRequest(t, h, req{method: http.MethodPost, target: target, body: body, contentType: formContentType})
		}
	})
}

// FuzzBearer sends any Authorization header: never a 5xx, and a token that
// is not live never gets past 401 (or 429 once this client has failed
// authentication too often: the failure limiter refuses it before any
// check).
func FuzzBearer(f *testing.F) {
	for _, s := range []string{"Bearer x", "bearer \x00", "Basic abc", "Bearer", "Bearer  ", "BEARER a b c"} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, header string) {
		for _, target := range []string{"/v1/rewards", "/v1/skus/x", "/v1/oauth/introspect", "/management/v1/projects/p"} {
			r := req{method: http.MethodGet, target: target, creds: credsNone, header: map[string]string{"Authorization": header}}
			rec := h.with(t).do(r)
			throttled := rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") != ""
			if rec.Code != http.StatusUnauthorized && rec.Code != http.StatusMethodNotAllowed && !throttled {
				t.Fatalf("Authorization %q, GET %s = %d\n%s", header, target, rec.Code, rec.Body)
			}
		}
	})
}
