package httpadapter

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/promoengine/promo/promotype"
)

// AuthFailureLimit throttles failed authentication per client: each client
// may fail Burst times in a row, and earns one more attempt every Every.
// A client out of attempts is answered 429 too_many_requests with
// Retry-After, before its credentials are checked (right ones included),
// until it has earned an attempt again. Successful requests cost nothing.
type AuthFailureLimit struct {
	Burst int           // failures in a row (default 20)
	Every time.Duration // time that earns one more attempt (default 3s)
	// ClientKey names the client of a request (default: its remote IP
	// address, IPv6 by /64). Behind a proxy, derive it from the header
	// the proxy sets, or every client shares the proxy's budget.
	ClientKey func(*http.Request) string
	// Disabled turns the limit off.
	Disabled bool
}

// Defaults of AuthFailureLimit, and the most clients it remembers: past
// that, new clients share one budget, so memory stays bounded whatever the
// number of addresses an attacker uses.
const (
	DefaultAuthFailureBurst = 20
	DefaultAuthFailureEvery = 3 * time.Second
	maxLimitedClients       = 10_000
)

// WithAuthFailureLimit sets the limit of failed authentications per
// client (default: DefaultAuthFailureBurst failures, one more every
// DefaultAuthFailureEvery, by remote address).
func WithAuthFailureLimit(l AuthFailureLimit) Option {
	return func(s *server) { s.authLimit = newFailLimiter(l, time.Now) }
}

// failLimiter is a token bucket per client that only failures draw from.
type failLimiter struct {
	burst float64
	every time.Duration
	key   func(*http.Request) string
	now   func() time.Time

	mu        sync.Mutex
	clients   map[string]*bucket
	shared    bucket // clients beyond maxLimitedClients
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newFailLimiter(l AuthFailureLimit, now func() time.Time) *failLimiter {
	if l.Disabled {
		return nil
	}
	if l.Burst <= 0 {
		l.Burst = DefaultAuthFailureBurst
	}
	if l.Every <= 0 {
		l.Every = DefaultAuthFailureEvery
	}
	if l.ClientKey == nil {
		l.ClientKey = remoteClient
	}
	return &failLimiter{burst: float64(l.Burst), every: l.Every, key: l.ClientKey, now: now,
		clients: map[string]*bucket{}, shared: bucket{tokens: float64(l.Burst)}}
}

// remoteClient is the remote IP address of r; an IPv6 client by its /64,
// which one host usually holds whole.
func remoteClient(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// refill brings b up to now.
func (l *failLimiter) refill(b *bucket, now time.Time) {
	if b.at.IsZero() {
		b.tokens, b.at = l.burst, now
		return
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(l.burst, b.tokens+float64(d)/float64(l.every))
		b.at = now
	}
}

// lookup returns client's bucket (nil if it has none yet and there is
// room for it). The caller holds l.mu.
func (l *failLimiter) lookup(client string) *bucket {
	if b, ok := l.clients[client]; ok {
		return b
	}
	if len(l.clients) < maxLimitedClients {
		return nil
	}
	return &l.shared
}

// retryAfter reports how long r's client must wait before its credentials
// are checked again; 0 when it may try now.
func (l *failLimiter) retryAfter(r *http.Request) time.Duration {
	if l == nil {
		return 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.lookup(l.key(r))
	if b == nil {
		return 0
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) * float64(l.every))
}

// fail records a failed authentication of r's client.
func (l *failLimiter) fail(r *http.Request) {
	if l == nil {
		return
	}
	now := l.now()
	client := l.key(r)
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.lookup(client)
	if b == &l.shared && now.Sub(l.lastSweep) >= l.every {
		// Forget the clients whose budget is whole again: nothing to
		// remember. At most once per Every, so a flood of new clients
		// does not sweep on every request.
		l.lastSweep = now
		for k, c := range l.clients {
			if l.refill(c, now); c.tokens >= l.burst {
				delete(l.clients, k)
			}
		}
		b = l.lookup(client)
	}
	if b == nil {
		b = &bucket{}
		l.clients[client] = b
	}
	l.refill(b, now)
	b.tokens = max(0, b.tokens-1)
}

// errTooManyFailures is the 429 of a client out of attempts.
func errTooManyFailures(retry time.Duration) *promotype.Error {
	return promotype.Newf(promotype.StatusTooManyRequests, "too_many_requests", "Too many requests",
		"Too many failed authentication attempts from this client: retry in %d seconds", retrySeconds(retry))
}

// retrySeconds is retry rounded up to whole seconds, at least 1.
func retrySeconds(retry time.Duration) int64 {
	return max(1, int64((retry+time.Second-1)/time.Second))
}

// setRetryAfter sets the Retry-After header of a 429 or 503.
func setRetryAfter(w http.ResponseWriter, retry time.Duration) {
	w.Header().Set("Retry-After", strconv.FormatInt(retrySeconds(retry), 10))
}
