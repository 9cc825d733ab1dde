package httpadapter_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
)

// Project B's client key pair in the isolation tests; it allows shopOrigin
// too, so only the key, never the origin, tells the projects apart.
const (
	otherClientID    = "client_other_0001"
	otherClientToken = "client-other-token-0123456789"
)

func otherClientHeaders() map[string]string {
	return map[string]string{"X-Client-Application-Id": otherClientID, "X-Client-Token": otherClientToken, "Origin": shopOrigin}
}

// otherClientKeyed gives project projectID (B) its client key pair.
func otherClientKeyed(t *testing.T, h *harness, projectID string) {
	t.Helper()
	if _, _, err := h.engine.Auth().CreateClientKey(t.Context(), projectID, auth.ClientKeyParams{
		KeyParams: auth.KeyParams{ID: otherClientID, Secret: otherClientToken}, Origins: []string{shopOrigin}}); err != nil {
		t.Fatal(err)
	}
}

func init() {
	// B's client list of tiers shows none of A's (seeded by
	// isolation_promotions_test.go).
	isolationLists = append(isolationLists,
		isolationRow{"client list tiers", http.MethodGet, "/client/v1/promotions/tiers", ""},
	)
}

// TestClientIsolation: project B's client key pair (from an origin A's key
// allows too) neither validates, redeems nor tracks against project A: A's
// voucher and tier are unknown to B, exactly as ids that exist nowhere, and
// A's voucher and customers are unchanged.
func TestClientIsolation(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	ctx := context.Background()
	b, err := h.engine.Projects().Create(ctx, project.Params{Name: "Other shop"})
	if err != nil {
		t.Fatal(err)
	}
	otherClientKeyed(t, h, b.ID)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ISO-A", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
	camp := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Iso","campaign_type":"PROMOTION"}`}, http.StatusOK)["id"].(string)
	tier := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"Iso tier","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`}, http.StatusOK)["id"].(string)
	mp := "/management/v1/projects/" + h.project.ID
	h.mustDo(req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"sign-up","schema":{"properties":{}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice-a","name":"Alice of A"}`}, http.StatusOK)

	asB := func(target, body string) (int, string) {
		rec := h.do(req{method: http.MethodPost, target: target, body: body, creds: credsNone, header: otherClientHeaders()})
		return rec.Code, rec.Body.String()
	}
	for _, tc := range []struct{ name, target, body, missing string }{
		{"validate A's voucher", "/client/v1/validations", `{"redeemables":[{"object":"voucher","id":"ISO-A"}],"order":{"amount":1000}}`,
			`{"redeemables":[{"object":"voucher","id":"ISO-A-missing"}],"order":{"amount":1000}}`},
		{"validate A's tier", "/client/v1/validations", `{"redeemables":[{"object":"promotion_tier","id":"` + tier + `"}],"order":{"amount":1000}}`,
			`{"redeemables":[{"object":"promotion_tier","id":"` + tier + `-missing"}],"order":{"amount":1000}}`},
		{"redeem A's voucher", "/client/v1/redemptions", `{"redeemables":[{"object":"voucher","id":"ISO-A"}],"order":{"amount":1000}}`,
			`{"redeemables":[{"object":"voucher","id":"ISO-A-missing"}],"order":{"amount":1000}}`},
		{"track A's event", "/client/v1/events", `{"event":"sign-up","customer":{"source_id":"alice-a"}}`,
			`{"event":"sign-up-missing","customer":{"source_id":"alice-a"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, got := asB(tc.target, tc.body)
			mcode, want := asB(tc.target, tc.missing)
			// Ids in the answers differ (request-scoped ids); the shape and
			// the verdict must not.
			if code != mcode || strings.Contains(got, `"valid":true`) || strings.Contains(got, "Alice of A") {
				t.Errorf("B's answer for A's resource (%d)\n%s\nvs a missing one (%d)\n%s", code, got, mcode, want)
			}
		})
	}
	v := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/ISO-A"}, http.StatusOK)
	if r := v["redemption"].(map[string]any); r["redeemed_quantity"] != float64(0) {
		t.Errorf("A's voucher was redeemed by B: %v", r)
	}
}
