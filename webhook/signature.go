package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// SignatureHeader is the header that carries a delivery's signature.
const SignatureHeader = "X-Voucherify-Signature"

// Sign returns the lowercase hex HMAC-SHA256 of body with secret. The body
// is signed byte for byte as sent; bodies are compact JSON, so the
// documented verifiers (whitespace-stripped body, Node's JSON.stringify)
// recompute the same bytes.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks a signature in constant time.
func Verify(secret string, body []byte, signature string) bool {
	want, err := hex.DecodeString(signature)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hmac.Equal(m.Sum(nil), want)
}
