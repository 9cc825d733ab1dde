package httpadapter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Fixed inputs of every harness.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	appID           = "app_test_0001"
	appToken        = "app-token-0123456789abcdef"
	mgmtID          = "mgmt_test_0001"
	mgmtToken       = "mgmt-token-0123456789abcdef"
	testRequestID   = "v-0123456789abcdef01"
	contentTypeJSON = "application/json; charset=utf-8"
)

// harness is the adapter over a fresh memory store with a frozen clock and
// sequential ids, one project, an app key pair and a management key pair
// granted that project.
type harness struct {
	t       testing.TB
	engine  *promo.Engine
	store   storage.Store
	clock   *promotype.ManualClock
	project *project.Project
	handler http.Handler
	logs    *syncBuffer
}

func newHarness(t testing.TB, opts ...httpadapter.Option) *harness {
	t.Helper()
	return newHarnessWith(t, nil, opts...)
}

// newHarnessWith is newHarness with more engine options.
func newHarnessWith(t testing.TB, more []promo.Option, opts ...httpadapter.Option) *harness {
	t.Helper()
	ctx := context.Background()
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	clock := promotype.NewManualClock(epoch)
	store := harnessStore(t)
	engOpts := append([]promo.Option{promo.WithClock(clock), promo.WithIDGenerator(&promotype.SequentialIDs{}),
		promo.WithOutboxIDGenerator(&promotype.SequentialIDs{}), promo.WithLogger(logger)}, more...)
	eng, err := promo.New(store, engOpts...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "Test shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{ID: appID, Secret: appToken}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Auth().CreateManagementKey(ctx, auth.KeyParams{ID: mgmtID, Secret: mgmtToken}, p.ID); err != nil {
		t.Fatal(err)
	}
	opts = append([]httpadapter.Option{
		httpadapter.WithRequestIDFunc(func() string { return testRequestID }),
		httpadapter.WithLogger(logger),
	}, opts...)
	return &harness{t: t, engine: eng, store: store, clock: clock, project: p, handler: httpadapter.New(eng, opts...), logs: logs}
}

// harnessStore is a fresh memory store, or, when PROMO_TEST_HTTP_STORE is
// "postgres" and PROMO_TEST_POSTGRES_DSN is set, a fresh PostgreSQL schema
// ("citus" and PROMO_TEST_CITUS_DSN: a schema on a Citus cluster):
// .ci/run runs the adapter's tests (goldens and the OpenAPI contract
// included) on both stores that way.
func harnessStore(t testing.TB) storage.Store {
	switch os.Getenv("PROMO_TEST_HTTP_STORE") {
	case "postgres":
		if bunstoretest.DSN() == "" {
			t.Fatal("PROMO_TEST_HTTP_STORE=postgres needs " + bunstoretest.EnvDSN)
		}
		return bunstoretest.New(t)
	case "citus": // the same on a Citus cluster
		if bunstoretest.CitusDSN() == "" {
			t.Fatal("PROMO_TEST_HTTP_STORE=citus needs " + bunstoretest.EnvCitusDSN)
		}
		return bunstoretest.NewCitus(t)
	}
	return memory.New()
}

// with returns a copy of h reporting to t (for fuzz and subtest functions).
func (h *harness) with(t testing.TB) *harness {
	c := *h
	c.t = t
	return &c
}

// creds says which credentials a request carries.
type creds int

const (
	credsDefault    creds = iota // the app pair on /v1, the management pair on /management/v1
	credsNone                    // no credential headers
	credsApp                     // the app pair
	credsManagement              // the management pair
	credsWrongToken              // the right ids with wrong tokens
)

// req is one request of a test.
type req struct {
	method, target string
	body           string
	contentType    string // default application/json when body is set
	creds          creds
	header         map[string]string // extra headers
	rawQuery       string            // set as is (fuzzing: not checked by httptest.NewRequest)
}

// do sends r and checks what every response must satisfy: a request id in
// the header (and in error bodies), the JSON content type on bodies, and no
// body on 204.
func (h *harness) do(r req) *httptest.ResponseRecorder {
	h.t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	hr := httptest.NewRequest(r.method, r.target, body)
	if r.rawQuery != "" {
		hr.URL.RawQuery = r.rawQuery
	}
	if r.body != "" {
		ct := r.contentType
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	} else if r.contentType != "" {
		hr.Header.Set("Content-Type", r.contentType)
	}
	c := r.creds
	if c == credsDefault {
		c = credsApp
		if strings.HasPrefix(r.target, "/management/") {
			c = credsManagement
		}
	}
	switch c {
	case credsApp:
		hr.Header.Set("X-App-Id", appID)
		hr.Header.Set("X-App-Token", appToken)
	case credsManagement:
		hr.Header.Set("X-Management-Id", mgmtID)
		hr.Header.Set("X-Management-Token", mgmtToken)
	case credsWrongToken:
		hr.Header.Set("X-App-Id", appID)
		hr.Header.Set("X-App-Token", "wrong-token-0123456789")
		hr.Header.Set("X-Management-Id", mgmtID)
		hr.Header.Set("X-Management-Token", "wrong-token-0123456789")
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.handler.ServeHTTP(rec, hr)
	h.checkInvariants(r, rec)
	return rec
}

func (h *harness) checkInvariants(r req, rec *httptest.ResponseRecorder) {
	h.t.Helper()
	rid := rec.Header().Get("X-Request-Id")
	if rid == "" {
		h.t.Errorf("%s %s: no X-Request-Id header", r.method, r.target)
	}
	if rec.Code == http.StatusNoContent || (rec.Code == http.StatusNotFound && r.target == "/v1/oauth/token/revoke") {
		// No body: 204, and the hosted service's empty 404 of token revoke.
		if rec.Body.Len() != 0 {
			h.t.Errorf("%s %s: 204 with a body %q", r.method, r.target, rec.Body)
		}
		return
	}
	if got := rec.Header().Get("Content-Type"); got != contentTypeJSON {
		h.t.Errorf("%s %s: Content-Type %q, want %q", r.method, r.target, got, contentTypeJSON)
	}
	if rec.Code >= 400 {
		var e promotype.Error
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			h.t.Fatalf("%s %s: error body %q: %v", r.method, r.target, rec.Body, err)
		}
		if e.Code != rec.Code || e.RequestID != rid || e.Message == "" {
			h.t.Errorf("%s %s: error body %s does not match status %d and request id %s", r.method, r.target, rec.Body, rec.Code, rid)
		}
	}
}

// golden sends r and compares the exchange with testdata/<name>.json.
func (h *harness) golden(name string, r req) *httptest.ResponseRecorder {
	h.t.Helper()
	rec := h.do(r)
	checkGolden(h.t, name, r, rec, nil)
	return rec
}

// exchange is what a golden file holds: the request and the response.
type exchange struct {
	Request     string            `json:"request"`
	RequestBody any               `json:"request_body,omitempty"`
	Status      int               `json:"status"`
	Headers     map[string]string `json:"headers"`
	Body        any               `json:"body"`
}

// goldenHeaders are the response headers a golden file records.
var goldenHeaders = []string{"Allow", "Content-Type", "X-Request-Id"}

// checkGolden compares r and rec, as indented JSON, with
// testdata/<name>.json (rewritten with -update). mask, if set, edits the
// decoded response body first (to hide random values).
func checkGolden(t testing.TB, name string, r req, rec *httptest.ResponseRecorder, mask func(body any)) {
	t.Helper()
	x := exchange{Request: r.method + " " + r.target, Status: rec.Code, Headers: map[string]string{}}
	switch {
	case r.body == "":
	case len(r.body) > 1024:
		x.RequestBody = fmt.Sprintf("<%d bytes>", len(r.body))
	default:
		var v any
		if json.Unmarshal([]byte(r.body), &v) == nil {
			x.RequestBody = v
		} else {
			x.RequestBody = r.body
		}
	}
	for _, k := range goldenHeaders {
		if v := rec.Header().Get(k); v != "" {
			x.Headers[k] = v
		}
	}
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &x.Body); err != nil {
			t.Fatalf("%s: response body is not JSON: %v\n%s", name, err, rec.Body)
		}
	}
	if mask != nil {
		mask(x.Body)
	}
	got, err := marshalIndent(x)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", filepath.FromSlash(name)+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test -update to create it)", name, err)
	}
	want, err := indentJSON(raw)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got, err = indentJSON(got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s: %s mismatch (-want +got):\n%s", name, r.method+" "+r.target, diff)
	}
}

// indentJSON re-encodes a JSON document canonically (indented, object keys
// sorted), so that golden files compare as JSON, not as text.
func indentJSON(raw []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return marshalIndent(v)
}

// marshalIndent encodes v indented, without escaping <, > and &.
func marshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	return b.Bytes(), err
}

// step is one request of a scenario and the golden file of its exchange.
type step struct {
	name string
	req  req
	want int // expected status
}

// run sends the steps in order, advancing the clock by a second before each,
// and checks each status and golden file.
func (h *harness) run(t *testing.T, group string, steps []step) {
	t.Helper()
	for _, s := range steps {
		h.clock.Advance(time.Second)
		rec := h.golden(group+"/"+s.name, s.req)
		if rec.Code != s.want {
			t.Errorf("%s/%s: %s %s = %d, want %d\n%s", group, s.name, s.req.method, s.req.target, rec.Code, s.want, rec.Body)
		}
	}
}

// mustDo sends r and fails the test unless the status is want; it returns
// the decoded body.
func (h *harness) mustDo(r req, want int) map[string]any {
	h.t.Helper()
	rec := h.do(r)
	if rec.Code != want {
		h.t.Fatalf("%s %s = %d, want %d\n%s", r.method, r.target, rec.Code, want, rec.Body)
	}
	var out map[string]any
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			h.t.Fatal(err)
		}
	}
	return out
}

// syncBuffer is a bytes.Buffer safe for concurrent writers (the logger).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// listItems returns the array of a decoded list body: the member its
// data_ref names.
func listItems(list map[string]any) []any {
	items, _ := list[list["data_ref"].(string)].([]any)
	return items
}
