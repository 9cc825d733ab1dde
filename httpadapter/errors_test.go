package httpadapter

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage/memory"
)

// lockedBuilder collects log output from concurrent writers.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// faultyServer is the adapter with extra routes that fail in the ways the
// real endpoints must never show: a foreign error and panics.
func faultyServer(t *testing.T) (*server, *lockedBuilder) {
	t.Helper()
	ctx := context.Background()
	eng, err := promo.New(memory.New())
	if err != nil {
		t.Fatal(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{ID: "app", Secret: "app-secret-0123456789"}); err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuilder{}
	s := New(eng, WithLogger(slog.New(slog.NewTextHandler(logs, nil))), WithRequestIDFunc(func() string { return "v-000000000000000042" })).(*server)
	s.mux = s.buildMux(append(s.routes(),
		route{http.MethodGet, "/v1/test/foreign-error", appKey, withoutBody(func(*call) (any, error) {
			return nil, errors.New("dial tcp 10.0.0.7:5432: password authentication failed")
		})},
		route{http.MethodGet, "/v1/test/panic", appKey, withoutBody(func(*call) (any, error) {
			panic("boom")
		})},
		route{http.MethodGet, "/v1/test/panic-after-write", appKey, func(c *call) (int, any, error) {
			c.w.WriteHeader(http.StatusOK)
			_, _ = c.w.Write([]byte(`{"partial":`))
			panic("late boom")
		}},
		route{http.MethodGet, "/v1/test/unencodable", appKey, withoutBody(func(*call) (any, error) {
			return map[string]any{"f": func() {}}, nil
		})},
	))
	return s, logs
}

func serve(s *server, path string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("X-App-Id", "app")
	r.Header.Set("X-App-Token", "app-secret-0123456789")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	return rec
}

const internalErrorBody = `{"code":500,"key":"internal_error","message":"Internal server error","request_id":"v-000000000000000042"}`

func TestForeignErrorIsHidden(t *testing.T) {
	s, logs := faultyServer(t)
	rec := serve(s, "/v1/test/foreign-error")
	if diff := cmp.Diff(internalErrorBody, strings.TrimSpace(rec.Body.String())); rec.Code != 500 || diff != "" {
		t.Errorf("status %d, body mismatch (-want +got):\n%s", rec.Code, diff)
	}
	if !strings.Contains(logs.String(), "password authentication failed") || !strings.Contains(logs.String(), "v-000000000000000042") {
		t.Errorf("the cause and request id are not logged:\n%s", logs)
	}
}

func TestPanicIsRecovered(t *testing.T) {
	s, logs := faultyServer(t)
	rec := serve(s, "/v1/test/panic")
	if diff := cmp.Diff(internalErrorBody, strings.TrimSpace(rec.Body.String())); rec.Code != 500 || diff != "" {
		t.Errorf("status %d, body mismatch (-want +got):\n%s", rec.Code, diff)
	}
	if !strings.Contains(logs.String(), "boom") || !strings.Contains(logs.String(), "goroutine") {
		t.Errorf("the panic and its stack are not logged:\n%s", logs)
	}

	// A panic after the response started cannot change the status: the
	// response is cut short, and nothing is written twice.
	rec = serve(s, "/v1/test/panic-after-write")
	if rec.Code != http.StatusOK || rec.Body.String() != `{"partial":` {
		t.Errorf("panic after write: status %d, body %q", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "late boom") {
		t.Errorf("the late panic is not logged:\n%s", logs)
	}

	// The server goes on serving.
	if rec := serve(s, "/v1/products"); rec.Code != http.StatusOK {
		t.Errorf("after panics: GET /v1/products = %d", rec.Code)
	}
}

func TestEncodingFailure(t *testing.T) {
	s, logs := faultyServer(t)
	rec := serve(s, "/v1/test/unencodable")
	if diff := cmp.Diff(internalErrorBody, strings.TrimSpace(rec.Body.String())); rec.Code != 500 || diff != "" {
		t.Errorf("status %d, body mismatch (-want +got):\n%s", rec.Code, diff)
	}
	if !strings.Contains(logs.String(), "encoding the response") {
		t.Errorf("the failure is not logged:\n%s", logs)
	}
}

func TestOrList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"GET"}, "GET"},
		{[]string{"GET", "POST"}, "GET or POST"},
		{[]string{"GET", "PUT", "DELETE"}, "GET, PUT or DELETE"},
	} {
		if got := orList(tc.in); got != tc.want {
			t.Errorf("orList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNewRequestID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 10000 {
		id := newRequestID()
		if len(id) != 20 || !strings.HasPrefix(id, "v-") || strings.Trim(id[2:], "0123456789abcdef") != "" {
			t.Fatalf("newRequestID() = %q, want v- and 18 lowercase hex characters", id)
		}
		if seen[id] {
			t.Fatalf("newRequestID() repeated %q", id)
		}
		seen[id] = true
	}
}
