package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo/auth"
)

// Project A's client key pair in the harness (created by clientKeyed).
const (
	clientID     = "client_test_0001"
	clientToken  = "client-token-0123456789abcdef"
	shopOrigin   = "https://shop.example"
	otherOrigin  = "https://evil.example"
	clientPrefix = "/client/v1/"
)

// clientKeyed gives project A a client key pair allowed from shopOrigin and
// http://localhost:3000.
func clientKeyed(t *testing.T, h *harness) {
	t.Helper()
	if _, _, err := h.engine.Auth().CreateClientKey(t.Context(), h.project.ID, auth.ClientKeyParams{
		KeyParams: auth.KeyParams{ID: clientID, Secret: clientToken},
		Origins:   []string{shopOrigin, "http://localhost:3000/"},
	}); err != nil {
		t.Fatal(err)
	}
}

// clientHeaders are project A's client credentials sent from origin.
func clientHeaders(origin string) map[string]string {
	return map[string]string{"X-Client-Application-Id": clientID, "X-Client-Token": clientToken, "Origin": origin}
}

// client is a request to the client-side API with project A's client key
// pair from shopOrigin.
func client(method, target, body string) req {
	return req{method: method, target: target, body: body, creds: credsNone, header: clientHeaders(shopOrigin)}
}

// TestClientAPI walks the client-side endpoints with a client key pair,
// each against its golden file: they answer what their /v1 counterparts
// answer, for the key's project.
func TestClientAPI(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	ids := validationFixture(h)
	mp := "/management/v1/projects/" + h.project.ID
	h.mustDo(req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"sign-up","schema":{"properties":{"plan":{"type":"string","optional":true}}}}`}, http.StatusOK)
	fill := func(body string) string {
		for k, v := range ids {
			body = strings.ReplaceAll(body, "{"+k+"}", v)
		}
		return body
	}
	h.run(t, "client", []step{
		{"validate", client(http.MethodPost, "/client/v1/validations", fill(`{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"a2pl4qJw"},{"object":"promotion_tier","id":"{tier30}"}],"order":{"amount":5000}}`)), 200},
		{"validate_not_found", client(http.MethodPost, "/client/v1/validations", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"NOPE"}],"order":{"amount":5000}}`), 200},
		{"validate_bad_body", client(http.MethodPost, "/client/v1/validations", `{"redeemables":"a2pl4qJw"}`), 400},
		{"redeem", client(http.MethodPost, "/client/v1/redemptions", fill(`{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"amount":5000}}`)), 200},
		{"redeem_not_found", client(http.MethodPost, "/client/v1/redemptions", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"NOPE"}],"order":{"amount":5000}}`), 404},
		{"tiers", client(http.MethodGet, "/client/v1/promotions/tiers?limit=2&page=1", ""), 200},
		{"tiers_available", client(http.MethodGet, "/client/v1/promotions/tiers?is_available=true&order=-created_at", ""), 200},
		{"tiers_bad_limit", client(http.MethodGet, "/client/v1/promotions/tiers?limit=0", ""), 400},
		{"event", client(http.MethodPost, "/client/v1/events", `{"event":"sign-up","customer":{"source_id":"alice"},"metadata":{"plan":"pro"}}`), 200},
		{"event_undefined", client(http.MethodPost, "/client/v1/events", `{"event":"log-in","customer":{"source_id":"alice"}}`), 400},
	})
	// The redemption spent the voucher of project A, through its ledger.
	got := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/a2pl4qJw"}, http.StatusOK)
	if r := got["redemption"].(map[string]any); r["redeemed_quantity"] != float64(1) {
		t.Errorf("voucher after the client redemption: %v", r)
	}
}
