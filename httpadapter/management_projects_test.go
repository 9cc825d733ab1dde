package httpadapter_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
)

// The management project endpoints: the list of the projects the key is
// granted, update, and delete (the deleted project's key stops working,
// the other project keeps its data).
func TestManagementProjects(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.clock.Advance(1e9)
	second, err := h.engine.Projects().Create(ctx, project.Params{Name: "Second shop", TimeZone: "Europe/Warsaw"})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.engine.Auth().GrantProject(ctx, mgmtID, second.ID); err != nil {
		t.Fatal(err)
	}
	pair := map[string]string{"X-App-Id": "app_second_0001", "X-App-Token": "app-second-token-0123456789"}
	if _, err := h.engine.Auth().CreateAppKey(ctx, second.ID, auth.KeyParams{ID: pair["X-App-Id"], Secret: pair["X-App-Token"]}); err != nil {
		t.Fatal(err)
	}
	// Both projects hold a customer of the same source id.
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice"}`, creds: credsNone, header: pair}, http.StatusOK)
	// A project the key is not granted is not listed.
	if _, err := h.engine.Projects().Create(ctx, project.Params{Name: "Not granted"}); err != nil {
		t.Fatal(err)
	}
	mp := "/management/v1/projects/"
	h.run(t, "management/projects", []step{
		{"list", req{method: http.MethodGet, target: "/management/v1/projects"}, 200},
		{"update", req{method: http.MethodPut, target: mp + second.ID, body: `{"name":"Renamed","description":"Our second shop","timezone":"America/New_York","currency":"USD"}`}, 200},
		{"get_updated", req{method: http.MethodGet, target: mp + second.ID}, 200},
		{"update_client_settings", req{method: http.MethodPut, target: mp + second.ID, body: `{"client_trusted_domains":["https://shop.example"],` +
			`"client_redeem_enabled":false,"client_publish_enabled":true,"client_create_customer_enabled":false}`}, 200},
		{"update_client_domain_empty", req{method: http.MethodPut, target: mp + second.ID, body: `{"client_trusted_domains":[""]}`}, 400},
		{"update_client_flag_type", req{method: http.MethodPut, target: mp + second.ID, body: `{"client_redeem_enabled":"no"}`}, 400},
		{"update_bad_timezone", req{method: http.MethodPut, target: mp + second.ID, body: `{"timezone":"Mars/Olympus"}`}, 400},
		{"update_empty_name", req{method: http.MethodPut, target: mp + second.ID, body: `{"name":""}`}, 400},
		{"update_name_type", req{method: http.MethodPut, target: mp + second.ID, body: `{"name":7}`}, 400},
		{"delete", req{method: http.MethodDelete, target: mp + second.ID}, 204},
		{"deleted_project_key", req{method: http.MethodGet, target: "/v1/customers/alice", creds: credsNone, header: pair}, 401},
		{"get_deleted", req{method: http.MethodGet, target: mp + second.ID}, 404},
		{"delete_twice", req{method: http.MethodDelete, target: mp + second.ID}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: "/management/v1/projects"}, 200},
		{"other_project_customer", req{method: http.MethodGet, target: "/v1/customers/alice"}, 200},
	})
}
