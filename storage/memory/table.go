package memory

import (
	"slices"
	"strings"
	"sync"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// undo is a transaction's log of inverse operations, applied last to first.
type undo []func()

func (u *undo) push(f func()) { *u = append(*u, f) }

func (u undo) rollback() {
	for i := len(u) - 1; i >= 0; i-- {
		u[i]()
	}
}

// table holds one resource type: project id → row id → row.
type table[V any] struct {
	rows map[string]map[string]*V
}

func newTable[V any]() table[V] { return table[V]{rows: map[string]map[string]*V{}} }

func (t *table[V]) get(project, id string) (*V, bool) {
	v, ok := t.rows[project][id]
	return v, ok
}

// put stores v (the table's own copy) and logs how to restore the old state.
func (t *table[V]) put(u *undo, project, id string, v *V) {
	m := t.rows[project]
	if m == nil {
		m = map[string]*V{}
		t.rows[project] = m
	}
	old, had := m[id]
	m[id] = v
	u.push(func() {
		if had {
			m[id] = old
		} else {
			delete(m, id)
		}
	})
}

func (t *table[V]) del(u *undo, project, id string) {
	m := t.rows[project]
	old, had := m[id]
	if !had {
		return
	}
	delete(m, id)
	u.push(func() { m[id] = old })
}

// index maps a unique key of a project to a row id.
type index map[[2]string]string

func (ix index) set(u *undo, project, key, id string) {
	k := [2]string{project, key}
	old, had := ix[k]
	ix[k] = id
	u.push(func() {
		if had {
			ix[k] = old
		} else {
			delete(ix, k)
		}
	})
}

func (ix index) unset(u *undo, project, key string) {
	k := [2]string{project, key}
	old, had := ix[k]
	if !had {
		return
	}
	delete(ix, k)
	u.push(func() { ix[k] = old })
}

// field reads one filterable or orderable field of a row.
type field[V any] func(v *V, name string) promotype.Value

// list filters, orders and pages the rows of a project; live skips rows that
// do not count (binned); clone copies each returned row.
func list[V any](rows map[string]*V, q promotype.Query, get field[V], id func(*V) string, live func(*V) bool, clone func(*V) *V) ([]*V, int) {
	matched := make([]*V, 0, len(rows))
	for _, v := range rows {
		if live != nil && !live(v) {
			continue
		}
		if q.Match(func(name string) promotype.Value { return get(v, name) }) {
			matched = append(matched, v)
		}
	}
	slices.SortFunc(matched, func(a, b *V) int {
		c := promotype.Compare(get(a, q.OrderBy), get(b, q.OrderBy))
		if c == 0 {
			c = strings.Compare(id(a), id(b))
		}
		if q.Desc {
			return -c
		}
		return c
	})
	total := len(matched)
	lo := min(q.Offset, total)
	hi := min(lo+q.Limit, total)
	out := make([]*V, 0, hi-lo)
	for _, v := range matched[lo:hi] {
		out = append(out, clone(v))
	}
	return out, total
}

func str(p *string) promotype.Value {
	if p == nil {
		return promotype.Value{Null: true}
	}
	return promotype.Value{Str: *p}
}

func tm(t promotype.Time) promotype.Value { return promotype.Value{Time: t} }

func tmPtr(t *promotype.Time) promotype.Value {
	if t == nil {
		return promotype.Value{Null: true}
	}
	return promotype.Value{Time: *t}
}

// getClone returns a copy of the row (project, id), or a not_found naming kind.
func getClone[V any](t *table[V], project, id, kind string, clone func(*V) *V) (*V, error) {
	v, ok := t.get(project, id)
	if !ok {
		return nil, promotype.NotFound(kind, id)
	}
	return clone(v), nil
}

// insertNew stores v, a row with an id not taken yet in its project.
func insertNew[V any](t *table[V], u *undo, project, id, kind string, v *V) error {
	if _, ok := t.get(project, id); ok {
		return promotype.Duplicate(kind, "Duplicated %s exists with id %s", kind, id)
	}
	t.put(u, project, id, v)
	return nil
}

// replace overwrites the existing row (project, id) with v.
func replace[V any](t *table[V], u *undo, project, id, kind string, v *V) error {
	if _, ok := t.get(project, id); !ok {
		return promotype.NotFound(kind, id)
	}
	t.put(u, project, id, v)
	return nil
}

// remove deletes the existing row (project, id).
func remove[V any](t *table[V], u *undo, project, id, kind string) error {
	if _, ok := t.get(project, id); !ok {
		return promotype.NotFound(kind, id)
	}
	t.del(u, project, id)
	return nil
}

// keyed is a table whose live rows may also hold a key unique in their
// project besides the id (a source id, a name, a related object), kept in
// an index to the row id. A row with no key (nil) or not live holds none.
type keyed[V any] struct {
	table[V]
	keys    index
	kind    string                        // the resource in errors: "customer"
	noun    string                        // the resource in duplicate messages: kind, or "metadata schema"
	keyName string                        // the key in duplicate messages: "source_id"
	ids     func(*V) (project, id string) // the row's project and id
	key     func(*V) *string              // the row's key, or nil
	live    func(*V) bool                 // nil: every row is live
	clone   func(*V) *V
}

func newKeyed[V any](k keyed[V]) keyed[V] {
	k.table, k.keys = newTable[V](), index{}
	if k.noun == "" {
		k.noun = k.kind
	}
	return k
}

func (k *keyed[V]) isLive(v *V) bool { return k.live == nil || k.live(v) }

// heldKey is the key v holds in the index: none when v is not live.
func (k *keyed[V]) heldKey(v *V) *string {
	if !k.isLive(v) {
		return nil
	}
	return k.key(v)
}

func (k *keyed[V]) rowID(v *V) string {
	_, id := k.ids(v)
	return id
}

// keyFree is the duplicate error when a row of project holds key already.
func (k *keyed[V]) keyFree(project string, key *string) error {
	if key == nil {
		return nil
	}
	if _, ok := k.keys[[2]string{project, *key}]; ok {
		return k.duplicateKey(*key)
	}
	return nil
}

func (k *keyed[V]) duplicateKey(key string) error {
	return promotype.Duplicate(k.kind, "Duplicated %s exists with %s %s", k.noun, k.keyName, key)
}

// save stores a copy of v and moves its key in the index; a key held by
// another row is a duplicate.
func (k *keyed[V]) save(u *undo, v *V) error {
	project, id := k.ids(v)
	if old, ok := k.get(project, id); ok {
		if key := k.heldKey(old); key != nil {
			k.keys.unset(u, project, *key)
		}
	}
	if key := k.heldKey(v); key != nil {
		if other, ok := k.keys[[2]string{project, *key}]; ok && other != id {
			return k.duplicateKey(*key)
		}
		k.keys.set(u, project, *key, id)
	}
	k.put(u, project, id, k.clone(v))
	return nil
}

// insert saves v, whose id must not be taken in its project yet.
func (k *keyed[V]) insert(u *undo, v *V) error {
	project, id := k.ids(v)
	if _, ok := k.get(project, id); ok {
		return promotype.Duplicate(k.kind, "Duplicated %s exists with id %s", k.noun, id)
	}
	return k.save(u, v)
}

// update saves v over its live row.
func (k *keyed[V]) update(u *undo, v *V) error {
	if _, err := k.liveRow(k.ids(v)); err != nil {
		return err
	}
	return k.save(u, v)
}

// liveRow is the stored live row (project, id), or not_found.
func (k *keyed[V]) liveRow(project, id string) (*V, error) {
	v, ok := k.get(project, id)
	if !ok || !k.isLive(v) {
		return nil, promotype.NotFound(k.kind, id)
	}
	return v, nil
}

// copyOf returns a copy of the live row (project, id), or not_found.
func (k *keyed[V]) copyOf(project, id string) (*V, error) {
	v, err := k.liveRow(project, id)
	if err != nil {
		return nil, err
	}
	return k.clone(v), nil
}

// find returns a copy of the live row of project holding key, or not_found
// naming the key.
func (k *keyed[V]) find(project, key string) (*V, error) {
	id, ok := k.keys[[2]string{project, key}]
	v, found := k.get(project, id)
	if !ok || !found || !k.isLive(v) {
		return nil, promotype.NotFound(k.kind, key)
	}
	return k.clone(v), nil
}

// list filters, orders and pages the live rows of project.
func (k *keyed[V]) list(project string, q promotype.Query, get field[V]) ([]*V, int) {
	return list(k.rows[project], q, get, k.rowID, k.live, k.clone)
}

// drop deletes the stored row v (live or not) and its key.
func (k *keyed[V]) drop(u *undo, v *V) {
	project, id := k.ids(v)
	if key := k.heldKey(v); key != nil {
		k.keys.unset(u, project, *key)
	}
	k.del(u, project, id)
}

// remove deletes the row (project, id), live or not; none is not_found.
func (k *keyed[V]) remove(u *undo, project, id string) error {
	v, ok := k.get(project, id)
	if !ok {
		return promotype.NotFound(k.kind, id)
	}
	k.drop(u, v)
	return nil
}

// feed is the in-process list of credential invalidation subscribers.
type feed struct {
	mu   sync.Mutex
	next int
	subs map[int]func(auth.Invalidation)
}

func newFeed() *feed { return &feed{subs: map[int]func(auth.Invalidation){}} }

// subscribe adds fn and returns the function that removes it.
func (f *feed) subscribe(fn func(auth.Invalidation)) (stop func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.next
	f.next++
	f.subs[id] = fn
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, id)
	}
}

// deliver calls every subscriber with inv, in the caller's goroutine.
func (f *feed) deliver(inv auth.Invalidation) {
	f.mu.Lock()
	subs := make([]func(auth.Invalidation), 0, len(f.subs))
	for _, fn := range f.subs {
		subs = append(subs, fn)
	}
	f.mu.Unlock()
	for _, fn := range subs {
		fn(inv)
	}
}

// pastID returns the rows of rows whose id is past after in q's direction
// (all of them when after is empty): a page of a list paged by id.
func pastID[V any](rows map[string]*V, q promotype.Query, after string) map[string]*V {
	if after == "" {
		return rows
	}
	out := make(map[string]*V, len(rows))
	for id, v := range rows {
		if (!q.Desc && id > after) || (q.Desc && id < after) {
			out[id] = v
		}
	}
	return out
}
