package httpadapter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/promoengine/promo/promotype"
)

// writeError answers with err as the hosted API's Error object and its Code as the
// status. An error that is not a *promotype.Error is logged and answered with
// a bare 500 internal_error: its text may hold internals and is never sent.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && errors.Is(r.Context().Err(), context.Canceled) {
		s.clientClosed(w, r, err)
		return
	}
	var pe *promotype.Error
	known := errors.As(err, &pe)
	if !known && (r.Context().Err() == nil || pastDeadline(r)) && promotype.Transient(err) {
		// The store is stalled, gone, restarting, or met a conflict past
		// the retry budget: the client may retry later. Logged (below) as
		// the 503 it is; the cause is not sent.
		err = fmt.Errorf("%w (%w)", errServiceUnavailable(), err)
		known = true
	}
	e := *promotype.AsError(err) // a copy: the request id must not leak into a shared value
	if e.Code < 400 || e.Code > 599 {
		e.Code = http.StatusInternalServerError
	}
	if e.Code == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		setRetryAfter(w, unavailableRetryAfter) // every 503 says when to come back
	}
	if !known || e.Code >= 500 {
		s.logger.LogAttrs(r.Context(), slog.LevelError, "httpadapter: request failed",
			slog.String("request_id", requestIDOf(w)),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", e.Code),
			slog.Any("error", err))
	}
	e.RequestID = requestIDOf(w)
	s.writeJSON(w, r, e.Code, &e)
}

// errRequestDeadline is the cause of a request context that ended because
// the request's deadline (WithRequestTimeout) passed.
var errRequestDeadline = errors.New("httpadapter: the request's deadline passed")

// pastDeadline reports whether r's context ended because its deadline
// passed (not because the client left): its work is answered 503, the
// client may retry.
func pastDeadline(r *http.Request) bool {
	return errors.Is(context.Cause(r.Context()), errRequestDeadline)
}

// statusClientClosedRequest is the status (nginx's 499) recorded when the
// client closed the connection before its answer was ready: no server
// error, and nobody reads the answer.
const statusClientClosedRequest = 499

// clientClosed handles an error caused by the client going away: it is
// logged at debug level as what it is, not as a failed request, and
// answered with 499 (for the access log and the metrics; the client is
// gone).
func (s *server) clientClosed(w http.ResponseWriter, r *http.Request, err error) {
	s.logger.LogAttrs(r.Context(), slog.LevelDebug, "httpadapter: client closed request",
		slog.String("request_id", requestIDOf(w)),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", statusClientClosedRequest),
		slog.Any("error", err))
	e := promotype.Newf(statusClientClosedRequest, "client_closed_request", "Client closed request",
		"The client closed the connection before the answer was ready")
	e.RequestID = requestIDOf(w)
	s.writeJSON(w, r, e.Code, e)
}

// unavailableRetryAfter is the Retry-After of a 503.
const unavailableRetryAfter = 2 * time.Second

// errServiceUnavailable is the 503 of a store that did not answer in time
// or could not be reached.
func errServiceUnavailable() *promotype.Error {
	return promotype.Newf(promotype.StatusServiceUnavailable, "service_unavailable", "Service unavailable",
		"The database did not answer in time or cannot be reached; retry later")
}

// errNotFoundRoute is the 404 of a path no route serves.
func errNotFoundRoute(r *http.Request) error {
	return promotype.Newf(http.StatusNotFound, "not_found", "Resource not found", "Cannot find endpoint %s %s", r.Method, r.URL.Path)
}

// errMethodNotAllowed is the 405 of a known path called with another method;
// allowed are the methods the path serves.
func errMethodNotAllowed(method string, allowed []string) error {
	return promotype.Newf(http.StatusMethodNotAllowed, "method_not_allowed", "Method not allowed",
		"%s is not supported by this endpoint. Did you mean %s?", method, orList(allowed))
}

// errUnsupportedMediaType is the 415 of a body that is not JSON.
func errUnsupportedMediaType(contentType string) error {
	return promotype.Newf(http.StatusUnsupportedMediaType, "unsupported_media_type", "Unsupported media type",
		"Content-Type %s is not supported; send application/json", contentType)
}

// orList joins words as "A", "A or B", "A, B or C".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return fmt.Sprintf("%s or %s", strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
}
