package httpadapter_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClientAuth: the client-side API takes only a client key pair from
// one of its allowed origins, or a token whose scopes cover the path; the
// server-side API never takes a client key pair.
func TestClientAuth(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	appPair := map[string]string{"X-App-Id": appID, "X-App-Token": appToken}
	clientAPIToken := h.tokenFor(appPair, "client_api")
	clientTiersToken := h.tokenFor(appPair, "client_promotions")
	apiToken := h.tokenFor(appPair, "api")
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	const tiers = "/client/v1/promotions/tiers"
	for _, tc := range []struct {
		name   string
		target string
		header map[string]string
		want   int
	}{
		{"client key pair", tiers, clientHeaders(shopOrigin), 200},
		{"second allowed origin (stored without its slash)", tiers, clientHeaders("http://localhost:3000"), 200},
		{"origin in another case", tiers, clientHeaders("HTTPS://Shop.Example"), 200},
		{"wrong token", tiers, with("X-Client-Application-Id", clientID, "X-Client-Token", "wrong-token-0123456789", "Origin", shopOrigin), 401},
		{"unknown id", tiers, with("X-Client-Application-Id", "client_nobody", "X-Client-Token", clientToken, "Origin", shopOrigin), 401},
		{"id without token", tiers, with("X-Client-Application-Id", clientID, "Origin", shopOrigin), 401},
		{"disallowed origin", tiers, clientHeaders(otherOrigin), 401},
		{"allowed host, other scheme", tiers, clientHeaders("http://shop.example"), 401},
		{"allowed host, other port", tiers, clientHeaders("https://shop.example:8443"), 401},
		{"no origin", tiers, with("X-Client-Application-Id", clientID, "X-Client-Token", clientToken), 401},
		{"no credentials", tiers, with("Origin", shopOrigin), 401},
		{"app key pair on a client route", tiers, with("X-App-Id", appID, "X-App-Token", appToken, "Origin", shopOrigin), 401},
		{"app id as client id", tiers, with("X-Client-Application-Id", appID, "X-Client-Token", appToken, "Origin", shopOrigin), 401},
		{"client key pair on a server route", "/v1/promotions/tiers", clientHeaders(shopOrigin), 401},
		{"client id as app id", "/v1/promotions/tiers", with("X-App-Id", clientID, "X-App-Token", clientToken), 401},
		{"client_api token", tiers, with("Authorization", "Bearer "+clientAPIToken), 200},
		{"client_promotions token", tiers, with("Authorization", "Bearer "+clientTiersToken), 200},
		{"client_promotions token on client validations", "/client/v1/validations", with("Authorization", "Bearer "+clientTiersToken), 403},
		{"api token on a client route", tiers, with("Authorization", "Bearer "+apiToken), 403},
		{"client_api token on a server route", "/v1/promotions/tiers", with("Authorization", "Bearer "+clientAPIToken), 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := h.with(t)
			method, body := http.MethodGet, ""
			if strings.HasSuffix(tc.target, "validations") {
				method, body = http.MethodPost, `{"redeemables":[{"object":"voucher","id":"X"}]}`
			}
			rec := h.do(req{method: method, target: tc.target, body: body, creds: credsNone, header: tc.header})
			if rec.Code != tc.want {
				t.Fatalf("%s %s = %d, want %d\n%s", method, tc.target, rec.Code, tc.want, rec.Body)
			}
		})
	}
}

// TestClientCORS: a preflight from an origin some client key allows is
// answered with the allowed methods and headers; one from any other origin
// is refused; an authenticated answer lets its origin read it.
func TestClientCORS(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	preflight := func(target, origin, method string) *http.Response {
		t.Helper()
		rec := h.do(req{method: http.MethodOptions, target: target, creds: credsNone, header: map[string]string{
			"Origin": origin, "Access-Control-Request-Method": method,
			"Access-Control-Request-Headers": "content-type,x-client-application-id,x-client-token"}})
		return rec.Result()
	}
	corsHeaders := func(r *http.Response) map[string]string {
		out := map[string]string{}
		for _, k := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers",
			"Access-Control-Allow-Credentials", "Access-Control-Max-Age", "Vary"} {
			if v := strings.Join(r.Header.Values(k), ", "); v != "" {
				out[k] = v
			}
		}
		return out
	}

	ok := preflight("/client/v1/validations", shopOrigin, http.MethodPost)
	if ok.StatusCode != http.StatusNoContent {
		t.Fatalf("preflight from an allowed origin = %d", ok.StatusCode)
	}
	want := map[string]string{
		"Access-Control-Allow-Origin":      shopOrigin,
		"Access-Control-Allow-Methods":     "POST, OPTIONS",
		"Access-Control-Allow-Headers":     "Content-Type, X-Client-Application-Id, X-Client-Token, X-Voucherify-Channel, Authorization, X-Request-Id, Idempotency-Key",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Max-Age":           "600",
		"Vary":                             "Accept-Encoding, Origin",
	}
	if diff := cmp.Diff(want, corsHeaders(ok)); diff != "" {
		t.Errorf("allowed preflight headers (-want +got):\n%s", diff)
	}
	if r := preflight("/client/v1/promotions/tiers", "http://localhost:3000", http.MethodGet); r.StatusCode != http.StatusNoContent ||
		r.Header.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" {
		t.Errorf("tiers preflight = %d %v", r.StatusCode, r.Header)
	}

	for _, tc := range []struct{ name, target, origin, method string }{
		{"disallowed origin", "/client/v1/validations", otherOrigin, http.MethodPost},
		{"no origin", "/client/v1/validations", "", http.MethodPost},
		{"origin null", "/client/v1/validations", "null", http.MethodPost},
		{"method not served", "/client/v1/validations", shopOrigin, http.MethodDelete},
	} {
		r := preflight(tc.target, tc.origin, tc.method)
		if r.StatusCode != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: preflight = %d, ACAO %q; want 403 without it", tc.name, r.StatusCode, r.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	// Server-side paths answer no preflight.
	if r := preflight("/v1/validations", shopOrigin, http.MethodPost); r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("server-side preflight = %d %v", r.StatusCode, r.Header)
	}

	// The actual answers: success and a 400 after authentication carry
	// the origin; a refused origin does not.
	for _, tc := range []struct {
		name, origin, body string
		status             int
		acao               string
	}{
		{"valid", shopOrigin, `{"redeemables":[{"object":"voucher","id":"X"}]}`, 200, shopOrigin},
		{"bad body", shopOrigin, `{"redeemables":7}`, 400, shopOrigin},
		{"disallowed origin", otherOrigin, `{"redeemables":[{"object":"voucher","id":"X"}]}`, 401, ""},
	} {
		rec := h.do(req{method: http.MethodPost, target: "/client/v1/validations", body: tc.body, creds: credsNone, header: clientHeaders(tc.origin)})
		if rec.Code != tc.status || rec.Header().Get("Access-Control-Allow-Origin") != tc.acao || !slices.Contains(rec.Header().Values("Vary"), "Origin") {
			t.Errorf("%s: %d, headers %v; want %d with Access-Control-Allow-Origin %q and Vary: Origin", tc.name, rec.Code, rec.Header(), tc.status, tc.acao)
		}
	}
}
