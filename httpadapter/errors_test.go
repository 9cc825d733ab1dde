package httpadapter

import (
	"context"
	"errors"
	"fmt"
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
		route{http.MethodGet, "/v1/test/client-gone", appKey, withoutBody(func(c *call) (any, error) {
			if cancel, ok := c.ctx().Value(cancelKey{}).(context.CancelFunc); ok {
				cancel() // the client disconnects while the store works
			}
			<-c.ctx().Done()
			return nil, fmt.Errorf("bunstore: list products: %w", c.ctx().Err())
		})},
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

type cancelKey struct{}

// A client that disconnects is no server error: logged at debug level as a
// closed request (499), never as an ERROR with status 500.
func TestClientClosedRequest(t *testing.T) {
	s, logs := faultyServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := httptest.NewRequestWithContext(context.WithValue(ctx, cancelKey{}, cancel), http.MethodGet, "/v1/test/client-gone", nil)
	r.Header.Set("X-App-Id", "app")
	r.Header.Set("X-App-Token", "app-secret-0123456789")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	if rec.Code != statusClientClosedRequest {
		t.Errorf("status %d, want %d", rec.Code, statusClientClosedRequest)
	}
	if got := logs.String(); strings.Contains(got, "level=ERROR") || strings.Contains(got, "status=500") {
		t.Errorf("a closed request is logged as a server error:\n%s", got)
	}
	// At debug level it is visible, as what it is.
	var debug lockedBuilder
	s.logger = slog.New(slog.NewTextHandler(&debug, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	r = r.Clone(context.WithValue(ctx2, cancelKey{}, cancel2))
	s.ServeHTTP(httptest.NewRecorder(), r)
	if got := debug.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "client closed request") || !strings.Contains(got, "status=499") {
		t.Errorf("debug log:\n%s", got)
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
