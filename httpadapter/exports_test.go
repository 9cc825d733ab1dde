package httpadapter_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tokenRE finds the download token of a result url, random in every run.
var tokenRE = regexp.MustCompile(`token=[A-Za-z0-9_-]+`)

// maskExportToken hides the token of an export's (or a list's exports')
// result.url.
func maskExportToken(body any) {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "url" {
					x[k] = tokenRE.ReplaceAllString(s, "token=<token>")
				} else {
					walk(e)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(body)
}

// runExports is run with the tokens masked in the golden files.
func (h *harness) runExports(t *testing.T, steps []step) {
	t.Helper()
	for _, s := range steps {
		h.clock.Advance(1e9)
		rec := h.do(s.req)
		checkGolden(t, "exports/"+s.name, s.req, rec, maskExportToken)
		if rec.Code != s.want {
			t.Errorf("exports/%s: %s %s = %d, want %d\n%s", s.name, s.req.method, s.req.target, rec.Code, s.want, rec.Body)
		}
	}
}

// checkCSV compares a downloaded file with testdata/exports/<name>.csv
// (rewritten with -update).
func checkCSV(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "exports", name+".csv")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// seedExportable adds to seedPublishable's vouchers a publication, an
// order with metadata and a redemption of SUMMER-1 by alice.
func (h *harness) seedExportable() {
	h.t.Helper()
	h.seedPublishable()
	h.mustDo(req{method: http.MethodPost, target: "/v1/publications",
		body: `{"voucher":"SOLO","customer":{"source_id":"alice","name":"Alice, \"A\"","email":"alice@example.com"},"channel":"email"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/orders",
		body: `{"source_id":"ord-1","amount":12345,"status":"PAID","metadata":{"shop":"north"},"customer":{"source_id":"bob","name":"Bob"}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions",
		body: `{"redeemables":[{"object":"voucher","id":"SUMMER-1"}],"order":{"amount":10000},"customer":{"source_id":"alice"}}`}, http.StatusOK)
}

// TestExports creates exports of every object through HTTP (answers
// against golden files, tokens masked), runs their jobs, downloads each
// file with its token (contents against golden CSV files), refuses what
// cannot be exported, and deletes an export with its file.
func TestExports(t *testing.T) {
	h := newHarness(t)
	h.seedExportable()
	campaignID := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Summer"}, http.StatusOK)["id"].(string)
	creates := []step{
		{"create_voucher_defaults", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher"}`}, 200},
		{"create_voucher_fields", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{` +
			`"order":"code","fields":["id","code","voucher_type","value","campaign","active","metadata","created_at"],` +
			`"filters":{"junction":"and","code":{"conditions":{"$starts_with":"SUMMER"}}}}}`}, 200},
		{"create_voucher_campaign", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{` +
			`"order":"-code","fields":["code","customer_id"],"campaign_id":"` + campaignID + `"}}`}, 200},
		{"create_redemption", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"redemption","parameters":{` +
			`"fields":["object","voucher_code","customer_id","result","order_amount","campaign"]}}`}, 200},
		{"create_customer", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"customer","parameters":{` +
			`"order":"source_id","fields":["source_id","name","email"]}}`}, 200},
		{"create_order", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"order","parameters":{` +
			`"fields":["source_id","status","amount","metadata"],"filters":{"status":{"conditions":{"$in":["PAID"]}}}}}`}, 200},
		{"create_publication", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"publication"}`}, 200},
		{"create_points_expiration", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"points_expiration"}`}, 200},
		{"create_missing_object", req{method: http.MethodPost, target: "/v1/exports", body: `{}`}, 400},
		{"create_unknown_object", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"product"}`}, 400},
		{"create_unknown_field", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{"fields":["code","email"]}}`}, 400},
		{"create_twice_field", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{"fields":["code","code"]}}`}, 400},
		{"create_unknown_filter", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{"filters":{"color":{"conditions":{"$is":"red"}}}}}`}, 400},
		{"create_unknown_operator", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{"filters":{"code":{"conditions":{"$near":"A"}}}}}`}, 400},
		{"create_bad_filter_shape", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{"filters":{"code":"A"}}}`}, 400},
		{"create_bad_junction", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher","parameters":{"filters":{"junction":"xor"}}}`}, 400},
		{"create_bad_order", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"order","parameters":{"order":"code"}}`}, 400},
		{"create_campaign_id_not_voucher", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"order","parameters":{"campaign_id":"camp_1"}}`}, 400},
	}
	ids := h.createExports(t, creates)
	first := ids["create_voucher_defaults"]
	h.runExports(t, []step{
		{"get_scheduled", req{method: http.MethodGet, target: "/v1/exports/" + first}, 200},
	})
	// The file cannot be downloaded before it is written, even with the token.
	if rec := h.download("/v1/exports/" + first + "?token=" + h.exportToken(first)); rec.Code != http.StatusNotFound {
		t.Errorf("download before the job ran = %d, want 404\n%s", rec.Code, rec.Body)
	}
	h.runActions()
	h.runExports(t, []step{
		{"get_done", req{method: http.MethodGet, target: "/v1/exports/" + first}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/exports"}, 200},
		{"list_page", req{method: http.MethodGet, target: "/v1/exports?limit=2&page=2&order=created_at"}, 200},
		{"list_bad_order", req{method: http.MethodGet, target: "/v1/exports?order=code"}, 400},
		{"get_unknown", req{method: http.MethodGet, target: "/v1/exports/exp_nope"}, 404},
		{"get_no_key", req{method: http.MethodGet, target: "/v1/exports/" + first, creds: credsNone}, 401},
		{"download_wrong_token", req{method: http.MethodGet, target: "/v1/exports/" + first + "?token=wrong", creds: credsNone}, 404},
		{"download_wrong_token_with_key", req{method: http.MethodGet, target: "/v1/exports/" + first + "?token=wrong"}, 404},
		{"download_empty_token", req{method: http.MethodGet, target: "/v1/exports/" + first + "?token=", creds: credsNone}, 404},
	})
	for name, id := range ids {
		target := h.resultURL(id)
		rec := h.download(target)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: GET %s = %d\n%s", name, target, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", name, ct)
		}
		checkCSV(t, strings.TrimPrefix(name, "create_"), rec.Body.String())
	}
	// Deleting an export deletes its file: the token no longer downloads.
	target := h.resultURL(first)
	h.runExports(t, []step{
		{"delete", req{method: http.MethodDelete, target: "/v1/exports/" + first}, 204},
		{"get_deleted", req{method: http.MethodGet, target: "/v1/exports/" + first}, 404},
		{"delete_again", req{method: http.MethodDelete, target: "/v1/exports/" + first}, 404},
	})
	if rec := h.download(target); rec.Code != http.StatusNotFound {
		t.Errorf("download of a deleted export = %d, want 404\n%s", rec.Code, rec.Body)
	}
	if _, err := h.store.ExportChunk(context.Background(), h.project.ID, first, 0); err == nil {
		t.Error("the deleted export's file is still stored")
	}
}

// createExports runs export creations (answers against golden files,
// tokens masked) and returns the id of each export created, by step name.
func (h *harness) createExports(t *testing.T, steps []step) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, s := range steps {
		h.clock.Advance(1e9)
		rec := h.do(s.req)
		checkGolden(t, "exports/"+s.name, s.req, rec, maskExportToken)
		if rec.Code != s.want {
			t.Fatalf("%s: %s %s = %d, want %d\n%s", s.name, s.req.method, s.req.target, rec.Code, s.want, rec.Body)
		}
		if rec.Code == http.StatusOK {
			ids[s.name] = decode(t, rec.Body.Bytes())["id"].(string)
		}
	}
	return ids
}

// download GETs an export's file with no credentials (the harness's do
// checks for JSON answers, which a file is not).
func (h *harness) download(target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if rec.Header().Get("X-Request-Id") == "" {
		h.t.Errorf("GET %s: no X-Request-Id header", target)
	}
	return rec
}

// resultURL returns the result.url of a DONE export (the download path
// with its token).
func (h *harness) resultURL(id string) string {
	h.t.Helper()
	e := h.mustDo(req{method: http.MethodGet, target: "/v1/exports/" + id}, http.StatusOK)
	r, ok := e["result"].(map[string]any)
	if !ok {
		h.t.Fatalf("export %s has no result: %v", id, e)
	}
	return r["url"].(string)
}

// exportToken returns the download token of an export, read from the engine
// (the API shows it only once the export is DONE).
func (h *harness) exportToken(id string) string {
	h.t.Helper()
	found, err := h.store.FindExports(context.Background(), id)
	if err != nil || len(found) != 1 {
		h.t.Fatalf("find export %s: %v %v", id, found, err)
	}
	return url.QueryEscape(found[0].Token)
}

// decode decodes a JSON object.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
