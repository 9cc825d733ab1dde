package httpadapter

import (
	"math/rand/v2"
	"net/http"
)

// headerRequestID is the response header that carries the request id.
const headerRequestID = "X-Request-Id"

const hexDigits = "0123456789abcdef"

// newRequestID returns "v-" and 18 lowercase hex characters (72 random bits),
// the form of the hosted service's request ids. It uses the runtime's fast
// per-thread generator: request ids need to be unique, not secret.
func newRequestID() string {
	var b [20]byte
	b[0], b[1] = 'v', '-'
	hi, lo := rand.Uint64(), rand.Uint64()
	for i := 2; i < 18; i++ {
		b[i] = hexDigits[hi&0xf]
		hi >>= 4
	}
	b[18], b[19] = hexDigits[lo&0xf], hexDigits[(lo>>4)&0xf]
	return string(b[:])
}

// responseWriter carries the request id to the code that writes errors and
// remembers whether the response has started (so a recovered panic does not
// write a second header).
type responseWriter struct {
	http.ResponseWriter
	requestID   [1]string // also the header's value slice
	wroteHeader bool
	status      int        // the status written, 0 before
	bytes       int64      // body bytes written (before compression)
	projectID   string     // the authenticated project, for logs and spans
	gate        decodeGate // the server's gate of large bodies
}

// WriteHeader records that the response has started, and its status.
func (w *responseWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.status = code
	}
	w.wroteHeader = true
	w.ResponseWriter.WriteHeader(code)
}

// Write records that the response has started, and its size.
func (w *responseWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.status = http.StatusOK
	}
	w.wroteHeader = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// requestIDOf returns the request id of a response.
func requestIDOf(w http.ResponseWriter) string {
	if rw, ok := w.(*responseWriter); ok {
		return rw.requestID[0]
	}
	return w.Header().Get(headerRequestID)
}
