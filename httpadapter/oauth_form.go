package httpadapter

import (
	"bytes"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"

	"github.com/promoengine/promo/promotype"
)

// contentTypeForm is the media type of the OAuth endpoints' bodies.
const contentTypeForm = "application/x-www-form-urlencoded"

// form is a decoded form body: the value of each known field that was sent.
type form map[string]string

// decodeForm reads r's application/x-www-form-urlencoded body (at most
// maxBody bytes; an absent Content-Type counts as form) and keeps the
// fields named. Every failure is a *promotype.Error: 415 for another
// Content-Type, 400 invalid_payload for a body that is too large, cannot be
// parsed, or repeats a field (RFC 6749 §3.2: parameters must not be
// included more than once). Unknown fields are ignored.
func decodeForm(w http.ResponseWriter, r *http.Request, maxBody int64, fields ...string) (form, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != contentTypeForm {
			return nil, promotype.Newf(http.StatusUnsupportedMediaType, "unsupported_media_type", "Unsupported media type",
				"Content-Type %s is not supported; send %s", ct, contentTypeForm)
		}
	}
	var body bytes.Buffer
	if r.Body != nil {
		if _, err := body.ReadFrom(http.MaxBytesReader(unwrap(w), r.Body, maxBody)); err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				return nil, promotype.InvalidPayload("Payload must NOT be larger than %d bytes", maxBody)
			}
			return nil, promotype.InvalidPayload("Cannot read the request body: %v", err)
		}
	}
	return parseForm(body.String(), fields...)
}

// parseForm parses a form-encoded body and keeps the fields named.
func parseForm(body string, fields ...string) (form, error) {
	values, err := url.ParseQuery(body)
	if err != nil {
		return nil, promotype.InvalidPayload("The form body cannot be parsed: %v", err)
	}
	f := form{}
	for k, v := range values {
		if !slices.Contains(fields, k) {
			continue
		}
		if len(v) > 1 {
			return nil, promotype.InvalidPayload("Property %s must be sent once", k)
		}
		f[k] = v[0]
	}
	return f, nil
}
