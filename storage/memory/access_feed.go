package memory

import (
	"sync"

	"github.com/promoengine/promo/auth"
)

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
