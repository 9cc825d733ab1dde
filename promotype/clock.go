package promotype

import (
	"sync"
	"time"
)

// Clock tells the time. The engine reads it once per operation, so tests can
// freeze or step it.
type Clock interface {
	Now() Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns the current time truncated to milliseconds.
func (SystemClock) Now() Time { return NewTime(time.Now()) }

// ManualClock is a clock for tests: it stands still until Set or Advance.
type ManualClock struct {
	mu sync.Mutex
	t  Time
}

// NewManualClock returns a clock standing at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: NewTime(t)} }

// Now returns the clock's time.
func (c *ManualClock) Now() Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = NewTime(t)
	c.mu.Unlock()
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = NewTime(c.t.Add(d))
	c.mu.Unlock()
}
