package httpadapter_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestManagementCreateProject(t *testing.T) {
	h := newHarness(t)
	h.clock.Advance(time.Second)
	r := req{method: http.MethodPost, target: "/management/v1/projects", body: `{"name":"Second shop","timezone":"Europe/Warsaw","id":"ignored"}`}
	rec := h.do(r)
	if rec.Code != http.StatusOK {
		t.Fatalf("create project = %d\n%s", rec.Code, rec.Body)
	}
	// The key pair is random: check its form, use it, and mask it in the golden file.
	var pair struct{ ProjectID, AppID, AppToken string }
	checkGolden(t, "management/create_project", r, rec, func(body any) {
		pair.ProjectID = body.(map[string]any)["id"].(string)
		k := body.(map[string]any)["app_keys"].([]any)[0].(map[string]any)
		pair.AppID, pair.AppToken = k["app_id"].(string), k["app_token"].(string)
		k["app_id"], k["app_token"] = "<uuid>", "<uuid>"
	})
	if !uuidRE.MatchString(pair.AppID) || !uuidRE.MatchString(pair.AppToken) {
		t.Errorf("app key pair %+v is not two UUIDs", pair)
	}

	// The new pair reaches the new project only: its catalog holds just the
	// built-in shipping product, not the products of the first project.
	h.seedCatalog()
	newPair := map[string]string{"X-App-Id": pair.AppID, "X-App-Token": pair.AppToken}
	h.golden("management/create_project_then_list_products", req{method: http.MethodGet, target: "/v1/products", creds: credsNone, header: newPair})
	h.golden("management/create_project_then_get_other_project_product", req{method: http.MethodGet, target: "/v1/products/tee", creds: credsNone, header: newPair})

	// The calling management key was granted the new project.
	h.golden("management/get_created_project", req{method: http.MethodGet, target: "/management/v1/projects/" + pair.ProjectID})
}

func TestManagement(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	// A project the test management key is not granted, and a key granted nothing.
	other, err := h.engine.Projects().Create(ctx, project.Params{Name: "Other shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.engine.Auth().CreateManagementKey(ctx, auth.KeyParams{ID: "mgmt_nothing", Secret: "mgmt-nothing-0123456789"}); err != nil {
		t.Fatal(err)
	}
	nothing := map[string]string{"X-Management-Id": "mgmt_nothing", "X-Management-Token": "mgmt-nothing-0123456789"}
	h.run(t, "management", []step{
		{"get_project", req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID}, 200},
		{"get_project_not_granted", req{method: http.MethodGet, target: "/management/v1/projects/" + other.ID}, 404},
		{"get_project_unknown", req{method: http.MethodGet, target: "/management/v1/projects/proj_nope"}, 404},
		{"get_project_key_granted_nothing", req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID, creds: credsNone, header: nothing}, 404},
		{"unauthorized_no_credentials", req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID, creds: credsNone}, 401},
		{"unauthorized_wrong_token", req{method: http.MethodPost, target: "/management/v1/projects", body: `{"name":"x"}`, creds: credsWrongToken}, 401},
		{"unauthorized_app_pair", req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID, creds: credsApp}, 401},
		{"unauthorized_app_pair_create", req{method: http.MethodPost, target: "/management/v1/projects", body: `{"name":"x"}`, creds: credsApp}, 401},
		{"create_project_missing_name", req{method: http.MethodPost, target: "/management/v1/projects", body: `{"timezone":"UTC"}`}, 400},
		{"create_project_bad_timezone", req{method: http.MethodPost, target: "/management/v1/projects", body: `{"name":"x","timezone":"Mars/Olympus"}`}, 400},
		{"create_project_name_type", req{method: http.MethodPost, target: "/management/v1/projects", body: `{"name":42}`}, 400},
		{"create_project_invalid_json", req{method: http.MethodPost, target: "/management/v1/projects", body: `{name:"x"}`}, 400},
		{"method_not_allowed", req{method: http.MethodPatch, target: "/management/v1/projects/" + h.project.ID}, 405},
		{"method_not_allowed_collection", req{method: http.MethodDelete, target: "/management/v1/projects"}, 405},
		{"unknown_path", req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID + "/templates"}, 404},
	})
}

// Isolation rows of projects (isolation_test.go): the project id is
// recorded by the test itself.
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"get project", http.MethodGet, "/management/v1/projects/{projectId}", ""},
		isolationRow{"update project", http.MethodPut, "/management/v1/projects/{projectId}", `{"name":"Taken"}`},
		isolationRow{"update project client settings", http.MethodPut, "/management/v1/projects/{projectId}", `{"client_redeem_enabled":false,"client_trusted_domains":["https://taken.example"]}`},
		isolationRow{"delete project", http.MethodDelete, "/management/v1/projects/{projectId}", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list projects", http.MethodGet, "/management/v1/projects", ""},
	)
}
