package httpadapter_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/promoengine/promo/httpadapter"
)

// TestMetrics: requests are counted by route pattern (not path), method
// and status, with a latency histogram, on the registry given.
func TestMetrics(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	h := newHarness(t, httpadapter.WithMetrics(reg))
	h.do(req{method: http.MethodGet, target: "/v1/products"})
	h.do(req{method: http.MethodGet, target: "/v1/products/prod_nope"})
	h.do(req{method: http.MethodGet, target: "/v1/products/prod_other"})
	h.do(req{method: http.MethodGet, target: "/v1/nothing-here"})
	want := `
# HELP promo_http_requests_total HTTP requests answered, by route pattern, method and status.
# TYPE promo_http_requests_total counter
promo_http_requests_total{method="GET",route="/v1/products",status="200"} 1
promo_http_requests_total{method="GET",route="/v1/products/{productId}",status="404"} 2
promo_http_requests_total{method="GET",route="unmatched",status="404"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "promo_http_requests_total"); err != nil {
		t.Error(err)
	}
	if n, err := testutil.GatherAndCount(reg, "promo_http_request_duration_seconds"); err != nil || n != 3 {
		t.Errorf("promo_http_request_duration_seconds series = %d, %v; want 3", n, err)
	}
}

// TestTracing: each request is a server span named after its route
// pattern, with http.route and the project id (in-memory exporter).
func TestTracing(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	h := newHarness(t, httpadapter.WithTracerProvider(tp))
	h.do(req{method: http.MethodGet, target: "/v1/products/prod_nope"})
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	s := spans[0]
	attrs := map[string]string{}
	for _, a := range s.Attributes {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	if s.Name != "GET /v1/products/{productId}" || attrs["http.route"] != "/v1/products/{productId}" || attrs["promo.project_id"] != h.project.ID {
		t.Errorf("span %q with %v, want GET /v1/products/{productId} with http.route and promo.project_id", s.Name, attrs)
	}
}

// TestAccessLog: one line per request with method, route, status, bytes,
// request id and project; a valid incoming X-Request-Id is kept, an
// invalid one replaced.
func TestAccessLog(t *testing.T) {
	var buf syncBuf
	h := newHarness(t, httpadapter.WithAccessLog(slog.New(slog.NewJSONHandler(&buf, nil))),
		httpadapter.WithRequestIDFunc(func() string { return "v-generated" }))
	w := h.do(req{method: http.MethodGet, target: "/v1/products", header: map[string]string{"X-Request-Id": "upstream-42.a_b:c"}})
	if got := w.Header().Get("X-Request-Id"); got != "upstream-42.a_b:c" {
		t.Errorf("X-Request-Id = %q, want the caller's", got)
	}
	w = h.do(req{method: http.MethodGet, target: "/v1/products", header: map[string]string{"X-Request-Id": "bad id\x7f"}})
	if got := w.Header().Get("X-Request-Id"); got != "v-generated" {
		t.Errorf("X-Request-Id for an invalid incoming id = %q, want a generated one", got)
	}
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("%d access log lines, want 2:\n%s", len(lines), buf.Bytes())
	}
	var got map[string]any
	if err := json.Unmarshal(lines[0], &got); err != nil {
		t.Fatal(err)
	}
	delete(got, "time")
	delete(got, "duration")
	want := map[string]any{"level": "INFO", "msg": "http request", "method": "GET", "route": "/v1/products",
		"status": float64(200), "bytes": float64(w.Body.Len()), "request_id": "upstream-42.a_b:c", "project_id": h.project.ID}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access log line (-want +got):\n%s", diff)
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}
