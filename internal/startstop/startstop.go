package startstop

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// Base runs the loops of one background service. The zero value is ready.
type Base struct {
	stopMu sync.Mutex // one Stop at a time
	mu     sync.Mutex
	stop   chan struct{} // closed by Stop; nil when not running
	loops  sync.WaitGroup
	wakeMu sync.Mutex
	wake   chan struct{}
}

// Start runs each loop in a goroutine of its own, with ctx and a channel
// that Stop closes, unless the service is running; it reports whether it
// started them. A loop returns when stop is closed or ctx ends.
func (b *Base) Start(ctx context.Context, loops ...func(ctx context.Context, stop <-chan struct{})) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stop != nil {
		return false
	}
	stop := make(chan struct{})
	b.stop = stop
	b.loops.Add(len(loops))
	for _, loop := range loops {
		go func() {
			defer b.loops.Done()
			loop(ctx, stop)
		}()
	}
	return true
}

// Running reports whether the service is started and not stopped.
func (b *Base) Running() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stop != nil
}

// Stop closes the loops' stop channel and waits for them to return; then
// the service may be started again. It reports whether the service was
// running; stopping a service that is not does nothing.
func (b *Base) Stop() bool {
	b.stopMu.Lock()
	defer b.stopMu.Unlock()
	b.mu.Lock()
	stop := b.stop
	if stop != nil {
		close(stop)
	}
	b.mu.Unlock()
	if stop == nil {
		return false
	}
	b.loops.Wait()
	b.mu.Lock()
	b.stop = nil
	b.mu.Unlock()
	return true
}

// Wake signals the loops that wait on WakeC; it never blocks, and signals
// sent while no loop waits collapse into one.
func (b *Base) Wake() { Signal(b.WakeC()) }

// WakeC is the channel Wake signals.
func (b *Base) WakeC() chan struct{} {
	b.wakeMu.Lock()
	defer b.wakeMu.Unlock()
	if b.wake == nil {
		b.wake = make(chan struct{}, 1)
	}
	return b.wake
}

// Signal sends on c unless a signal is already pending; it never blocks.
func Signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Stopped reports whether stop is closed or ctx ended.
func Stopped(ctx context.Context, stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return ctx.Err() != nil
	}
}

// Causes of a Loop round other than a wake channel (whose index it is).
const (
	CauseStart = -1 // the first round
	CauseTick  = -2 // the poll interval passed
	CauseAgain = -3 // the last round asked for another at once
)

// Loop runs round until ctx ends or stop closes: at once, then each time
// one of wakes fires (cause is its index) or interval passes (CauseTick),
// or at once when the last round returned true (CauseAgain).
func Loop(ctx context.Context, stop <-chan struct{}, interval time.Duration, round func(ctx context.Context, cause int) (again bool), wakes ...<-chan struct{}) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	cause := CauseStart
	for !Stopped(ctx, stop) {
		if round(ctx, cause) {
			cause = CauseAgain
			continue
		}
		var ok bool
		if cause, ok = wait(ctx, stop, tick.C, wakes); !ok {
			return
		}
	}
}

// wait waits for one of wakes (its index) or tick (CauseTick); false when
// ctx ends or stop closes first.
func wait(ctx context.Context, stop <-chan struct{}, tick <-chan time.Time, wakes []<-chan struct{}) (int, bool) {
	var w [2]<-chan struct{} // a nil channel never fires
	copy(w[:], wakes)
	if len(wakes) > len(w) {
		panic("startstop: Loop takes at most two wake channels")
	}
	select {
	case <-ctx.Done():
		return 0, false
	case <-stop:
		return 0, false
	case <-tick:
		return CauseTick, true
	case <-w[0]:
		return 0, true
	case <-w[1]:
		return 1, true
	}
}

// Sleep waits for d; false if ctx ended or stop closed first.
func Sleep(ctx context.Context, stop <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-stop:
		return false
	case <-t.C:
		return true
	}
}

// Backoff is the wait after the attempt-th error in a row (from 1): base
// doubled each time up to limit, with up to ±25% jitter so that replicas
// that failed together do not retry together.
func Backoff(attempt int, base, limit time.Duration) time.Duration {
	d := base
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	if d <= 0 {
		return 0
	}
	jitter := time.Duration(rand.Int64N(int64(d)/2+1)) - d/4
	return max(d+jitter, 0)
}
