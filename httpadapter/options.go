package httpadapter

import (
	"log/slog"
	"strings"
	"time"
)

// DefaultMaxBodyBytes is the default limit of a request body (1 MiB).
const DefaultMaxBodyBytes = 1 << 20

// Option configures the handler returned by [New].
type Option func(*server)

// WithMaxBodyBytes limits request bodies to n bytes (default
// [DefaultMaxBodyBytes]); a larger body is answered with 400 invalid_payload.
// n <= 0 keeps the default.
func WithMaxBodyBytes(n int64) Option {
	return func(s *server) {
		if n > 0 {
			s.maxBody = n
		}
	}
}

// WithLogger sets the logger for internal errors and recovered panics
// (default: the engine's logger).
func WithLogger(l *slog.Logger) Option {
	return func(s *server) {
		if l != nil {
			s.logger = l
		}
	}
}

// WithRequestIDFunc replaces the request id generator (default: "v-"
// followed by 18 random lowercase hex characters, as the hosted service's
// ids look). Tests use it to make responses deterministic; a server may use
// it to join the ids of its tracing system. f is called once per request,
// concurrently, so it must be safe for concurrent use.
func WithRequestIDFunc(f func() string) Option {
	return func(s *server) {
		if f != nil {
			s.requestID = f
		}
	}
}

// WithPublicBaseURL names the public base URL of the API (scheme, host and
// any path prefix, as "https://promo.example.com"), on which the adapter
// makes the URLs it answers absolute (an export's result.url). Without it,
// or with "", the request's own scheme (https over TLS) and Host are used:
// behind a proxy that rewrites them, set it. A trailing slash is dropped.
func WithPublicBaseURL(u string) Option {
	return func(s *server) { s.publicBaseURL = strings.TrimRight(u, "/") }
}

// WithUniformLists answers every list, nested lists included, in the hosted API's
// uniform shape {"object":"list","data_ref":"data","data":[...],...}. By
// default each list answers in the shape the hosted service uses for its
// endpoint (GET /v1/vouchers: {"data_ref":"vouchers","vouchers":[...]}),
// which is what the official SDKs read.
func WithUniformLists() Option {
	return func(s *server) { s.uniformLists = true }
}

// WithLargeBodyDecodes lets at most n request bodies of 64 KiB or more
// decode at once (default: the number of CPUs the process may use, at
// least 2); another waits up to 2 s for its turn and is then answered 503
// with Retry-After. Decoding a body costs up to about 15 times its size in
// memory, so this bounds what many large bodies arriving together cost.
// n <= 0 keeps the default.
func WithLargeBodyDecodes(n int) Option {
	return func(s *server) {
		if n > 0 {
			s.decodeGate = newDecodeGate(n)
		}
	}
}

// DefaultRequestTimeout is the default deadline of a request's work (see
// [WithRequestTimeout]).
const DefaultRequestTimeout = 30 * time.Second

// WithRequestTimeout bounds the work of each request that may write (every
// method but GET and HEAD) to d (default [DefaultRequestTimeout]); d < 0
// turns the bound off, 0 keeps the default.
// A request whose deadline passes is answered 503 with Retry-After, and a
// write it had not committed by then is rolled back (a write whose commit
// was sent finishes and is answered). Keep d shorter than the http.Server's
// WriteTimeout, with room for the answer: otherwise the server may close
// the connection of a request that committed before its answer is sent, and
// the client cannot tell it happened.
func WithRequestTimeout(d time.Duration) Option {
	return func(s *server) {
		if d != 0 {
			s.requestTimeout = d
		}
	}
}
