package voucher

import (
	crand "crypto/rand"

	"github.com/promoengine/promo/promotype"
)

// Batch is a run of vouchers that differ only in their id and code: the
// vouchers of one generation chunk. The template is held once and the ids
// and codes are packed in two buffers, so a batch of any size costs a few
// allocations; stores keep it as compactly (the memory store) or send it in
// one statement (PostgreSQL).
type Batch struct {
	// Template holds every field but ID and Code (project, campaign,
	// created_at, ...).
	Template *Voucher

	ids, codes       []byte
	idEnds, codeEnds []uint32
}

// Len is the number of vouchers in the batch.
func (b *Batch) Len() int { return len(b.idEnds) }

// Reset empties the batch, keeping its buffers.
func (b *Batch) Reset() {
	b.ids, b.codes = b.ids[:0], b.codes[:0]
	b.idEnds, b.codeEnds = b.idEnds[:0], b.codeEnds[:0]
}

// Add appends a voucher with id and code.
func (b *Batch) Add(id, code string) {
	b.ids = append(b.ids, id...)
	b.idEnds = append(b.idEnds, uint32(len(b.ids)))
	b.codes = append(b.codes, code...)
	b.codeEnds = append(b.codeEnds, uint32(len(b.codes)))
}

// appendID and appendCode let the generator write in place.
func (b *Batch) appendID(f func([]byte) []byte) {
	b.ids = f(b.ids)
	b.idEnds = append(b.idEnds, uint32(len(b.ids)))
}

func (b *Batch) appendCode(f func([]byte) []byte) {
	b.codes = f(b.codes)
	b.codeEnds = append(b.codeEnds, uint32(len(b.codes)))
}

func span(ends []uint32, i int) (int, int) {
	lo := 0
	if i > 0 {
		lo = int(ends[i-1])
	}
	return lo, int(ends[i])
}

// ID returns the id of voucher i (a view into the batch: copy to keep it).
func (b *Batch) ID(i int) []byte {
	lo, hi := span(b.idEnds, i)
	return b.ids[lo:hi:hi]
}

// Code returns the code of voucher i (a view into the batch: copy to keep it).
func (b *Batch) Code(i int) []byte {
	lo, hi := span(b.codeEnds, i)
	return b.codes[lo:hi:hi]
}

// Packed returns the batch's buffers: the ids and codes back to back, and
// the end offset of each. They are views: copy to keep them.
func (b *Batch) Packed() (ids []byte, idEnds []uint32, codes []byte, codeEnds []uint32) {
	return b.ids, b.idEnds, b.codes, b.codeEnds
}

// Voucher returns voucher i as a full value (a copy of the template with
// its id and code).
func (b *Batch) Voucher(i int) *Voucher {
	v := b.Template.Clone()
	v.ID, v.Code = string(b.ID(i)), string(b.Code(i))
	return v
}

// Keep returns a batch of the vouchers whose index keep accepts.
func (b *Batch) Keep(keep func(i int) bool) *Batch {
	out := &Batch{Template: b.Template}
	for i := range b.Len() {
		if keep(i) {
			out.ids = append(out.ids, b.ID(i)...)
			out.idEnds = append(out.idEnds, uint32(len(out.ids)))
			out.codes = append(out.codes, b.Code(i)...)
			out.codeEnds = append(out.codeEnds, uint32(len(out.codes)))
		}
	}
	return out
}

const base62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// seqDigits are the base62 characters in byte order, so sequence numbers
// sort as they count.
const seqDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// idMaker makes the ids of generated vouchers. With the engine's default
// generator (promotype.RandomIDs) it makes them itself, in place: "v_", 6
// random characters shared by the chunk, a 4-character sequence number in
// the chunk, and 16 random characters (22 random base62 characters from
// crypto/rand in all; at least 20 make ids that cannot be guessed). The ids of a
// chunk thus sort together, and a chunk lands in one region of an ordered
// primary key index instead of all over it. Any other generator
// (promotype.SequentialIDs in tests) is called once per id.
type idMaker struct {
	ids    promotype.IDGenerator
	own    bool
	prefix [6]byte
	seq    int
	pool   []byte // random base62 characters not used yet
}

func newIDMaker(ids promotype.IDGenerator) *idMaker {
	m := &idMaker{ids: ids}
	switch ids.(type) {
	case promotype.RandomIDs, *promotype.RandomIDs:
		m.own = true
	}
	return m
}

// maxSeq is the number of ids a chunk can number (62^4).
const maxSeq = 62 * 62 * 62 * 62

// startChunk begins a chunk of at most n ids.
func (m *idMaker) startChunk(n int) {
	if !m.own {
		return
	}
	m.fill(6 + 16*n)
	copy(m.prefix[:], m.take(6))
	m.seq = 0
}

// fill makes sure the pool holds at least n random base62 characters.
func (m *idMaker) fill(n int) {
	var buf [4096]byte
	for len(m.pool) < n {
		_, _ = crand.Read(buf[:])
		for _, c := range buf {
			if c < 248 { // 248 = 4 × 62: no modulo bias
				m.pool = append(m.pool, base62[c%62])
			}
		}
	}
}

func (m *idMaker) take(n int) []byte {
	if len(m.pool) < n {
		m.fill(n)
	}
	out := m.pool[len(m.pool)-n:]
	m.pool = m.pool[:len(m.pool)-n]
	return out
}

// appendID appends the next id of the chunk to dst.
func (m *idMaker) appendID(dst []byte) []byte {
	if !m.own {
		return append(dst, m.ids.NewID(promotype.PrefixVoucher)...)
	}
	if m.seq == maxSeq { // a new shared prefix every 62^4 ids
		m.startChunk(0)
	}
	dst = append(dst, promotype.PrefixVoucher...)
	dst = append(dst, m.prefix[:]...)
	s := m.seq
	m.seq++
	var seq [4]byte
	for i := 3; i >= 0; i-- {
		seq[i] = seqDigits[s%62]
		s /= 62
	}
	dst = append(dst, seq[:]...)
	return append(dst, m.take(16)...)
}
