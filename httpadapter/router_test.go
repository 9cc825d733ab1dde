package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/httpadapter"
)

func TestUnknownPaths(t *testing.T) {
	h := newHarness(t)
	h.run(t, "router", []step{
		{"unknown_root", req{method: http.MethodGet, target: "/", creds: credsNone}, 404},
		{"unknown_version", req{method: http.MethodGet, target: "/v2/products", creds: credsNone}, 404},
		{"trailing_slash", req{method: http.MethodGet, target: "/v1/products/"}, 200},
		{"trailing_slash_post", req{method: http.MethodPost, target: "/v1/vouchers/", body: `{"code":"SLASH-1","type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, 200},
		{"trailing_slash_get_item", req{method: http.MethodGet, target: "/v1/vouchers/SLASH-1/"}, 200},
		{"escaped_slash_kept", req{method: http.MethodGet, target: "/v1/vouchers/SLASH-1%2F"}, 404},
		{"unknown_resource", req{method: http.MethodPost, target: "/v1/templates", body: `{}`}, 404},
		{"method_not_allowed_options", req{method: http.MethodOptions, target: "/v1/rewards"}, 405},
	})
}

// TestUnauthorizedBody checks the 401 byte for byte: the hosted API fixes it.
func TestUnauthorizedBody(t *testing.T) {
	h := newHarness(t)
	for _, r := range []req{
		{method: http.MethodGet, target: "/v1/rewards", creds: credsNone},
		{method: http.MethodGet, target: "/v1/rewards", header: map[string]string{"X-App-Id": appID}, creds: credsNone},
		{method: http.MethodGet, target: "/v1/rewards", header: map[string]string{"X-App-Id": "nobody", "X-App-Token": appToken}, creds: credsNone},
		{method: http.MethodGet, target: "/v1/rewards", creds: credsWrongToken},
		{method: http.MethodGet, target: "/v1/rewards", creds: credsManagement},
		{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID, creds: credsApp},
		{method: http.MethodPost, target: "/management/v1/projects", creds: credsWrongToken},
	} {
		rec := h.do(r)
		want := `{"code":401,"key":"unauthorized","message":"Unauthorized","request_id":"` + testRequestID + `"}`
		if diff := cmp.Diff(want, strings.TrimSpace(rec.Body.String())); rec.Code != 401 || diff != "" {
			t.Errorf("%s %s = %d, body mismatch (-want +got):\n%s", r.method, r.target, rec.Code, diff)
		}
	}
}

func TestRequestID(t *testing.T) {
	h := newHarness(t)
	handler := httpadapter.New(h.engine) // the default generator
	re := regexp.MustCompile(`^v-[0-9a-f]{18}$`)
	seen := map[string]bool{}
	for i := range 1000 {
		target := "/v1/rewards"
		if i%2 == 1 {
			target = "/v1/nope" // errors carry the id in the body too
		}
		hr := httptest.NewRequest(http.MethodGet, target, nil)
		hr.Header.Set("X-App-Id", appID)
		hr.Header.Set("X-App-Token", appToken)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, hr)
		id := rec.Header().Get("X-Request-Id")
		if !re.MatchString(id) {
			t.Fatalf("X-Request-Id %q does not match %s", id, re)
		}
		if seen[id] {
			t.Fatalf("request id %s given twice", id)
		}
		seen[id] = true
		if rec.Code >= 400 {
			var e struct {
				RequestID string `json:"request_id"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.RequestID != id {
				t.Fatalf("error body %s: request_id does not match the header %s", rec.Body, id)
			}
		}
	}
}

// TestNoHTMLEscaping checks that <, > and & are sent as they are.
func TestNoHTMLEscaping(t *testing.T) {
	h := newHarness(t)
	rec := h.do(req{method: http.MethodPost, target: "/v1/products", body: teeBody})
	if !strings.Contains(rec.Body.String(), `"html":"<b>&</b>"`) {
		t.Errorf("body %s: want <b>&</b> unescaped", rec.Body)
	}
}

func TestContentTypes(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		contentType string
		want        int
	}{
		{"", http.StatusOK},
		{"application/json", http.StatusOK},
		{"application/json; charset=utf-8", http.StatusOK},
		{"Application/JSON;charset=UTF-8", http.StatusOK},
		{"text/plain", http.StatusUnsupportedMediaType},
		{"application/xml", http.StatusUnsupportedMediaType},
		{"multipart/form-data; boundary=x", http.StatusUnsupportedMediaType},
		{"application/json; charset", http.StatusUnsupportedMediaType}, // malformed parameter
	} {
		r := req{method: http.MethodPost, target: "/v1/products", body: `{"name":"x"}`, contentType: tc.contentType}
		if tc.contentType == "" {
			r.header = map[string]string{"Content-Type": ""}
		}
		if rec := h.do(r); rec.Code != tc.want {
			t.Errorf("Content-Type %q: status %d, want %d\n%s", tc.contentType, rec.Code, tc.want, rec.Body)
		}
	}
}

func TestMaxBodyBytes(t *testing.T) {
	h := newHarness(t, httpadapter.WithMaxBodyBytes(64))
	ok := `{"name":"` + strings.Repeat("x", 64-len(`{"name":""}`)) + `"}`
	if rec := h.do(req{method: http.MethodPost, target: "/v1/products", body: ok}); rec.Code != http.StatusOK {
		t.Errorf("a body of exactly the limit: status %d\n%s", rec.Code, rec.Body)
	}
	rec := h.do(req{method: http.MethodPost, target: "/v1/products", body: ok + " "})
	checkGolden(t, "router/body_over_custom_limit", req{method: http.MethodPost, target: "/v1/products", body: ok + " "}, rec, nil)
}

func TestHead(t *testing.T) {
	h := newHarness(t)
	if rec := h.do(req{method: http.MethodHead, target: "/v1/rewards"}); rec.Code != http.StatusOK {
		t.Errorf("HEAD /v1/rewards = %d, want 200", rec.Code)
	}
}

// TestConcurrentRequests runs writes and reads at once (meaningful under -race).
func TestConcurrentRequests(t *testing.T) {
	h := newHarness(t)
	h.seedCatalog()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			hh := h.with(t)
			for j := range 20 {
				hh.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"name":"p"}`}, http.StatusOK)
				hh.mustDo(req{method: http.MethodGet, target: "/v1/products/tee"}, http.StatusOK)
				if (i+j)%5 == 0 {
					hh.mustDo(req{method: http.MethodGet, target: "/v1/products?limit=5"}, http.StatusOK)
				}
			}
		})
	}
	wg.Wait()
	list := h.mustDo(req{method: http.MethodGet, target: "/v1/products?limit=1"}, http.StatusOK)
	if got, want := list["total"], float64(8*20+2); got != want {
		t.Errorf("total = %v, want %v", got, want)
	}
}
