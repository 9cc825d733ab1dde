package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// fuzzRequest checks the adapter's promise for any input: never a 5xx, never
// a panic (a recovered panic is a 500), and a well-formed response.
func fuzzRequest(t *testing.T, h *harness, r req) {
	rec := h.with(t).do(r)
	if rec.Code >= 500 {
		t.Fatalf("%s %s %q: status %d\n%s\nlogs:\n%s", r.method, r.target, r.body, rec.Code, rec.Body, h.logs)
	}
}

// fuzzQuick is fuzzRequest for the targets that must run fast: a POST or
// PUT of body with the app key pair, built as a client would (not parsed
// from text as httptest.NewRequest does), and the answer held to what
// fuzzing promises (no 5xx, a JSON body) rather than to every invariant
// checkInvariants checks.
func fuzzQuick(t *testing.T, h *harness, method, target, body string) {
	hr, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-App-Id", appID)
	hr.Header.Set("X-App-Token", appToken)
	rec := httptest.NewRecorder()
	h.handler.ServeHTTP(rec, hr)
	if rec.Code >= 500 || rec.Code != http.StatusNoContent && !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("%s %s %q: status %d\n%s\nlogs:\n%s", method, target, body, rec.Code, rec.Body, h.logs)
	}
}

// fuzzFreshEvery is how many inputs a fuzz target's harness serves
// before freshHarness builds it again.
const fuzzFreshEvery = 200

// freshHarness is a fuzz target's harness kept small: a harness serving
// every input would keep each record the inputs created, and what scans
// them (a customer's order summary, a list's count, the promotion
// snapshot) would make each input slower than the last, so that fuzzing
// soon ran a few inputs a second. On the memory store it builds the
// harness again with build every fuzzFreshEvery inputs; the harness the
// target built before fuzzing (first) serves the inputs until then, and
// all of them on PostgreSQL (PROMO_TEST_HTTP_STORE), whose schema lives as
// long as the target.
type freshHarness struct {
	h     *harness
	build func(t *testing.T) *harness
	n     int
}

// get returns the harness for the next input, reporting to t.
func (f *freshHarness) get(t *testing.T) *harness {
	f.n++
	if f.n%fuzzFreshEvery == 0 && os.Getenv("PROMO_TEST_HTTP_STORE") == "" {
		f.h = f.build(t)
	}
	return f.h.with(t)
}

func FuzzCreateProduct(f *testing.F) {
	for _, s := range []string{teeBody, `{}`, ``, `{"id":"prod_5h1pp1ng"}`, `{"source_id":"5h1pp1ng","name":"x"}`,
		`{"price":-1}`, `{"price":1e99}`, `{"attributes":[null]}`, `{"metadata":{"a":{"b":[1,{"c":null}]}}}`,
		`{"image_url":"https://x/y.png"}`, `[`, `{"name":"\u0000\ud800"}`, "{\"name\":\"\xff\"}"} {
		f.Add(s)
	}
	h := newHarness(f)
	h.seedCatalog()
	f.Fuzz(func(t *testing.T, body string) {
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/products", body: body})
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/products/tee/skus", body: body})
		fuzzRequest(t, h, req{method: http.MethodPut, target: "/v1/products/tee", body: body})
	})
}

func FuzzCreateReward(f *testing.F) {
	for _, s := range []string{campaignRewardBody, coinRewardBody, materialRewardBody, `{}`,
		`{"name":"x","parameters":{"coin":{"exchange_ratio":"1e100000"}}}`,
		`{"name":"x","parameters":{"coin":{"exchange_ratio":-1,"points_ratio":0}}}`,
		`{"name":"x","parameters":{"product":{"id":"mug","sku_id":"nope"}}}`,
		`{"name":"x","parameters":{"campaign":{"id":"","type":""}}}`, `{"parameters":null}`} {
		f.Add(s)
	}
	h := newHarness(f)
	h.seedRewards()
	f.Fuzz(func(t *testing.T, body string) {
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/rewards", body: body})
		fuzzRequest(t, h, req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000005", body: body})
	})
}

func FuzzCreateLocation(f *testing.F) {
	for _, s := range []string{circleBody, polygonBody, `{}`,
		`{"name":"x","shape":{"type":"circle","format":"distance","distance":{"center":"geo:NaN,Inf","radius":"1e999km"}}}`,
		`{"name":"x","shape":{"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":[[[]]]}}}`,
		`{"name":"x","shape":{"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":[[[1e400,0]]]}}}`,
		`{"name":"x","shape":{"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":null}}}`} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, body string) {
		fuzzRequest(t, h, req{method: http.MethodPost, target: "/v1/locations", body: body})
	})
}

func FuzzListQuery(f *testing.F) {
	for _, s := range []string{"", "limit=0", "limit=100&page=1000", "page=99999999999999999999", "order=-updated_at",
		"end_date=2026-01-01", "end_date=2026-01-01T00:00:00.123456789%2B14:00",
		"filters[name][conditions][$in][0]=a&filters[name][conditions][$in][1]=b&filters[junction]=OR",
		"filters[created_at][conditions][$more_than]=99999999999", "filters[created_at][conditions][$less_than]=-1",
		"filters[created_at][conditions][$after]=x", "[filters][name][conditions][$is]=x", "filters=1",
		"filters[a.b][conditions][$is]", "%zz", "a;b", "filters[name][conditions][$is][999]=x",
		"filters[metadata.x][conditions][$has_value]=", "filters[source_id][conditions][$is_unknown]"} {
		f.Add(s)
	}
	h := newHarness(f)
	h.seedCatalog()
	h.seedLocations()
	f.Fuzz(func(t *testing.T, query string) {
		for _, path := range []string{"/v1/products", "/v1/products/tee/skus", "/v1/rewards", "/v1/locations"} {
			fuzzRequest(t, h, req{method: http.MethodGet, target: path, rawQuery: query})
		}
		fuzzRequest(t, h, req{method: http.MethodDelete, target: "/v1/products/nope", rawQuery: query})
	})
}
