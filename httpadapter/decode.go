package httpadapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/promoengine/promo/promotype"
)

var readBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// decodeBody reads the JSON object of r's body into v (a pointer to a
// struct). The body is limited to maxBody bytes; an absent or empty body
// counts as {}. Unknown properties are ignored, as the hosted service's SDKs
// send fields this engine does not know. Every failure is a *promotype.Error:
// 415 for a Content-Type other than JSON, 400 invalid_payload otherwise.
func decodeBody(w http.ResponseWriter, r *http.Request, maxBody int64, v any) error {
	return withRawBody(w, r, maxBody, func(data []byte) error { return unmarshalObject(data, v) })
}

// withRawBody checks the Content-Type, reads the body (at most maxBody
// bytes), checks what decoding it would cost (checkJSONCost), waits for
// the server's decode gate when it is large, and hands it to fn; data is
// only valid during fn.
func withRawBody(w http.ResponseWriter, r *http.Request, maxBody int64, fn func(data []byte) error) error {
	if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
		return err
	}
	buf := readBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			readBuffers.Put(buf)
		}
	}()
	if r.Body != nil {
		if r.ContentLength > 0 && r.ContentLength <= maxBody {
			buf.Grow(int(r.ContentLength) + 1) // one allocation, not doublings up to twice the size
		}
		if _, err := buf.ReadFrom(http.MaxBytesReader(unwrap(w), r.Body, maxBody)); err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				return promotype.InvalidPayload("Payload must NOT be larger than %d bytes", maxBody)
			}
			return promotype.InvalidPayload("Cannot read the request body: %v", err)
		}
	}
	data := buf.Bytes()
	if err := checkJSONCost(data); err != nil {
		return err
	}
	if len(data) >= largeBodyBytes {
		leave, err := gateOf(w).enter(r.Context())
		if err != nil {
			return err
		}
		defer leave()
	}
	return fn(data)
}

// checkContentType accepts no Content-Type or application/json (with any
// parameters, such as charset).
func checkContentType(ct string) error {
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return errUnsupportedMediaType(ct)
	}
	return nil
}

// unmarshalObject decodes data, which must be one JSON object (or nothing,
// meaning {}), into v, and words the failures as the hosted service does.
func unmarshalObject(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	err := json.Unmarshal(data, v)
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return promotype.InvalidPayload("Invalid JSON: %s (at byte %d)", se.Error(), se.Offset)
	}
	if data[0] != '{' {
		return promotype.InvalidPayload("Payload must be object")
	}
	if err == nil {
		return nil
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		path := pathAt(data, te)
		if path == "" {
			return promotype.InvalidPayload("Payload must be object")
		}
		return promotype.InvalidPayload("Property %s must be %s", path, jsonKind(te.Type))
	}
	if pe, ok := errors.AsType[*promotype.Error](err); ok {
		return pe
	}
	// A type's own UnmarshalJSON failed without naming the property.
	return promotype.InvalidPayload("Invalid value: %v", err)
}

// jsonKind names the JSON type a Go type is decoded from, in the words of
// JSON schema.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "valid"
	}
	switch t {
	case reflect.TypeFor[promotype.Decimal]():
		return "number"
	case reflect.TypeFor[promotype.Time]():
		return "an ISO-8601 date-time string"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "valid"
}

// pathAt returns the JSON path (".a.b[2].c") of the value a type error is
// about, or "" for the top level. encoding/json reports the path without
// array indices, but reports the byte offset of the offending value; walking
// the tokens up to that offset recovers the full path. When the two disagree
// (an error made by a type's own UnmarshalJSON carries no offset), the
// reported path is used.
func pathAt(data []byte, te *json.UnmarshalTypeError) string {
	reported := ""
	if te.Field != "" {
		reported = "." + te.Field
	}
	if p, ok := scanPath(data, te.Offset); ok && stripIndices(p) == reported {
		return p
	}
	return reported
}

// scanPath returns the path of the first value that ends at or after offset.
func scanPath(data []byte, offset int64) (string, bool) {
	type frame struct {
		array bool
		key   string // object: the key of the value being read
		index int    // array: the index of the value being read
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []frame
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
			continue
		}
		if expectKey {
			stack[len(stack)-1].key = tok.(string)
			expectKey = false
			continue
		}
		// tok starts a value: this one is at the current path.
		if n := len(stack); n > 0 && stack[n-1].array {
			stack[n-1].index++
		}
		if dec.InputOffset() >= offset {
			var b strings.Builder
			for _, f := range stack {
				if f.array {
					b.WriteString("[" + strconv.Itoa(f.index) + "]")
				} else {
					b.WriteString("." + f.key)
				}
			}
			return b.String(), true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{})
			expectKey = true
		case json.Delim('['):
			stack = append(stack, frame{array: true, index: -1})
		default:
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
		}
	}
}

// stripIndices removes the "[n]" parts of a path.
func stripIndices(p string) string {
	if !strings.Contains(p, "[") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '[' {
			for i < len(p) && p[i] != ']' {
				i++
			}
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// unwrap returns the writer net/http gave, which http.MaxBytesReader uses to
// close the connection after an oversized body.
func unwrap(w http.ResponseWriter) http.ResponseWriter {
	if rw, ok := w.(*responseWriter); ok {
		return rw.ResponseWriter
	}
	return w
}
