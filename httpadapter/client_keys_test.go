package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestClientKeyManagement creates, lists, uses and deletes a client key
// pair through the management API: the pair works from its origins only,
// and stops working once deleted.
func TestClientKeyManagement(t *testing.T) {
	h := newHarness(t)
	keys := "/management/v1/projects/" + h.project.ID + "/client-keys"
	var appID, token string
	// The pair is random: check its form, and mask it in the golden files.
	var mask func(v any) any
	mask = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				v[k] = mask(x)
			}
		case []any:
			for i, x := range v {
				v[i] = mask(x)
			}
		case string:
			return anyUUID.ReplaceAllString(v, "<uuid>")
		}
		return v
	}
	step := func(name string, r req, want int) map[string]any {
		t.Helper()
		h.clock.Advance(time.Second)
		rec := h.do(r)
		if rec.Code != want {
			t.Fatalf("%s: %s %s = %d, want %d\n%s", name, r.method, r.target, rec.Code, want, rec.Body)
		}
		shown := r
		if appID != "" {
			shown.target = strings.ReplaceAll(r.target, appID, "<uuid>")
		}
		checkGolden(t, "client_keys/"+name, shown, rec, func(body any) { mask(body) })
		var out map[string]any
		if rec.Body.Len() > 0 {
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}

	created := step("create", req{method: http.MethodPost, target: keys, body: `{"origins":["https://Shop.example/","http://localhost:3000"]}`}, 200)
	appID, token = created["app_id"].(string), created["app_token"].(string)
	if !uuidRE.MatchString(appID) || !uuidRE.MatchString(token) {
		t.Fatalf("client key pair %q/%q is not two UUIDs", appID, token)
	}
	step("create_without_origins", req{method: http.MethodPost, target: keys, body: `{"origins":[]}`}, 400)
	step("create_wildcard_origin", req{method: http.MethodPost, target: keys, body: `{"origins":["*"]}`}, 400)
	step("create_origins_not_a_list", req{method: http.MethodPost, target: keys, body: `{"origins":"https://shop.example"}`}, 400)
	list := step("list", req{method: http.MethodGet, target: keys}, 200)
	if n := len(listed(list)); n != 1 {
		t.Fatalf("list holds %d keys, want the one created", n)
	}

	use := func(origin string) int {
		h.clock.Advance(time.Second)
		return h.do(req{method: http.MethodPost, target: "/client/v1/validations", creds: credsNone,
			header: map[string]string{"X-Client-Application-Id": appID, "X-Client-Token": token, "Origin": origin},
			body:   `{"redeemables":[{"object":"voucher","id":"NOPE"}],"order":{"amount":100}}`}).Code
	}
	for _, tc := range []struct {
		origin string
		want   int
	}{{"https://shop.example", 200}, {"http://localhost:3000", 200}, {"https://evil.example", 401}} {
		if got := use(tc.origin); got != tc.want {
			t.Errorf("client validation from %s = %d, want %d", tc.origin, got, tc.want)
		}
	}

	step("delete", req{method: http.MethodDelete, target: keys + "/" + appID}, 204)
	if got := use("https://shop.example"); got != http.StatusUnauthorized {
		t.Errorf("client validation with the deleted pair = %d, want 401", got)
	}
	step("delete_again", req{method: http.MethodDelete, target: keys + "/" + appID}, 404)
	step("list_after_delete", req{method: http.MethodGet, target: keys}, 200)
}

// anyUUID finds a random key id or token in an answer.
var anyUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`)

// listed is the array of a hosted list body (under its data_ref key).
func listed(m map[string]any) []any {
	ref, _ := m["data_ref"].(string)
	items, _ := m[ref].([]any)
	return items
}

// Isolation rows of the client key routes (isolation_test.go): project B's
// management credentials neither create, list nor delete A's client keys.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		ids["appId"] = h.mustDo(req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/client-keys",
			body: `{"origins":["https://shop.example"]}`}, http.StatusOK)["app_id"].(string)
	})
	const keys = "/management/v1/projects/{projectId}/client-keys"
	isolationRows = append(isolationRows,
		isolationRow{"create client key", http.MethodPost, keys, `{"origins":["https://shop.example"]}`},
		isolationRow{"list client keys", http.MethodGet, keys, ""},
		isolationRow{"delete client key", http.MethodDelete, keys + "/{appId}", ""},
	)
}
