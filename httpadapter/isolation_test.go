package httpadapter_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
)

// Project B's credentials in the isolation test.
const (
	otherAppID     = "app_other_0001"
	otherAppToken  = "app-other-token-0123456789"
	otherMgmtID    = "mgmt_other_0001"
	otherMgmtToken = "mgmt-other-token-0123456789"
)

// missingSuffix turns an id of project A into one that exists nowhere.
const missingSuffix = "-missing"

// isolationCreds are project B's credentials that a row of path p is sent
// with: on /v1 its key pair and a token of scope api; on /management/v1 a
// management key granted project B only.
func isolationCreds(t *testing.T, h *harness, p string) map[string]map[string]string {
	t.Helper()
	if strings.HasPrefix(p, "/management/") {
		return map[string]map[string]string{"management key": {"X-Management-Id": otherMgmtID, "X-Management-Token": otherMgmtToken}}
	}
	if strings.HasPrefix(p, clientPrefix) {
		token := h.tokenFor(map[string]string{"X-App-Id": otherAppID, "X-App-Token": otherAppToken}, "client_api")
		return map[string]map[string]string{"client key pair": otherClientHeaders(), "client bearer token": {"Authorization": "Bearer " + token}}
	}
	pair := map[string]string{"X-App-Id": otherAppID, "X-App-Token": otherAppToken}
	token := h.tokenFor(pair, "api")
	return map[string]map[string]string{"key pair": pair, "bearer token": {"Authorization": "Bearer " + token}}
}

// TestProjectIsolation walks every isolation row with project B's
// credentials against project A's resources: each answers 404, exactly as
// the same request for an id that exists nowhere (never 403, never data);
// each list shows none of A's ids. Then A still sees every resource.
func TestProjectIsolation(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	b, err := h.engine.Projects().Create(ctx, project.Params{Name: "Other shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.engine.Auth().CreateAppKey(ctx, b.ID, auth.KeyParams{ID: otherAppID, Secret: otherAppToken}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.engine.Auth().CreateManagementKey(ctx, auth.KeyParams{ID: otherMgmtID, Secret: otherMgmtToken}, b.ID); err != nil {
		t.Fatal(err)
	}
	otherClientKeyed(t, h, b.ID)
	ids := map[string]string{"projectId": h.project.ID}
	for _, seed := range isolationSeeds {
		seed(h, ids)
	}
	missing := map[string]string{}
	for k, v := range ids {
		missing[k] = v + missingSuffix
	}
	aIDs := slices.Collect(func(yield func(string) bool) {
		for _, v := range ids {
			if !yield(v) {
				return
			}
		}
	})

	for _, row := range isolationRows {
		for name, header := range isolationCreds(t, h, row.path) {
			t.Run(row.name+"/"+name, func(t *testing.T) {
				h := h.with(t)
				got := h.do(isolationReq(t, row, ids, header))
				if got.Code != http.StatusNotFound {
					t.Fatalf("%s %s = %d, want 404\n%s", row.method, fill(t, row.path, ids), got.Code, got.Body)
				}
				want := h.do(isolationReq(t, row, missing, header))
				if g, w := got.Body.String(), strings.ReplaceAll(want.Body.String(), missingSuffix, ""); g != w {
					t.Errorf("answer for project A's resource\n%s\ndiffers from the answer for a missing one\n%s", g, w)
				}
			})
		}
	}
	for _, row := range isolationLists {
		for name, header := range isolationCreds(t, h, row.path) {
			t.Run(row.name+"/"+name, func(t *testing.T) {
				h := h.with(t)
				got := h.do(isolationReq(t, row, ids, header))
				if got.Code != http.StatusOK {
					t.Fatalf("%s %s = %d, want 200\n%s", row.method, row.path, got.Code, got.Body)
				}
				for _, id := range aIDs {
					if strings.Contains(got.Body.String(), id) {
						t.Errorf("project B's list shows project A's %s:\n%s", id, got.Body)
					}
				}
			})
		}
	}
	// After the lists: these create orders of project B.
	for _, row := range isolationJoins {
		for name, header := range isolationCreds(t, h, row.path) {
			t.Run(row.name+"/"+name, func(t *testing.T) {
				h := h.with(t)
				got := h.do(isolationReq(t, row, ids, header))
				if got.Code != http.StatusOK {
					t.Fatalf("%s %s = %d, want 200\n%s", row.method, row.path, got.Code, got.Body)
				}
				var o struct {
					Items []map[string]any `json:"items"`
				}
				if err := json.Unmarshal(got.Body.Bytes(), &o); err != nil || len(o.Items) != 1 {
					t.Fatalf("order %s: %v", got.Body, err)
				}
				for _, k := range []string{"product", "sku", "price"} {
					if v, ok := o.Items[0][k]; ok && v != nil {
						t.Errorf("the line joins project A's catalog (%s: %v):\n%s", k, v, got.Body)
					}
				}
			})
		}
	}
	// Nothing B sent changed A's resources.
	for _, row := range isolationRows {
		if row.method == http.MethodGet {
			r := req{method: row.method, target: fill(t, row.path, scopedIDs(row.path, ids))}
			if rec := h.do(r); rec.Code != http.StatusOK {
				t.Errorf("project A: %s %s = %d after the isolation walk\n%s", r.method, r.target, rec.Code, rec.Body)
			}
		}
	}
}

func isolationReq(t *testing.T, row isolationRow, ids map[string]string, header map[string]string) req {
	t.Helper()
	ids = scopedIDs(row.path, ids)
	r := req{method: row.method, target: fill(t, row.path, ids), creds: credsNone, header: header}
	if row.body != "" {
		r.body = fill(t, row.body, ids)
	}
	if strings.HasPrefix(row.body, "--"+csvBoundary) { // a CSV upload (imports_test.go)
		r.contentType = csvContentType
	}
	return r
}

// scopedIDs is ids with the values a seed recorded for the rows of one
// resource: "referrals.memberId" is {memberId} in the rows under
// /v1/referrals/, where the shared memberId (a loyalty card) is no
// referral code.
func scopedIDs(path string, ids map[string]string) map[string]string {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		return ids
	}
	scope, _, _ := strings.Cut(rest, "/")
	var out map[string]string
	for k, v := range ids {
		if name, ok := strings.CutPrefix(k, scope+"."); ok {
			if out == nil {
				out = maps.Clone(ids)
			}
			out[name] = v
		}
	}
	if out == nil {
		return ids
	}
	return out
}

var placeholderRE = regexp.MustCompile(`\{[A-Za-z]+\}`)

// fill replaces every {name} of s with ids[name].
func fill(t *testing.T, s string, ids map[string]string) string {
	t.Helper()
	return placeholderRE.ReplaceAllStringFunc(s, func(p string) string {
		v, ok := ids[p[1:len(p)-1]]
		if !ok {
			t.Fatalf("%s: no seed records %s", s, p)
		}
		return v
	})
}

// Every route with a path parameter has an isolation row, and every GET of
// a collection is an isolation list: a new endpoint cannot skip the test.
func TestIsolationCoversEveryRoute(t *testing.T) {
	h := newHarness(t)
	covered := map[string]bool{}
	// A row's query string (a GET that takes its input there) is no part
	// of the route it covers.
	for _, r := range isolationRows {
		path, _, _ := strings.Cut(r.path, "?")
		covered[r.method+" "+path] = true
	}
	for _, r := range isolationLists {
		path, _, _ := strings.Cut(r.path, "?")
		covered[r.method+" "+path] = true
	}
	for _, rt := range httpadapter.Routes(h.handler) {
		method, pattern, _ := strings.Cut(rt, " ")
		needed := strings.Contains(pattern, "{") || (method == http.MethodGet && strings.HasPrefix(pattern, "/v1/"))
		if needed && !covered[rt] {
			t.Errorf("route %s has no isolation row: add one (isolationRows or isolationLists, with a seed) in an init() of its test file; see isolation_rows_test.go", rt)
		}
	}
}

// tokenFor issues a token of scope with the key pair in header and returns
// it.
func (h *harness) tokenFor(header map[string]string, scope string) string {
	h.t.Helper()
	rec := h.do(req{method: http.MethodPost, target: "/v1/oauth/token", creds: credsNone, header: header,
		body: url.Values{"grant_type": {"client_credentials"}, "scope": {scope}}.Encode(), contentType: formContentType})
	if rec.Code != http.StatusOK {
		h.t.Fatalf("token request = %d\n%s", rec.Code, rec.Body)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		h.t.Fatal(err)
	}
	return out.AccessToken
}
