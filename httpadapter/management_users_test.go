package httpadapter_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
)

// The users of a project: invited (no e-mail is sent), listed, read by id
// or login, assigned to another project, given another role, unassigned
// (never from their only project), and gone from a deleted project.
func TestManagementUsers(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	second, err := h.engine.Projects().Create(ctx, project.Params{Name: "Second shop"})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.engine.Auth().GrantProject(ctx, mgmtID, second.ID); err != nil {
		t.Fatal(err)
	}
	third, err := h.engine.Projects().Create(ctx, project.Params{Name: "Not granted"})
	if err != nil {
		t.Fatal(err)
	}
	const mp, invite = "/management/v1/projects/", "/management/v1/projects/users/invite"
	a, b := mp+h.project.ID+"/users", mp+second.ID+"/users"
	h.run(t, "management/users", []step{
		{"invite", req{method: http.MethodPost, target: invite,
			body: `{"email":"Ann@Shop.example","first_name":"Ann","last_name":"Lee","projects":{"` + h.project.ID + `":"ADMIN","` + second.ID + `":"VIEWER"}}`}, 204},
		{"invite_second", req{method: http.MethodPost, target: invite, body: `{"email":"bob@shop.example","projects":{"` + h.project.ID + `":"USER"}}`}, 204},
		{"invite_taken_email", req{method: http.MethodPost, target: invite, body: `{"email":"ann@shop.example","projects":{"` + second.ID + `":"USER"}}`}, 409},
		{"invite_bad_email", req{method: http.MethodPost, target: invite, body: `{"email":"not-an-email","projects":{"` + h.project.ID + `":"USER"}}`}, 400},
		{"invite_no_email", req{method: http.MethodPost, target: invite, body: `{"projects":{"` + h.project.ID + `":"USER"}}`}, 400},
		{"invite_no_projects", req{method: http.MethodPost, target: invite, body: `{"email":"cy@shop.example"}`}, 400},
		{"invite_bad_role", req{method: http.MethodPost, target: invite, body: `{"email":"cy@shop.example","projects":{"` + h.project.ID + `":"OWNER"}}`}, 400},
		{"invite_custom_role", req{method: http.MethodPost, target: invite, body: `{"email":"cy@shop.example","projects":{"` + h.project.ID + `":"role_XyZ7aB9cD2eF4gH1"}}`}, 404},
		{"invite_project_not_granted", req{method: http.MethodPost, target: invite, body: `{"email":"cy@shop.example","projects":{"` + third.ID + `":"USER"}}`}, 404},
		{"invite_invalid_json", req{method: http.MethodPost, target: invite, body: `{"email":`}, 400},
		{"list", req{method: http.MethodGet, target: a}, 200},
		{"get_by_login", req{method: http.MethodGet, target: a + "/ANN@shop.example"}, 200},
		{"get_missing", req{method: http.MethodGet, target: a + "/user_missing"}, 404},
		{"assign_by_login", req{method: http.MethodPost, target: b, body: `{"login":"bob@shop.example","role":"MERCHANT"}`}, 200},
		{"assign_twice", req{method: http.MethodPost, target: b, body: `{"login":"bob@shop.example","role":"USER"}`}, 409},
		{"assign_unknown", req{method: http.MethodPost, target: b, body: `{"id":"user_nobody","role":"USER"}`}, 404},
		{"assign_id_and_login", req{method: http.MethodPost, target: b, body: `{"id":"user_nobody","login":"bob@shop.example","role":"USER"}`}, 400},
		{"assign_no_role", req{method: http.MethodPost, target: b, body: `{"login":"bob@shop.example"}`}, 400},
		{"assign_no_user", req{method: http.MethodPost, target: b, body: `{"role":"USER"}`}, 400},
		{"update_role", req{method: http.MethodPut, target: b + "/bob@shop.example", body: `{"role":"USER"}`}, 200},
		{"update_bad_role", req{method: http.MethodPut, target: b + "/bob@shop.example", body: `{"role":"admin"}`}, 400},
		{"update_missing", req{method: http.MethodPut, target: b + "/user_missing", body: `{"role":"USER"}`}, 404},
		{"unassign", req{method: http.MethodDelete, target: b + "/bob@shop.example"}, 204},
		{"unassign_twice", req{method: http.MethodDelete, target: b + "/bob@shop.example"}, 404},
		{"unassign_only_project", req{method: http.MethodDelete, target: a + "/bob@shop.example"}, 400},
		{"list_second", req{method: http.MethodGet, target: b}, 200},
		{"list_project_not_granted", req{method: http.MethodGet, target: mp + third.ID + "/users"}, 404},
	})
	ann := h.mustDo(req{method: http.MethodGet, target: a + "/ann@shop.example"}, http.StatusOK)["id"].(string)
	h.run(t, "management/users", []step{
		{"get_by_id", req{method: http.MethodGet, target: a + "/" + ann}, 200},
		{"update_by_id", req{method: http.MethodPut, target: a + "/" + ann, body: `{"role":"MERCHANT"}`}, 200},
		{"delete_second_project", req{method: http.MethodDelete, target: mp + second.ID}, 204},
		{"get_after_project_deletion", req{method: http.MethodGet, target: a + "/" + ann}, 200},
	})
}

// A management key sees users only through the projects it is granted: a
// key of project B cannot find A's user to assign, its invitation of the
// same address makes B's own user, and B's answers never name project A.
func TestManagementUsersScope(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	b, err := h.engine.Projects().Create(ctx, project.Params{Name: "Other shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.engine.Auth().CreateManagementKey(ctx, auth.KeyParams{ID: otherMgmtID, Secret: otherMgmtToken}, b.ID); err != nil {
		t.Fatal(err)
	}
	asB := map[string]string{"X-Management-Id": otherMgmtID, "X-Management-Token": otherMgmtToken}
	const invite = "/management/v1/projects/users/invite"
	users := "/management/v1/projects/" + b.ID + "/users"
	h.mustDo(req{method: http.MethodPost, target: invite, body: `{"email":"ann@shop.example","projects":{"` + h.project.ID + `":"ADMIN"}}`}, http.StatusNoContent)
	annA := h.mustDo(req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID + "/users/ann@shop.example"}, http.StatusOK)["id"].(string)

	h.mustDo(req{method: http.MethodPost, target: users, body: `{"login":"ann@shop.example","role":"USER"}`, creds: credsNone, header: asB}, http.StatusNotFound)
	h.mustDo(req{method: http.MethodPost, target: users, body: `{"id":"` + annA + `","role":"USER"}`, creds: credsNone, header: asB}, http.StatusNotFound)
	h.mustDo(req{method: http.MethodPost, target: invite, body: `{"email":"ann@shop.example","projects":{"` + b.ID + `":"USER"}}`, creds: credsNone, header: asB}, http.StatusNoContent)
	rec := h.do(req{method: http.MethodGet, target: users, creds: credsNone, header: asB})
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "ann@shop.example") {
		t.Fatalf("B's users = %d\n%s", rec.Code, rec.Body)
	}
	for _, leak := range []string{h.project.ID, annA} {
		if strings.Contains(rec.Body.String(), leak) {
			t.Errorf("B's list names A's %s:\n%s", leak, rec.Body)
		}
	}
	// A's user is unchanged: still in A only.
	got := h.mustDo(req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID + "/users/" + annA}, http.StatusOK)
	if diff := cmp.Diff(map[string]any{h.project.ID: "ADMIN"}, got["projects"]); diff != "" {
		t.Errorf("A's user's projects (-want +got):\n%s", diff)
	}
}

// Isolation rows of the project users (isolation_test.go): project A's
// user, seeded by an invitation.
func init() {
	const users = "/management/v1/projects/{projectId}/users"
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/management/v1/projects/users/invite",
			body: `{"email":"iso@shop.example","projects":{"` + h.project.ID + `":"ADMIN"}}`}, http.StatusNoContent)
		ids["userId"] = h.mustDo(req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID + "/users/iso@shop.example"}, http.StatusOK)["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"list project users", http.MethodGet, users, ""},
		isolationRow{"assign project user", http.MethodPost, users, `{"id":"{userId}","role":"USER"}`},
		isolationRow{"get project user", http.MethodGet, users + "/{userId}", ""},
		isolationRow{"update project user", http.MethodPut, users + "/{userId}", `{"role":"USER"}`},
		isolationRow{"unassign project user", http.MethodDelete, users + "/{userId}", ""},
		isolationRow{"invite a user to A", http.MethodPost, "/management/v1/projects/users/invite", `{"email":"new@shop.example","projects":{"{projectId}":"USER"}}`},
	)
}
