package webhook

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v as the delivered body: compact JSON with no HTML
// escaping and U+2028 / U+2029 written as themselves, byte for byte what
// Node's JSON.stringify gives for the parsed body, so verifiers that
// re-serialise before signing (the documented Node sample) agree with Sign.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return unescapeSeparators(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// unescapeSeparators turns the escapes \u2028 and \u2029 back into the
// characters, unless the backslash is itself escaped (an even run of
// backslashes before "u2028" is literal text).
func unescapeSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+5 < len(b) && b[i+1] == 'u' && b[i+2] == '2' && b[i+3] == '0' && b[i+4] == '2' && (b[i+5] == '8' || b[i+5] == '9') {
			out = append(out, "\u2028"[:2]...) // E2 80, then the last byte
			out = append(out, 0xA8+(b[i+5]-'8'))
			i += 5
			continue
		}
		if b[i] == '\\' && i+1 < len(b) { // any other escape: copy both bytes
			out = append(out, b[i], b[i+1])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}
