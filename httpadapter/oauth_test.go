package httpadapter_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
)

const formContentType = "application/x-www-form-urlencoded"

var accessTokenRE = regexp.MustCompile(`^[0-9A-Za-z]{50}$`)

// form is a form-encoded request to an OAuth endpoint with the app pair.
func form(target string, values url.Values) req {
	return req{method: http.MethodPost, target: target, body: values.Encode(), contentType: formContentType}
}

// tokenForm is a token request body.
func tokenForm(grant, scope string) url.Values {
	return url.Values{"grant_type": {grant}, "scope": {scope}}
}

// token issues a token of scope with the harness's app pair.
func (h *harness) token(scope string) string {
	return h.tokenFor(map[string]string{"X-App-Id": appID, "X-App-Token": appToken}, scope)
}

// bearer is a request with an Authorization: Bearer header only.
func bearer(method, target, token string) req {
	return req{method: method, target: target, creds: credsNone, header: map[string]string{"Authorization": "Bearer " + token}}
}

// maskToken replaces the random access token of a golden body.
func maskToken(body any) {
	if m, ok := body.(map[string]any); ok {
		if _, ok := m["access_token"]; ok {
			m["access_token"] = "<access_token>"
		}
	}
}

// goldenMasked sends r and compares it with a golden file, the access
// token masked; it returns the decoded body.
func (h *harness) goldenMasked(t *testing.T, name string, r req, want int) map[string]any {
	t.Helper()
	h.clock.Advance(time.Second)
	rec := h.do(r)
	if rec.Code != want {
		t.Fatalf("%s: %s %s = %d, want %d\n%s", name, r.method, r.target, rec.Code, want, rec.Body)
	}
	var out map[string]any
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
	}
	shown := r
	shown.body = tokenInBodyRE.ReplaceAllString(r.body, "access_token=<access_token>")
	checkGolden(t, name, shown, rec, maskToken)
	return out
}

// tokenInBodyRE finds a random access token in a form body.
var tokenInBodyRE = regexp.MustCompile(`access_token=[0-9A-Za-z]{50}`)

// runMasked is harness.run for requests and answers that hold random
// access tokens.
func (h *harness) runMasked(t *testing.T, group string, steps []step) {
	t.Helper()
	for _, s := range steps {
		h.goldenMasked(t, group+"/"+s.name, s.req, s.want)
	}
}

func TestOAuthToken(t *testing.T) {
	h := newHarness(t)
	got := h.goldenMasked(t, "oauth/token", form("/v1/oauth/token", tokenForm("client_credentials", "rewards api rewards")), 200)
	tok, _ := got["access_token"].(string)
	if !accessTokenRE.MatchString(tok) {
		t.Fatalf("access token %q is not 50 base62 characters", tok)
	}
	h.clock.Advance(100 * time.Second)
	h.goldenMasked(t, "oauth/introspect_active", form("/v1/oauth/introspect", url.Values{"access_token": {tok}}), 200)
	h.goldenMasked(t, "oauth/introspect_unknown", form("/v1/oauth/introspect", url.Values{"access_token": {"nope"}}), 200)
	h.goldenMasked(t, "oauth/revoke", form("/v1/oauth/token/revoke", url.Values{"access_token": {tok}}), 204)
	h.goldenMasked(t, "oauth/revoke_again", form("/v1/oauth/token/revoke", url.Values{"access_token": {tok}}), 404)
	h.goldenMasked(t, "oauth/introspect_revoked", form("/v1/oauth/introspect", url.Values{"access_token": {tok}}), 200)
	h.goldenMasked(t, "oauth/use_revoked", bearer(http.MethodGet, "/v1/rewards", tok), 401)

	expiring := h.token("api")
	h.clock.Advance(auth.TokenLifetime)
	h.goldenMasked(t, "oauth/introspect_expired", form("/v1/oauth/introspect", url.Values{"access_token": {expiring}}), 200)
	h.goldenMasked(t, "oauth/use_expired", bearer(http.MethodGet, "/v1/rewards", expiring), 401)
}

func TestOAuthErrors(t *testing.T) {
	h := newHarness(t)
	tok := h.token("api")
	h.runMasked(t, "oauth/errors", []step{
		{"invalid_grant_type", form("/v1/oauth/token", tokenForm("password", "api")), 400},
		{"invalid_grant_type_missing", form("/v1/oauth/token", url.Values{"scope": {"api"}}), 400},
		{"invalid_scope_commas", form("/v1/oauth/token", tokenForm("client_credentials", "vouchers,campaigns")), 400},
		{"invalid_scope_unknown", form("/v1/oauth/token", tokenForm("client_credentials", "api everything")), 400},
		{"invalid_scope_missing", form("/v1/oauth/token", url.Values{"grant_type": {"client_credentials"}}), 400},
		{"invalid_payload_repeated", req{method: http.MethodPost, target: "/v1/oauth/token", body: "grant_type=client_credentials&scope=api&scope=rewards", contentType: formContentType}, 400},
		{"invalid_payload_escape", req{method: http.MethodPost, target: "/v1/oauth/token", body: "grant_type=client_credentials&scope=%zz", contentType: formContentType}, 400},
		{"unsupported_media_type_json", req{method: http.MethodPost, target: "/v1/oauth/token", body: `{"grant_type":"client_credentials","scope":"api"}`}, 415},
		{"unauthorized_no_credentials", req{method: http.MethodPost, target: "/v1/oauth/token", body: tokenForm("client_credentials", "api").Encode(), contentType: formContentType, creds: credsNone}, 401},
		{"unauthorized_wrong_token", req{method: http.MethodPost, target: "/v1/oauth/token", body: tokenForm("client_credentials", "api").Encode(), contentType: formContentType, creds: credsWrongToken}, 401},
		{"unauthorized_bearer", req{method: http.MethodPost, target: "/v1/oauth/introspect", body: url.Values{"access_token": {tok}}.Encode(), contentType: formContentType, creds: credsNone, header: map[string]string{"Authorization": "Bearer " + tok}}, 401},
		{"unauthorized_management_pair", req{method: http.MethodPost, target: "/v1/oauth/token", body: tokenForm("client_credentials", "api").Encode(), contentType: formContentType, creds: credsManagement}, 401},
		{"missing_parameters_introspect", form("/v1/oauth/introspect", url.Values{}), 400},
		{"missing_parameters_revoke", form("/v1/oauth/token/revoke", url.Values{"access_token": {""}}), 400},
		{"method_not_allowed", req{method: http.MethodGet, target: "/v1/oauth/token"}, 405},
	})
	// A form without a Content-Type is accepted (curl -d sends one anyway).
	rec := h.do(req{method: http.MethodPost, target: "/v1/oauth/introspect", header: map[string]string{"Content-Type": ""}, body: "access_token=" + tok})
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"active":true`) {
		t.Errorf("introspect without Content-Type = %d %s", rec.Code, rec.Body)
	}
}

func TestOAuthOtherProject(t *testing.T) {
	h := newHarness(t)
	tok := h.token("api")
	ctx := context.Background()
	b, err := h.engine.Projects().Create(ctx, project.Params{Name: "Other shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.engine.Auth().CreateAppKey(ctx, b.ID, auth.KeyParams{ID: otherAppID, Secret: otherAppToken}); err != nil {
		t.Fatal(err)
	}
	other := map[string]string{"X-App-Id": otherAppID, "X-App-Token": otherAppToken}
	introspect := form("/v1/oauth/introspect", url.Values{"access_token": {tok}})
	introspect.creds, introspect.header = credsNone, other
	if got := h.mustDo(introspect, 200); len(got) != 1 || got["active"] != false {
		t.Errorf("another project's token introspected as %v", got)
	}
	revoke := form("/v1/oauth/token/revoke", url.Values{"access_token": {tok}})
	revoke.creds, revoke.header = credsNone, other
	h.mustDo(revoke, 404)
	h.mustDo(bearer(http.MethodGet, "/v1/rewards", tok), 200)
}

func TestBearer(t *testing.T) {
	h := newHarness(t)
	h.seedCatalog()
	h.seedRewards()
	api, rewards, skus, products := h.token("api"), h.token("rewards"), h.token("skus"), h.token("products")
	h.run(t, "oauth/bearer", []step{
		{"get_reward_api", bearer(http.MethodGet, "/v1/rewards/rew_00000000000000000006", api), 200},
		{"get_reward_scope", bearer(http.MethodGet, "/v1/rewards/rew_00000000000000000006", rewards), 200},
		{"list_products_wrong_scope", bearer(http.MethodGet, "/v1/products", rewards), 403},
		{"get_sku_skus_scope", bearer(http.MethodGet, "/v1/skus/tee-red-m", skus), 200},
		{"product_skus_with_skus_scope", bearer(http.MethodGet, "/v1/products/tee/skus", skus), 403},
		{"product_skus_products_scope", bearer(http.MethodGet, "/v1/products/tee/skus", products), 200},
		{"get_sku_products_scope", bearer(http.MethodGet, "/v1/skus/tee-red-m", products), 403},
		{"unknown_token", bearer(http.MethodGet, "/v1/rewards", "nope"), 401},
		{"management_with_token", bearer(http.MethodGet, "/management/v1/projects/"+h.project.ID, api), 401},
		{"unknown_path_with_token", bearer(http.MethodGet, "/v1/nothing", rewards), 404},
		{"wrong_method_with_token", bearer(http.MethodPatch, "/v1/rewards", rewards), 405},
		{"basic_scheme", req{method: http.MethodGet, target: "/v1/rewards", creds: credsNone, header: map[string]string{"Authorization": "Basic " + api}}, 401},
		{"empty_bearer", req{method: http.MethodGet, target: "/v1/rewards", creds: credsNone, header: map[string]string{"Authorization": "Bearer "}}, 401},
	})
	// The scheme name is case-insensitive; a key pair header wins over a token.
	h.mustDo(req{method: http.MethodGet, target: "/v1/rewards", creds: credsNone, header: map[string]string{"Authorization": "bearer  " + rewards}}, 200)
	h.mustDo(req{method: http.MethodGet, target: "/v1/rewards", creds: credsWrongToken, header: map[string]string{"Authorization": "Bearer " + api}}, 401)
	// A write with a token.
	h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody, creds: credsNone, header: map[string]string{"Authorization": "Bearer " + rewards}}, 200)
}

func TestOAuthTokenLimit(t *testing.T) {
	h := newHarness(t)
	for range auth.MaxLiveTokens {
		h.token("api")
	}
	h.run(t, "oauth/errors", []step{
		{"token_limit_exceeded", form("/v1/oauth/token", tokenForm("client_credentials", "api")), 400},
	})
}
