package bunstore

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promo/promotype"
)

// Values kept in jsonb columns are encoded and decoded with encoding/json
// here, explicitly, so a row struct holds only bytes: numbers come back as
// float64, as metadata does from a JSON request.

// encodeJSON encodes v for a jsonb column. jsonb cannot hold a NUL
// character: such a value is refused here with a 400 rather than by
// PostgreSQL, whose error would abort the surrounding transaction.
func encodeJSON(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("bunstore: encode jsonb: %w", err)
	}
	if hasNUL(b) {
		return nil, promotype.InvalidPayload("The payload holds a NUL character (\\u0000), which cannot be stored")
	}
	return b, nil
}

// hasNUL reports whether JSON text b holds the escape \u0000: a "u0000"
// preceded by an odd number of backslashes (an even number is an escaped
// backslash followed by plain text).
func hasNUL(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("u0000"))
		if j < 0 {
			return false
		}
		j += i
		n := 0
		for k := j - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 1 {
			return true
		}
		i = j + 1
	}
}

// encodeMetadata encodes metadata as a JSON object; nil is stored as {}.
func encodeMetadata(m promotype.Metadata) (json.RawMessage, error) {
	if m == nil {
		return json.RawMessage("{}"), nil
	}
	return encodeJSON(m)
}

// decodeMetadata decodes a jsonb object; NULL decodes to an empty map, as
// promotype.Metadata.Clone makes of nil.
func decodeMetadata(b json.RawMessage) (promotype.Metadata, error) {
	m := promotype.Metadata{}
	if err := decodeJSON(b, &m); err != nil {
		return nil, err
	}
	if m == nil { // the column held a JSON null
		m = promotype.Metadata{}
	}
	return m, nil
}

// decodeJSON decodes a jsonb value into v; SQL NULL leaves v as it is.
func decodeJSON(b json.RawMessage, v any) error {
	if b == nil {
		return nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("bunstore: decode jsonb: %w", err)
	}
	return nil
}
