package promotype

import (
	"bytes"
	"encoding/json"
	"sync"
)

// Encoder is a recycled buffer with a JSON encoder bound to it that leaves
// "<>&" unescaped, as everywhere in the adapter's answers: the HTTP
// adapter encodes its answers with it, List.MarshalJSON its lists and
// NewEvent the events' data. Take one with GetEncoder and give it back
// with Put.
type Encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &Encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// MaxPooledBuffer is the largest buffer put back into a pool; bigger ones
// (a rare huge list or body) are left to the garbage collector.
const MaxPooledBuffer = 64 << 10

// GetEncoder returns a recycled Encoder with an empty buffer.
func GetEncoder() *Encoder {
	e := encoders.Get().(*Encoder)
	e.buf.Reset()
	return e
}

// Encode appends v's JSON and a newline to the buffer and returns the
// whole buffer, which stays valid until the next use of e or Put.
func (e *Encoder) Encode(v any) ([]byte, error) {
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// Put recycles e, unless its buffer outgrew MaxPooledBuffer; nothing
// Encode returned may be used afterwards.
func (e *Encoder) Put() {
	if e.buf.Cap() <= MaxPooledBuffer {
		encoders.Put(e)
	}
}
