package httpadapter

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/promoengine/promo/promotype"
)

// contentTypeJSON is the Content-Type of every JSON response.
const contentTypeJSON = "application/json; charset=utf-8"

// contentTypeJSONValue is the header value slice shared by every response
// (Header.Set would allocate one per response; nothing modifies it).
var contentTypeJSONValue = []string{contentTypeJSON}

// maxPooledBuffer is the largest buffer put back into a pool; bigger ones
// (a rare huge list or body) are left to the garbage collector.
const maxPooledBuffer = promotype.MaxPooledBuffer

// writeJSON answers with status and v encoded as JSON. The body is encoded
// in full before the header is written, so an encoding failure can still be
// answered with a 500.
func (s *server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	if st, ok := v.(jsonStreamer); ok {
		s.writeStream(w, r, status, st)
		return
	}
	if a, ok := v.(jsonAppender); ok {
		// Big bodies (a validation's priced orders) encode straight into
		// one buffer of about their size and are written from it.
		out, err := a.AppendJSON(nil)
		if err != nil {
			s.encodingFailed(w, r, err)
			return
		}
		if s.uniformLists {
			out = uniformListShape(out)
		}
		s.writeBody(w, status, append(out, '\n'))
		return
	}
	e := promotype.GetEncoder() // "<>&" stay as they are, as the hosted service sends them
	defer e.Put()
	out, err := e.Encode(v)
	if err != nil {
		s.encodingFailed(w, r, err)
		return
	}
	if s.uniformLists {
		out = uniformListShape(out)
	}
	s.writeBody(w, status, out)
}

// uniformListShape rewrites every list of a compact JSON body encoded by
// promotype.List in a hosted shape ("data_ref":"tiers","tiers":[...]) to the
// uniform shape ("data_ref":"data","data":[...]): nested lists (a PROMOTION
// campaign's promotion object) carry their hosted data_ref from the domain.
// The pattern cannot occur inside a JSON string, whose quotes are escaped.
func uniformListShape(b []byte) []byte {
	const key = `"data_ref":"`
	if !bytes.Contains(b, []byte(key)) {
		return b
	}
	var out []byte
	rest := b
	for {
		i := bytes.Index(rest, []byte(key))
		if i < 0 {
			break
		}
		start := i + len(key)
		end := bytes.IndexByte(rest[start:], '"')
		if end < 0 {
			break
		}
		ref := rest[start : start+end]
		next := rest[start+end+1:]
		arrayKey := append(append([]byte(`,"`), ref...), `":`...)
		if string(ref) == "data" || !bytes.HasPrefix(next, arrayKey) {
			out = append(out, rest[:start+end+1]...)
			rest = next
			continue
		}
		out = append(out, rest[:i]...)
		out = append(out, `"data_ref":"data","data":`...)
		rest = next[len(arrayKey):]
	}
	if out == nil {
		return b
	}
	return append(out, rest...)
}

// writeBody writes the header and body.
func (s *server) writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentTypeJSONValue
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// encodingFailed logs err and answers a bare 500.
func (s *server) encodingFailed(w http.ResponseWriter, r *http.Request, err error) {
	s.logger.LogAttrs(r.Context(), slog.LevelError, "httpadapter: encoding the response",
		slog.String("request_id", requestIDOf(w)), slog.String("path", r.URL.Path), slog.Any("error", err))
	s.writeBody(w, http.StatusInternalServerError, []byte(`{"code":500,"key":"internal_error","message":"Internal server error","request_id":`+
		strconv.Quote(requestIDOf(w))+"}\n"))
}

// jsonAppender is a response that encodes itself faster than encoding/json
// would (a promotions validation: many priced orders sharing their lines).
type jsonAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// jsonStreamer is a response that writes itself in pieces of about chunk
// bytes (a promotions validation: hundreds of megabytes for many tiers of a
// big cart), so that it never sits whole in memory.
type jsonStreamer interface {
	WriteJSON(w io.Writer, chunk int) error
}

// streamChunk is the size of the pieces a jsonStreamer writes.
const streamChunk = 64 << 10

// writeStream answers with status and st's JSON, streamed in pieces of
// about streamChunk bytes (no Content-Length). An encoding failure before
// the first piece is answered with a 500; after it, the response has
// started and the connection is cut, so that the client cannot take the
// partial body for a whole one.
func (s *server) writeStream(w http.ResponseWriter, r *http.Request, status int, st jsonStreamer) {
	sw := &startingWriter{w: w, status: status}
	if err := st.WriteJSON(sw, streamChunk); err != nil {
		if !sw.started {
			s.encodingFailed(w, r, err)
			return
		}
		if r.Context().Err() != nil {
			return // the client left
		}
		s.logger.LogAttrs(r.Context(), slog.LevelError, "httpadapter: encoding the response",
			slog.String("request_id", requestIDOf(w)), slog.String("path", r.URL.Path), slog.Any("error", err))
		panic(http.ErrAbortHandler)
	}
}

// startingWriter writes the header (Content-Type and the status) before
// the first piece of a streamed body.
type startingWriter struct {
	w       http.ResponseWriter
	status  int
	started bool
}

func (sw *startingWriter) Write(p []byte) (int, error) {
	if !sw.started {
		sw.started = true
		sw.w.Header()["Content-Type"] = contentTypeJSONValue
		sw.w.WriteHeader(sw.status)
	}
	return sw.w.Write(p)
}

// writeNoContent answers 204 with no body.
func writeNoContent(w http.ResponseWriter) {
	w.WriteHeader(http.StatusNoContent)
}
