package memory

import "hash/maphash"

// refIndex finds slab rows by a string key (a voucher id or code) that the
// rows themselves hold: an open-addressing hash table of row references
// (linear probing, tombstones for deletes) with each slot's hash kept
// beside it, so growing never reads a key again. It costs 12 bytes a slot
// and about 24 a key, a third of a Go map of strings, and finds or inserts
// a key with one hash and one probe sequence.
type refIndex struct {
	slots  []uint64 // 0: empty; tombstone; else the vref packed by pack
	hashes []uint32 // the upper half of each slot's key hash: its place and a quick compare
	live   int      // keys held
	used   int      // slots not empty (keys and tombstones)
	seed   maphash.Seed
	key    func(vref) string // the key a row holds
}

const tombstone = ^uint64(0)

func pack(r vref) uint64 { return uint64(uint32(r.slab))<<32 | uint64(uint32(r.row)) + 1 }

func unpack(s uint64) vref {
	s--
	return vref{slab: int32(s >> 32), row: int32(uint32(s))}
}

func newRefIndex(key func(vref) string) *refIndex {
	return &refIndex{seed: maphash.MakeSeed(), key: key, slots: make([]uint64, 16), hashes: make([]uint32, 16)}
}

func (ix *refIndex) len() int { return ix.live }

// find returns the slot holding k (found) or the slot to put it in.
func (ix *refIndex) find(k string, h uint64) (int, bool) {
	mask := uint64(len(ix.slots) - 1)
	hi := uint32(h >> 32)
	free := -1
	for i := uint64(hi) & mask; ; i = (i + 1) & mask {
		s := ix.slots[i]
		switch {
		case s == 0:
			if free < 0 {
				free = int(i)
			}
			return free, false
		case s == tombstone:
			if free < 0 {
				free = int(i)
			}
		case ix.hashes[i] == hi && ix.key(unpack(s)) == k:
			return int(i), true
		}
	}
}

// get returns the row that holds key k.
func (ix *refIndex) get(k string) (vref, bool) {
	i, ok := ix.find(k, maphash.String(ix.seed, k))
	if !ok {
		return vref{}, false
	}
	return unpack(ix.slots[i]), true
}

// add puts row r under its key unless a row holds the key already; it
// reports whether it did.
func (ix *refIndex) add(r vref) bool {
	k := ix.key(r)
	h := maphash.String(ix.seed, k)
	i, ok := ix.find(k, h)
	if ok {
		return false
	}
	if ix.slots[i] == 0 {
		ix.used++
	}
	ix.slots[i], ix.hashes[i] = pack(r), uint32(h>>32)
	ix.live++
	if ix.used*4 >= len(ix.slots)*3 {
		ix.resize()
	}
	return true
}

// del removes key k; it reports whether it was there.
func (ix *refIndex) del(k string) bool {
	i, ok := ix.find(k, maphash.String(ix.seed, k))
	if !ok {
		return false
	}
	ix.slots[i] = tombstone
	ix.live--
	return true
}

// resize rebuilds the table without tombstones, twice as large when more
// than half of it holds keys.
func (ix *refIndex) resize() {
	n := len(ix.slots)
	if ix.live*2 >= n {
		n *= 2
	}
	old, oldHashes := ix.slots, ix.hashes
	ix.slots, ix.hashes = make([]uint64, n), make([]uint32, n)
	ix.used = 0
	mask := uint64(n - 1)
	for j, s := range old {
		if s == 0 || s == tombstone {
			continue
		}
		hi := oldHashes[j] // a key's place comes from the kept half of its hash
		for i := uint64(hi) & mask; ; i = (i + 1) & mask {
			if ix.slots[i] == 0 {
				ix.slots[i], ix.hashes[i] = s, hi
				ix.used++
				break
			}
		}
	}
}
