package memory

import (
	"context"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

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

// Vouchers are held two ways. A generated batch becomes a slab: the
// template once, and the ids and codes of its vouchers packed in two
// strings with their end offsets, plus one state byte per voucher; the maps
// that find a voucher by id and by code have keys that are substrings of
// those strings, so a generated voucher costs no allocation of its own and
// about 150 bytes of heap in all. A voucher created alone, or changed after
// its generation, is a full voucher.Voucher in rows. Reads materialize slab
// vouchers (template copy + id + code) one at a time.
type voucherProject struct {
	slabs     []*slab
	slabIDs   *refIndex                   // id → slab row (live or in the bin)
	slabCodes *refIndex                   // code → slab row (live only)
	rows      map[string]*voucher.Voucher // id → voucher held alone (live or in the bin)
	codes     map[string]string           // code → id of a live voucher held alone
	// free: campaign id ("" for none) → ids of the live, active vouchers
	// held alone without a holder (the public vouchers of qualifications).
	free map[string]map[string]struct{}
}

// vref locates a voucher in a slab.
type vref struct{ slab, row int32 }

// States of a slab row.
const (
	rowLive    uint8 = iota
	rowBinned        // in the bin: found by id for a delete, code free
	rowMoved         // held in rows now
	rowDeleted       // gone for good (or refused at insert)
)

type slab struct {
	template         *voucher.Voucher
	campaignID       string
	ids, codes       string
	idEnds, codeEnds []uint32
	state            []uint8
	binnedAt         promotype.Time // of the rows binned with their campaign
}

func (s *slab) id(i int) string {
	lo := 0
	if i > 0 {
		lo = int(s.idEnds[i-1])
	}
	return s.ids[lo:s.idEnds[i]]
}

func (s *slab) code(i int) string {
	lo := 0
	if i > 0 {
		lo = int(s.codeEnds[i-1])
	}
	return s.codes[lo:s.codeEnds[i]]
}

// voucher materializes row i.
func (s *slab) voucher(i int) *voucher.Voucher {
	v := s.template.Clone()
	v.ID, v.Code = s.id(i), s.code(i)
	if s.state[i] == rowBinned {
		v.BinnedAt = s.binnedAt.Ptr()
	}
	return v
}

// field reads a list field of row i without materializing it.
func (s *slab) field(i int, name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: s.id(i)}
	case "code":
		return promotype.Value{Str: s.code(i)}
	}
	return s.template.Field(name)
}

func (d *data) voucherProject(projectID string) *voucherProject {
	p := d.campaigns.vouchers[projectID]
	if p == nil {
		p = &voucherProject{rows: map[string]*voucher.Voucher{}, codes: map[string]string{}, free: map[string]map[string]struct{}{}}
		p.slabIDs = newRefIndex(func(r vref) string { return p.slabs[r.slab].id(int(r.row)) })
		p.slabCodes = newRefIndex(func(r vref) string { return p.slabs[r.slab].code(int(r.row)) })
		d.campaigns.vouchers[projectID] = p
	}
	return p
}

// codeTaken and idTaken report whether a live code, or any id, is held.
func (p *voucherProject) codeTaken(code string) bool {
	if _, ok := p.codes[code]; ok {
		return true
	}
	_, ok := p.slabCodes.get(code)
	return ok
}

func (p *voucherProject) idTaken(id string) bool {
	if _, ok := p.rows[id]; ok {
		return true
	}
	_, ok := p.slabIDs.get(id)
	return ok
}

// setState changes the state of a slab row, with its undo.
func setState(u *undo, s *slab, i int, st uint8) {
	old := s.state[i]
	s.state[i] = st
	u.push(func() { s.state[i] = old })
}

func setKey[V any](u *undo, m map[string]V, k string, v V) {
	old, had := m[k]
	m[k] = v
	u.push(func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
}

func delKey[V any](u *undo, m map[string]V, k string) {
	old, had := m[k]
	if !had {
		return
	}
	delete(m, k)
	u.push(func() { m[k] = old })
}

// unindex removes key k from ix, with its undo.
func unindex(u *undo, ix *refIndex, k string) {
	r, ok := ix.get(k)
	if !ok {
		return
	}
	ix.del(k)
	u.push(func() { ix.add(r) })
}

// putRow stores a copy of v in rows and keeps the code index.
func (p *voucherProject) putRow(u *undo, v *voucher.Voucher) {
	if old, ok := p.rows[v.ID]; ok {
		if old.BinnedAt == nil {
			delKey(u, p.codes, old.Code)
		}
		p.setFree(u, old, false)
	}
	if v.BinnedAt == nil {
		setKey(u, p.codes, v.Code, v.ID)
	}
	setKey(u, p.rows, v.ID, v.Clone())
	p.setFree(u, v, v.BinnedAt == nil && v.Active && v.HolderID == nil)
}

// setFree adds v to the free index (on) or takes it out, with its undo.
func (p *voucherProject) setFree(u *undo, v *voucher.Voucher, on bool) {
	k := ""
	if v.CampaignID != nil {
		k = *v.CampaignID
	}
	set := p.free[k]
	if set == nil {
		if !on {
			return
		}
		set = map[string]struct{}{}
		p.free[k] = set
	}
	if on {
		setKey(u, set, v.ID, struct{}{})
	} else {
		delKey(u, set, v.ID)
	}
}

// move takes a live slab row out of its slab into rows and returns it.
func (p *voucherProject) move(u *undo, r vref) *voucher.Voucher {
	s := p.slabs[r.slab]
	v := s.voucher(int(r.row))
	setState(u, s, int(r.row), rowMoved)
	unindex(u, p.slabIDs, v.ID)
	unindex(u, p.slabCodes, v.Code)
	p.putRow(u, v)
	return p.rows[v.ID]
}

// live returns the live voucher with id (the stored value: clone it).
func (p *voucherProject) live(id string) (*voucher.Voucher, vref, bool) {
	if v, ok := p.rows[id]; ok {
		return v, vref{-1, -1}, v.BinnedAt == nil
	}
	if r, ok := p.slabIDs.get(id); ok && p.slabs[r.slab].state[r.row] == rowLive {
		return nil, r, true
	}
	return nil, vref{}, false
}

func (p *voucherProject) get(id string) (*voucher.Voucher, bool) {
	v, r, ok := p.live(id)
	switch {
	case !ok:
		return nil, false
	case v != nil:
		return v.Clone(), true
	}
	return p.slabs[r.slab].voucher(int(r.row)), true
}

// InsertVoucher implements voucher.Store.
func (s *Store) InsertVoucher(ctx context.Context, v *voucher.Voucher) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(v.ProjectID)
		if p.idTaken(v.ID) {
			return promotype.Duplicate("voucher", "Duplicated voucher exists with id %s", v.ID)
		}
		if v.BinnedAt == nil && p.codeTaken(v.Code) {
			return promotype.Duplicate("voucher", "Duplicated voucher exists with code %s", v.Code)
		}
		p.putRow(u, v)
		return nil
	})
}

// InsertVouchers implements voucher.Store.
func (s *Store) InsertVouchers(ctx context.Context, vs []*voucher.Voucher) (rejected []int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		for i, v := range vs {
			p := d.voucherProject(v.ProjectID)
			if p.idTaken(v.ID) || (v.BinnedAt == nil && p.codeTaken(v.Code)) {
				rejected = append(rejected, i)
				continue
			}
			p.putRow(u, v)
		}
		return nil
	})
	return rejected, err
}

// InsertBatch implements voucher.Store: the batch becomes one slab.
func (s *Store) InsertBatch(ctx context.Context, b *voucher.Batch) (rejected []int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(b.Template.ProjectID)
		ids, idEnds, codes, codeEnds := b.Packed()
		n := len(idEnds)
		sl := &slab{
			template: b.Template.Clone(),
			ids:      string(ids), codes: string(codes),
			idEnds: slices.Clone(idEnds), codeEnds: slices.Clone(codeEnds),
			state: make([]uint8, n),
		}
		if sl.template.CampaignID != nil {
			sl.campaignID = *sl.template.CampaignID
		}
		k := int32(len(p.slabs))
		p.slabs = append(p.slabs, sl) // the indexes read keys from it
		alone := len(p.rows) > 0
		for i := range n {
			r := vref{k, int32(i)}
			if alone && (p.rows[sl.id(i)] != nil || p.codes[sl.code(i)] != "") {
				rejected = append(rejected, i)
				sl.state[i] = rowDeleted
				continue
			}
			if !p.slabIDs.add(r) {
				rejected = append(rejected, i)
				sl.state[i] = rowDeleted
				continue
			}
			if !p.slabCodes.add(r) {
				p.slabIDs.del(sl.id(i))
				rejected = append(rejected, i)
				sl.state[i] = rowDeleted
			}
		}
		u.push(func() {
			for i := range n {
				if sl.state[i] != rowDeleted {
					p.slabIDs.del(sl.id(i))
					p.slabCodes.del(sl.code(i))
				}
			}
			p.slabs = p.slabs[:k]
		})
		return nil
	})
	return rejected, err
}

// LockVoucher implements voucher.Store: a transaction holds the store's
// lock already, so it only checks that the voucher is live.
func (s *Store) LockVoucher(ctx context.Context, projectID, id string) error {
	_, err := s.GetVoucher(ctx, projectID, id)
	return err
}

// GetVoucherForUpdate implements voucher.Store: a transaction holds the
// store's lock already.
func (s *Store) GetVoucherForUpdate(ctx context.Context, projectID, id string) (*voucher.Voucher, error) {
	return s.GetVoucher(ctx, projectID, id)
}

// UpdateVoucher implements voucher.Store.
func (s *Store) UpdateVoucher(ctx context.Context, v *voucher.Voucher) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(v.ProjectID)
		old, r, ok := p.live(v.ID)
		if !ok {
			return promotype.NotFound("voucher", v.ID)
		}
		if old == nil {
			old = p.move(u, r)
		}
		if v.Code != old.Code && p.codeTaken(v.Code) {
			return promotype.Duplicate("voucher", "Duplicated voucher exists with code %s", v.Code)
		}
		c := v.Clone()
		c.BinnedAt = nil
		p.putRow(u, c)
		return nil
	})
}

// GetVoucher implements voucher.Store.
func (s *Store) GetVoucher(ctx context.Context, projectID, id string) (out *voucher.Voucher, err error) {
	s.read(ctx, func(d *data) {
		p := d.campaigns.vouchers[projectID]
		var ok bool
		if p != nil {
			out, ok = p.get(id)
		}
		if !ok {
			err = promotype.NotFound("voucher", id)
		}
	})
	return out, err
}

// FindVoucherByCode implements voucher.Store.
func (s *Store) FindVoucherByCode(ctx context.Context, projectID, code string) (out *voucher.Voucher, err error) {
	s.read(ctx, func(d *data) {
		err = promotype.NotFound("voucher", code)
		p := d.campaigns.vouchers[projectID]
		if p == nil {
			return
		}
		if id, ok := p.codes[code]; ok {
			out, err = p.rows[id].Clone(), nil
		} else if r, ok := p.slabCodes.get(code); ok {
			out, err = p.slabs[r.slab].voucher(int(r.row)), nil
		}
	})
	return out, err
}

// item is a live voucher as a list sees it: a row held alone or a slab row.
type item struct {
	v   *voucher.Voucher
	s   *slab
	row int
}

// voucher is a copy of the voucher it names.
func (it item) voucher() *voucher.Voucher {
	if it.v != nil {
		return it.v.Clone()
	}
	return it.s.voucher(it.row)
}

// itemOrder compares items in q's order: its field, then the id.
func itemOrder(q promotype.Query) func(a, b item) int {
	return func(a, b item) int {
		c := promotype.Compare(a.field(q.OrderBy), b.field(q.OrderBy))
		if c == 0 {
			c = strings.Compare(a.field("id").Str, b.field("id").Str)
		}
		if q.Desc {
			return -c
		}
		return c
	}
}

func (it item) field(name string) promotype.Value {
	if it.v != nil {
		return it.v.Field(name)
	}
	return it.s.field(it.row, name)
}

// ListVouchers implements voucher.Store. Slab rows are filtered and ordered
// without being materialized; only the page is.
func (s *Store) ListVouchers(ctx context.Context, projectID string, q promotype.Query) (out []*voucher.Voucher, total int, err error) {
	s.read(ctx, func(d *data) {
		out = []*voucher.Voucher{}
		p := d.campaigns.vouchers[projectID]
		if p == nil {
			return
		}
		var matched []item
		for _, v := range p.rows {
			if v.BinnedAt == nil && q.Match(v.Field) {
				matched = append(matched, item{v: v})
			}
		}
		rowwise := needsRow(q)
		for _, sl := range p.slabs {
			if !rowwise && !q.Match(sl.template.Field) {
				continue // every row of the slab answers as its template
			}
			for i, st := range sl.state {
				if st != rowLive {
					continue
				}
				it := item{s: sl, row: i}
				if !rowwise || q.Match(it.field) {
					matched = append(matched, it)
				}
			}
		}
		cmp := itemOrder(q)
		total = len(matched)
		// matched is in insertion order, about the created_at order: walk it
		// from its likely best end.
		matched = firstK(matched, min(q.Offset+q.Limit, total), q.Desc, cmp)
		lo := min(q.Offset, len(matched))
		hi := min(lo+q.Limit, len(matched))
		for _, it := range matched[lo:hi] {
			out = append(out, it.voucher())
		}
	})
	return out, total, nil
}

// needsRow reports whether q tests the id or the code, which differ row by
// row, so a slab cannot be skipped on its template alone.
func needsRow(q promotype.Query) bool {
	for _, cs := range [][]promotype.Condition{q.Must, q.Filter.Conditions} {
		for _, c := range cs {
			if c.Field == "id" || c.Field == "code" {
				return true
			}
		}
	}
	return false
}

// BinVoucher implements voucher.Store.
func (s *Store) BinVoucher(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		v, r, ok := p.live(id)
		if !ok {
			return promotype.NotFound("voucher", id)
		}
		if v == nil {
			v = p.move(u, r)
		}
		c := v.Clone()
		c.BinnedAt = at.Ptr()
		p.putRow(u, c)
		return nil
	})
}

// DeleteVoucher implements voucher.Store.
func (s *Store) DeleteVoucher(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		if v, ok := p.rows[id]; ok {
			if v.BinnedAt == nil {
				delKey(u, p.codes, v.Code)
			}
			p.setFree(u, v, false)
			delKey(u, p.rows, id)
			return nil
		}
		r, ok := p.slabIDs.get(id)
		if !ok {
			return promotype.NotFound("voucher", id)
		}
		sl := p.slabs[r.slab]
		if sl.state[r.row] == rowLive {
			unindex(u, p.slabCodes, sl.code(int(r.row)))
		}
		setState(u, sl, int(r.row), rowDeleted)
		unindex(u, p.slabIDs, id)
		return nil
	})
}

// UpdateCampaignVouchers implements voucher.Store. From the start
// (afterID "") it changes every voucher of the campaign at once: a slab by
// replacing its template. Past afterID it changes rows one by one.
func (s *Store) UpdateCampaignVouchers(ctx context.Context, projectID, campaignID string, f voucher.CampaignFields, afterID string, _ int) (n int, last string, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		for _, v := range p.rows {
			if v.BinnedAt == nil && v.CampaignID != nil && *v.CampaignID == campaignID && v.ID > afterID && f.Applies(v) {
				c := v.Clone()
				f.Apply(c)
				p.putRow(u, c)
				n++
				last = max(last, v.ID)
			}
		}
		for k, sl := range p.slabs {
			if sl.campaignID != campaignID || !f.Applies(sl.template) {
				continue
			}
			count := 0
			for i, st := range sl.state {
				if st != rowLive || sl.id(i) <= afterID {
					continue
				}
				count++
				last = max(last, sl.id(i))
				if afterID != "" {
					v := p.move(u, vref{int32(k), int32(i)}).Clone()
					f.Apply(v)
					p.putRow(u, v)
				}
			}
			if count > 0 && afterID == "" {
				t := sl.template.Clone()
				f.Apply(t)
				old := sl.template
				sl.template = t
				u.push(func() { sl.template = old })
			}
			n += count
		}
		return nil
	})
	return n, last, err
}

// BinCampaignVouchers implements voucher.Store: all of them at once.
func (s *Store) BinCampaignVouchers(ctx context.Context, projectID, campaignID string, at promotype.Time, _ int) (n int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		for _, v := range p.rows {
			if v.BinnedAt == nil && v.CampaignID != nil && *v.CampaignID == campaignID {
				c := v.Clone()
				c.BinnedAt = at.Ptr()
				p.putRow(u, c)
				n++
			}
		}
		for k, sl := range p.slabs {
			if sl.campaignID != campaignID {
				continue
			}
			var freed []int32
			for i, st := range sl.state {
				if st == rowLive {
					p.slabCodes.del(sl.code(i))
					freed = append(freed, int32(i))
					sl.state[i] = rowBinned
				}
			}
			if len(freed) == 0 {
				continue
			}
			n += len(freed)
			oldAt := sl.binnedAt
			sl.binnedAt = at
			u.push(func() {
				sl.binnedAt = oldAt
				for _, i := range freed {
					sl.state[i] = rowLive
					p.slabCodes.add(vref{int32(k), i})
				}
			})
		}
		return nil
	})
	return n, err
}

// DeleteCampaignVouchers implements voucher.Store: all of them at once.
func (s *Store) DeleteCampaignVouchers(ctx context.Context, projectID, campaignID string, _ int) (n int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		for id, v := range p.rows {
			if v.CampaignID != nil && *v.CampaignID == campaignID {
				if v.BinnedAt == nil {
					delKey(u, p.codes, v.Code)
				}
				delKey(u, p.rows, id)
				n++
			}
		}
		for k, sl := range p.slabs {
			if sl.campaignID != campaignID {
				continue
			}
			old := slices.Clone(sl.state)
			for i, st := range sl.state {
				if st == rowLive || st == rowBinned {
					if st == rowLive {
						p.slabCodes.del(sl.code(i))
					}
					p.slabIDs.del(sl.id(i))
					sl.state[i] = rowDeleted
					n++
				}
			}
			u.push(func() {
				copy(sl.state, old)
				for i, st := range old {
					if st == rowLive || st == rowBinned {
						p.slabIDs.add(vref{int32(k), int32(i)})
					}
					if st == rowLive {
						p.slabCodes.add(vref{int32(k), int32(i)})
					}
				}
			})
		}
		return nil
	})
	return n, err
}

// firstK returns the k first items of s in cmp order, sorted: a full sort
// when k is a good part of s, else a bounded heap (a page of a list of a
// million vouchers costs n log k, not n log n), fed from the end of s when
// backwards (the best items there are taken first, and the rest mostly
// compared once).
func firstK[T any](s []T, k int, backwards bool, cmp func(a, b T) int) []T {
	if k <= 0 {
		return s[:0]
	}
	if k*8 >= len(s) {
		slices.SortFunc(s, cmp)
		return s[:k]
	}
	// h is a max-heap (by cmp) of the k smallest seen so far.
	h := make([]T, 0, k)
	down := func(i int) {
		for {
			l, big := 2*i+1, i
			if l < len(h) && cmp(h[l], h[big]) > 0 {
				big = l
			}
			if r := l + 1; r < len(h) && cmp(h[r], h[big]) > 0 {
				big = r
			}
			if big == i {
				return
			}
			h[i], h[big] = h[big], h[i]
			i = big
		}
	}
	for j := range s {
		x := s[j]
		if backwards {
			x = s[len(s)-1-j]
		}
		if len(h) < k {
			h = append(h, x)
			for i := len(h) - 1; i > 0; {
				parent := (i - 1) / 2
				if cmp(h[i], h[parent]) <= 0 {
					break
				}
				h[i], h[parent] = h[parent], h[i]
				i = parent
			}
			continue
		}
		if cmp(x, h[0]) < 0 {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}
