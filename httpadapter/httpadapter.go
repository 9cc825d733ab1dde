package httpadapter

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"go.opentelemetry.io/otel/trace"

	"github.com/promoengine/promo"
)

// server is the handler New returns: the engine, its settings and the mux
// built from the route table.
type server struct {
	engine    *promo.Engine
	logger    *slog.Logger
	maxBody   int64
	requestID func() string
	// uniformLists answers every list in the hosted API's data_ref:"data" shape
	// instead of the hosted service's shape of its endpoint.
	uniformLists bool
	authLimit    *failLimiter // nil: no limit
	decodeGate   decodeGate   // admits the decoding of large bodies
	// requestTimeout bounds a request's work (<= 0: no bound).
	requestTimeout time.Duration
	mux            *http.ServeMux
	gzip           http.Handler // serve behind gzip compression

	metrics   *httpMetrics         // nil: no metrics (WithMetrics)
	tracer    trace.TracerProvider // nil: no tracing (WithTracerProvider)
	accessLog *slog.Logger         // nil: no access log (WithAccessLog)

	publicBaseURL string // "": the request's own (WithPublicBaseURL)
}

// New returns an http.Handler serving engine's REST API. Mount it at the root
// of a mux (its routes start with /v1/, /client/v1/ and /management/v1/).
func New(engine *promo.Engine, opts ...Option) http.Handler {
	s := &server{
		engine:    engine,
		logger:    engine.Logger(),
		maxBody:   DefaultMaxBodyBytes,
		requestID: newRequestID,
		authLimit: newFailLimiter(AuthFailureLimit{}, time.Now),

		requestTimeout: DefaultRequestTimeout,
	}
	for _, o := range opts {
		o(s)
	}
	if s.decodeGate == nil {
		s.decodeGate = newDecodeGate(max(2, runtime.GOMAXPROCS(0)))
	}
	s.mux = s.buildMux(s.routes())
	// Answers are compressed when the client accepts gzip (and they are big
	// enough to gain from it): a validation of many tiers shrinks tenfold.
	// The fastest level: JSON answers of a few kilobytes compress nearly as
	// well, and the default level was about a quarter of the CPU of a
	// small validation over HTTP (BENCHMARKS.md, issue 14).
	s.gzip = s.traced(gzipWrapper(http.HandlerFunc(s.serve)))
	return s
}

// ServeHTTP serves r, its answer gzip-compressed when r accepts it (and
// traced, with WithTracerProvider).
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.gzip.ServeHTTP(w, r) }

// serve gives the request its id (a valid incoming X-Request-Id is kept),
// recovers panics, routes it and records it (metrics, access log, span
// name) when any of them is on.
func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	rw := &responseWriter{ResponseWriter: w, gate: s.decodeGate}
	if in := r.Header[headerRequestID]; len(in) == 1 && validRequestID(in[0]) {
		rw.requestID[0] = in[0]
	} else {
		rw.requestID[0] = s.requestID()
	}
	rw.Header()[headerRequestID] = rw.requestID[:] // Set would allocate the slice
	if s.observed() {
		start := time.Now()
		defer func() { s.observe(rw, r, start) }() // after recoverPanic answered
	}
	defer s.recoverPanic(rw, r)
	if s.requestTimeout > 0 && r.Method != http.MethodGet && r.Method != http.MethodHead {
		// Writes only: a read commits nothing, and a long streamed answer
		// (an export's file) is bounded by the server's write timeout.
		ctx, cancel := context.WithTimeoutCause(r.Context(), s.requestTimeout, errRequestDeadline)
		defer cancel()
		r = r.WithContext(ctx)
	}
	if _, ok := trimTrailingSlash(r.URL.EscapedPath()); ok { // not an escaped %2F
		p, _ := trimTrailingSlash(r.URL.Path)
		// A path with one trailing slash is the same as without, as the
		// hosted service answers it (the SDKs send POST /v1/vouchers/).
		u := *r.URL
		u.Path = p
		if u.RawPath != "" {
			u.RawPath, _ = trimTrailingSlash(u.RawPath)
		}
		r2 := *r
		r2.URL = &u
		r = &r2
	}
	if p, ok := promotionPath(r.URL.Path); ok {
		u := *r.URL
		u.Path = p
		if u.RawPath != "" {
			u.RawPath, _ = promotionPath(u.RawPath)
		}
		r2 := *r
		r2.URL = &u
		r = &r2
	}
	s.mux.ServeHTTP(rw, r)
}

// trimTrailingSlash removes one trailing slash from a path that has exactly
// one ("/v1/vouchers/"); "/" and paths ending in "//" are left unchanged.
func trimTrailingSlash(path string) (string, bool) {
	if len(path) < 2 || path[len(path)-1] != '/' || path[len(path)-2] == '/' {
		return path, false
	}
	return path[:len(path)-1], true
}

// gzipWrapper compresses answers at gzip.BestSpeed.
var gzipWrapper = func() func(http.Handler) http.HandlerFunc {
	wrap, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(gzip.BestSpeed))
	if err != nil {
		panic(err) // a constant, valid configuration
	}
	return wrap
}()
