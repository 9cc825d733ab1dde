package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

// TestClientSettings: the project's client_*_enabled settings gate the
// client-side API (403 forbidden naming the setting) and not the
// server-side one: redemptions, the customers a client redemption or
// event would create, and events with loyalty or referral data.
func TestClientSettings(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/CLIENT10", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"known"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/custom-event-schemas",
		body: `{"name":"visit","schema":{"properties":{}}}`}, http.StatusOK)
	settings := func(body string) {
		t.Helper()
		h.mustDo(req{method: http.MethodPut, target: "/management/v1/projects/" + h.project.ID, body: body}, http.StatusOK)
	}
	redeem := func(customer string) string {
		return `{"redeemables":[{"object":"voucher","id":"CLIENT10"}],"order":{"amount":1000},"customer":{"source_id":"` + customer + `"}}`
	}
	const loyaltyEvent = `{"event":"visit","customer":{"source_id":"known"},"loyalty":{"code":"L-1"}}`
	settings(`{"client_redeem_enabled":false}`)
	h.run(t, "client_settings", []step{
		{"redeem_disabled", client(http.MethodPost, "/client/v1/redemptions", redeem("known")), 403},
		{"server_redeem_not_gated", req{method: http.MethodPost, target: "/v1/validations", body: redeem("known")}, 200},
		{"client_validation_not_gated", client(http.MethodPost, "/client/v1/validations", redeem("known")), 200},
	})
	settings(`{"client_redeem_enabled":true,"client_create_customer_enabled":false,"client_loyalty_events_enabled":false}`)
	h.run(t, "client_settings", []step{
		{"redeem_new_customer", client(http.MethodPost, "/client/v1/redemptions", redeem("stranger")), 403},
		{"event_new_customer", client(http.MethodPost, "/client/v1/events", `{"event":"visit","customer":{"source_id":"stranger"}}`), 403},
		{"loyalty_event_disabled", client(http.MethodPost, "/client/v1/events", loyaltyEvent), 403},
		{"plain_event", client(http.MethodPost, "/client/v1/events", `{"event":"visit","customer":{"source_id":"known"}}`), 200},
		{"redeem_known_customer", client(http.MethodPost, "/client/v1/redemptions", redeem("known")), 200},
	})
	h.mustDo(req{method: http.MethodGet, target: "/v1/customers/stranger"}, http.StatusNotFound)
	settings(`{"client_create_customer_enabled":true,"client_loyalty_events_enabled":true}`)
	h.run(t, "client_settings", []step{
		{"loyalty_event_enabled", client(http.MethodPost, "/client/v1/events", loyaltyEvent), 200},
	})
}

// TestClientSettingsIsolation: one project's client settings never gate
// another's client requests, and a customer of project A is, for B's
// client_create_customer_enabled, one B would create (exactly as a
// customer stored nowhere).
func TestClientSettingsIsolation(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	b, err := h.engine.Projects().Create(t.Context(), project.Params{Name: "Other shop",
		ClientSettingsParams: project.ClientSettingsParams{CreateCustomerEnabled: promotype.Ptr(false)}})
	if err != nil {
		t.Fatal(err)
	}
	otherClientKeyed(t, h, b.ID)
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice-a"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPut, target: "/management/v1/projects/" + h.project.ID, body: `{"client_redeem_enabled":false}`}, http.StatusOK)
	redeemAs := func(customer string) (int, string) {
		rec := h.do(req{method: http.MethodPost, target: "/client/v1/redemptions", creds: credsNone, header: otherClientHeaders(),
			body: `{"redeemables":[{"object":"voucher","id":"NONE"}],"order":{"amount":1000},"customer":{"source_id":"` + customer + `"}}`})
		return rec.Code, rec.Body.String()
	}
	for _, c := range []string{"alice-a", "nobody"} {
		if code, body := redeemAs(c); code != http.StatusForbidden || !strings.Contains(body, "client_create_customer_enabled") {
			t.Errorf("B redeeming for %s = %d %s, want 403 naming client_create_customer_enabled", c, code, body)
		}
	}
	if _, err := h.engine.Projects().Update(t.Context(), b.ID, project.UpdateParams{
		ClientSettingsParams: project.ClientSettingsParams{CreateCustomerEnabled: promotype.Ptr(true)}}); err != nil {
		t.Fatal(err)
	}
	if code, body := redeemAs("alice-a"); code == http.StatusForbidden {
		t.Errorf("A's client_redeem_enabled gates B: %d %s", code, body)
	}
}
