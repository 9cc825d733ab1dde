package promotion

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/promoengine/promo/order"
)

// AppendJSON appends v's JSON to dst: what encoding/json writes for v
// (without HTML escaping), built without re-reading each priced order's
// bytes. A validation answering 40 tiers of a 50-line cart carries 2,000
// order lines; each tier's order is copied from the lines encoded once
// (order.View), and only the rest of each tier goes through encoding/json.
// The HTTP adapter writes validations with it.
func (v *Validation) AppendJSON(dst []byte) ([]byte, error) {
	size := 128
	for _, tv := range v.Promotions {
		if tv != nil {
			size += tv.Order.SizeHint() + 1024 // the tier's own fields
		}
	}
	dst = slices.Grow(dst, size)
	dst, err := v.encode(dst, nil)
	if err != nil {
		return dst, err
	}
	return append(dst, '}'), nil
}

// encode appends v's JSON but its closing brace to dst; after each tier it
// hands the bytes so far to tierDone (when set), which returns what encode
// goes on appending to.
func (v *Validation) encode(dst []byte, tierDone func(dst []byte) ([]byte, error)) ([]byte, error) {
	dst = append(dst, `{"valid":`...)
	dst = strconv.AppendBool(dst, v.Valid)
	dst = append(dst, `,"tracking_id":`...)
	dst = strconv.AppendQuote(dst, v.TrackingID) // "track_" + base64url: no escapes differ
	dst = append(dst, `,"promotions":`...)
	if v.Promotions == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	var sh shellEncoder
	for i, tv := range v.Promotions {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = tv.appendJSON(dst, &sh); err != nil {
			return dst, err
		}
		if tierDone != nil {
			if dst, err = tierDone(dst); err != nil {
				return dst, err
			}
		}
	}
	return append(dst, ']'), nil
}

// WriteJSON writes what AppendJSON appends, and a newline, to w in pieces: it fills a
// buffer of about chunk bytes (at least one tier) and writes it whenever it
// is full, so that a validation of many big tiers (500 lines × 1,000 tiers
// make hundreds of megabytes) never sits whole in memory. An answer
// smaller than chunk is written with one call.
func (v *Validation) WriteJSON(w io.Writer, chunk int) error {
	bp := chunkBuffers.Get().(*[]byte)
	dst := (*bp)[:0]
	defer func() {
		if cap(dst) <= maxPooledChunk {
			*bp = dst[:0]
			chunkBuffers.Put(bp)
		}
	}()
	flush := func(dst []byte, force bool) ([]byte, error) {
		if len(dst) == 0 || (!force && len(dst) < chunk) {
			return dst, nil
		}
		_, err := w.Write(dst)
		return dst[:0], err
	}
	var err error
	if dst, err = v.encode(dst, func(dst []byte) ([]byte, error) { return flush(dst, false) }); err != nil {
		return err
	}
	dst = append(dst, '}', '\n')
	dst, err = flush(dst, true)
	return err
}

// chunkBuffers recycles the buffers WriteJSON fills, so that a validation
// answer costs no buffer of its own; one that grew past maxPooledChunk (a
// tier bigger than a chunk) is left to the collector.
var chunkBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

const maxPooledChunk = 1 << 20

// orderKey is where a tier's order goes in its JSON encoded without it: no
// key before "order" is "order" and strings escape their quotes, so the
// first occurrence is the key.
var orderKey = []byte(`,"order":null`)

// shellEncoder encodes the tiers of one validation without their orders,
// reusing one buffer.
type shellEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func (e *shellEncoder) encode(tv *TierValidation) ([]byte, error) {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	shell := *tv
	shell.Order = order.View{}
	if err := e.enc.Encode(&shell); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// appendJSON appends tv's JSON to dst, splicing in its order.
func (tv *TierValidation) appendJSON(dst []byte, sh *shellEncoder) ([]byte, error) {
	if tv == nil {
		return append(dst, "null"...), nil
	}
	whole, err := sh.encode(tv)
	if err != nil {
		return dst, err
	}
	at := bytes.Index(whole, orderKey)
	if at < 0 {
		return dst, errors.New("promotion: tier validation JSON without its order")
	}
	dst = append(dst, whole[:at+len(orderKey)-len("null")]...)
	dst, err = tv.Order.AppendJSON(dst)
	if err != nil {
		return dst, err
	}
	return append(dst, whole[at+len(orderKey):]...), nil
}
