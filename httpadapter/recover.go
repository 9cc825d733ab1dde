package httpadapter

import (
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/promoengine/promo/promotype"
)

// recoverPanic turns a panic of the request's handler into a logged 500, so
// that a bug in one request never takes the process down. It is deferred by
// ServeHTTP.
func (s *server) recoverPanic(w *responseWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v) // a deliberate cut (a stream that failed mid-way): net/http closes the connection
	}
	s.logger.LogAttrs(r.Context(), slog.LevelError, "httpadapter: panic in handler",
		slog.String("request_id", w.requestID[0]),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Any("panic", v),
		slog.String("stack", string(debug.Stack())))
	if w.wroteHeader {
		return // the response has started; the client sees it cut short
	}
	s.writeError(w, r, &promotype.Error{Code: http.StatusInternalServerError, Key: "internal_error", Message: "Internal server error"})
}
