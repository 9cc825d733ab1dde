package httpadapter

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeNow is a clock the test moves.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time      { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) add(d time.Duration) { f.mu.Lock(); f.t = f.t.Add(d); f.mu.Unlock() }

// Failed authentications are throttled per client: past the burst, the
// client is answered 429 in the hosted API's Error shape with Retry-After, right
// credentials included, while other clients are served; time earns
// attempts back. Unknown ids and wrong secrets count alike.
func TestAuthFailureLimit(t *testing.T) {
	s, _ := faultyServer(t)
	clock := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s.authLimit = newFailLimiter(AuthFailureLimit{Burst: 3, Every: time.Minute}, clock.now)
	call := func(remote, id, secret string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/v1/products", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-App-Id", id)
		r.Header.Set("X-App-Token", secret)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		return rec
	}
	const attacker, other = "203.0.113.5:4000", "198.51.100.9:5000"
	for i, id := range []string{"app", "nobody", "app"} {
		if rec := call(attacker, id, "wrong-secret-0123456789"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("failure %d: status %d", i, rec.Code)
		}
	}
	for _, secret := range []string{"wrong-secret-0123456789", "app-secret-0123456789"} {
		rec := call(attacker, "app", secret)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"code": 429.0, "key": "too_many_requests", "message": "Too many requests",
			"details": "Too many failed authentication attempts from this client: retry in 60 seconds", "request_id": "v-000000000000000042"}
		if d := cmp.Diff(want, body); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "60" || d != "" {
			t.Errorf("throttled client: status %d, Retry-After %q, body (-want +got):\n%s", rec.Code, rec.Header().Get("Retry-After"), d)
		}
	}
	// Another client is not affected, from IPv4 or IPv6.
	if rec := call(other, "app", "app-secret-0123456789"); rec.Code != http.StatusOK {
		t.Errorf("other client: status %d", rec.Code)
	}
	if rec := call("[2001:db8::1]:80", "app", "wrong-secret-0123456789"); rec.Code != http.StatusUnauthorized {
		t.Errorf("other client's failure: status %d", rec.Code)
	}
	// Half the wait is not enough; the whole wait earns one attempt.
	clock.add(30 * time.Second)
	if rec := call(attacker, "app", "app-secret-0123456789"); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "30" {
		t.Errorf("after 30s: status %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	clock.add(30 * time.Second)
	for i := range 5 { // successes draw nothing
		if rec := call(attacker, "app", "app-secret-0123456789"); rec.Code != http.StatusOK {
			t.Fatalf("success %d after the wait: status %d", i, rec.Code)
		}
	}
	if rec := call(attacker, "app", "wrong"); rec.Code != http.StatusUnauthorized {
		t.Errorf("earned attempt: status %d", rec.Code)
	}
	if rec := call(attacker, "app", "app-secret-0123456789"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("after spending it: status %d", rec.Code)
	}
}

// The limiter remembers at most maxLimitedClients clients: beyond, new
// clients share one budget (still throttled), and clients whose budget is
// whole again are forgotten.
func TestAuthFailureLimitBoundedMemory(t *testing.T) {
	t.Parallel()
	clock := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := newFailLimiter(AuthFailureLimit{Burst: 2, Every: time.Second, ClientKey: func(r *http.Request) string { return r.RemoteAddr }}, clock.now)
	req := func(i int) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = fmt.Sprint(i)
		return r
	}
	for i := range maxLimitedClients + 1000 {
		l.fail(req(i))
	}
	if n := len(l.clients); n > maxLimitedClients {
		t.Fatalf("%d clients remembered, want at most %d", n, maxLimitedClients)
	}
	// The clients past the bound drained the shared budget.
	if l.retryAfter(req(maxLimitedClients+5000)) == 0 {
		t.Error("a client beyond the bound is not throttled after the shared budget is spent")
	}
	// Once budgets are whole again, a new client's failure frees them.
	clock.add(10 * time.Second)
	l.fail(req(-1))
	if n := len(l.clients); n != 1 {
		t.Errorf("%d clients remembered after their budgets refilled, want 1", n)
	}
}
