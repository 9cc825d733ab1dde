package httpadapter

import (
	"context"
	"net/http"
	"time"

	"github.com/promoengine/promo/promotype"
)

// The cost bound of a JSON body besides its byte limit. Decoding a value
// costs far more than its bytes: a 1 MiB body of 340,000 empty objects in
// an order's items allocates about 160 MB, in metadata about 45 MB. A body
// may nest at most maxJSONDepth containers, hold at most maxJSONElements
// elements in one array or object, and at most maxJSONValues values in all;
// a hostile 1 MiB body then costs at most about 15 MB to decode
// (TestHostileBodyDecodeCost). The largest bodies the API knows stay far
// below: an order holds at most 500 items.
const (
	maxJSONDepth    = 128
	maxJSONElements = 10_000
	maxJSONValues   = 100_000
)

// checkJSONCost scans data (which need not be valid JSON: the decoder
// reports syntax errors afterwards) without allocating and refuses a body
// whose decoding would cost more than the bounds above allow.
func checkJSONCost(data []byte) error {
	var elements [maxJSONDepth + 1]int32 // elements of each open container
	depth, values := 0, 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxJSONDepth {
				return promotype.InvalidPayload("Payload must NOT nest more than %d arrays and objects", maxJSONDepth)
			}
			elements[depth] = 1
			values++
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case ',':
			values++
			if depth > 0 {
				elements[depth]++
				if elements[depth] > maxJSONElements {
					return promotype.InvalidPayload("Payload must NOT have more than %d elements in one array or object", maxJSONElements)
				}
			}
		}
		if values > maxJSONValues {
			return promotype.InvalidPayload("Payload must NOT have more than %d values", maxJSONValues)
		}
	}
	return nil
}

// largeBodyBytes is the size from which a body's decoding is admitted by
// the server's decodeGate: smaller bodies cost too little to need it.
const largeBodyBytes = 64 << 10

// largeBodyWait is how long a large body waits for its turn to decode
// before it is answered 503 with Retry-After.
const largeBodyWait = 2 * time.Second

// decodeGate bounds how many large bodies decode at once, so that many
// hostile bodies arriving together cost the process a bounded amount of
// memory (decoding is CPU-bound: more at once than cores only adds
// memory). A nil gate admits everything.
type decodeGate chan struct{}

// newDecodeGate returns a gate admitting n large bodies at once.
func newDecodeGate(n int) decodeGate { return make(decodeGate, n) }

// enter waits for a turn (at most largeBodyWait, or until ctx ends) and
// returns the function that gives it back; when no turn comes, it returns
// a 503 telling the client when to come back.
func (g decodeGate) enter(ctx context.Context) (func(), error) {
	if g == nil {
		return func() {}, nil
	}
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	default:
	}
	t := time.NewTimer(largeBodyWait)
	defer t.Stop()
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, errBusyDecoding()
	}
}

// errBusyDecoding is the 503 of a large body that found no turn to decode.
func errBusyDecoding() *promotype.Error {
	return promotype.Newf(promotype.StatusServiceUnavailable, "service_unavailable", "Service unavailable",
		"Too many large request bodies are being read at once; retry later")
}

// gateOf returns the decode gate of the server answering w, nil when w is
// not the server's writer.
func gateOf(w http.ResponseWriter) decodeGate {
	if rw, ok := w.(*responseWriter); ok {
		return rw.gate
	}
	return nil
}
