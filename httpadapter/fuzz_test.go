package httpadapter_test

import (
	"net/http"
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
