package httpadapter

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// WithMetrics registers the HTTP metrics on reg and records every request:
//
//   - promo_http_requests_total{route,method,status}: requests answered;
//   - promo_http_request_duration_seconds{route,method}: their latency.
//
// route is the route pattern ("/v1/products/{productId}"), "unmatched" for
// a path no route serves. Nothing is global: each handler records to the
// registry it was given. Registration errors (a second handler on the same
// registry) panic, as prometheus.MustRegister does.
func WithMetrics(reg prometheus.Registerer) Option {
	return func(s *server) {
		if reg == nil {
			return
		}
		m := &httpMetrics{
			requests: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "promo_http_requests_total",
				Help: "HTTP requests answered, by route pattern, method and status.",
			}, []string{"route", "method", "status"}),
			duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    "promo_http_request_duration_seconds",
				Help:    "Latency of HTTP requests, by route pattern and method.",
				Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
			}, []string{"route", "method"}),
		}
		reg.MustRegister(m.requests, m.duration)
		s.metrics = m
	}
}

// WithTracerProvider traces every request with otelhttp through tp: one
// server span per request, named after its route pattern ("POST
// /v1/promotions/validation") with the http.route attribute. Without this
// option the handler is not wrapped at all.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(s *server) { s.tracer = tp }
}

// WithAccessLog logs one line per request at Info on l: method, route
// pattern, status, duration, bytes of the body (before compression),
// request id and project id.
func WithAccessLog(l *slog.Logger) Option {
	return func(s *server) { s.accessLog = l }
}

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// observed reports whether any per-request observation is on.
func (s *server) observed() bool { return s.metrics != nil || s.accessLog != nil || s.tracer != nil }

// routeOf is the route pattern of a request the mux served: the route
// table's pattern without the method ("/v1/products/{productId}"), or
// "unmatched".
func routeOf(r *http.Request) string {
	p := r.Pattern
	if i := strings.IndexByte(p, ' '); i >= 0 {
		p = p[i+1:]
	}
	p = unmovedPattern(p)
	if p == "" || p == "/" {
		return "unmatched"
	}
	return p
}

// observe records a served request: metrics, span name, access log.
func (s *server) observe(rw *responseWriter, r *http.Request, start time.Time) {
	route := routeOf(r)
	elapsed := time.Since(start)
	status := rw.status
	if status == 0 {
		status = http.StatusOK
	}
	if s.tracer != nil {
		if span := trace.SpanFromContext(r.Context()); span.IsRecording() {
			span.SetName(r.Method + " " + route)
			span.SetAttributes(attribute.String("http.route", route))
			if rw.projectID != "" {
				span.SetAttributes(attribute.String("promo.project_id", rw.projectID))
			}
		}
	}
	if m := s.metrics; m != nil {
		m.requests.WithLabelValues(route, r.Method, strconv.Itoa(status)).Inc()
		m.duration.WithLabelValues(route, r.Method).Observe(elapsed.Seconds())
	}
	if s.accessLog != nil {
		s.accessLog.LogAttrs(r.Context(), slog.LevelInfo, "http request",
			slog.String("method", r.Method),
			slog.String("route", route),
			slog.Int("status", status),
			slog.Duration("duration", elapsed),
			slog.Int64("bytes", rw.bytes),
			slog.String("request_id", rw.requestID[0]),
			slog.String("project_id", rw.projectID))
	}
}

// traced wraps h in otelhttp when a tracer provider is set.
func (s *server) traced(h http.Handler) http.Handler {
	if s.tracer == nil {
		return h
	}
	return otelhttp.NewHandler(h, "promo", otelhttp.WithTracerProvider(s.tracer))
}

// validRequestID reports whether an incoming X-Request-Id may be kept:
// 1 to 128 characters of letters, digits, '-', '_', '.' and ':'.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}
