package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo/httpadapter"
)

// jsonArray is a JSON array of n copies of el.
func jsonArray(n int, el string) string {
	return "[" + strings.Repeat(el+",", n-1) + el + "]"
}

// hostileBody is the body of the attack run: about 340,000 empty objects
// just under 1 MiB, which cost 160 MB to decode as an order's items.
var hostileBody = `{"order":{"items":` + jsonArray(339_990, "{}") + `}}`

// heavyBody is the costliest body within the bounds: 9,999 order items
// with nested objects, about 600 KB.
var heavyBody = `{"order":{"items":` + jsonArray(9_999, `{"product":{"metadata":{"a":1}},"sku":{"metadata":{"a":1}}}`) + `}}`

func TestHostileBodiesRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, tc := range []struct {
		name, body string
		want       string // the message's detail
	}{
		{"hostile", hostileBody, "Payload must NOT have more than 10000 elements in one array or object"},
		{"values", `{"metadata":{` + strings.Repeat(`"a":`+jsonArray(9_000, "1")+`,`, 12) + `"b":1}}`, "Payload must NOT have more than 100000 values"},
		{"elements", `{"order":{"items":` + jsonArray(10_001, "1") + `}}`, "Payload must NOT have more than 10000 elements in one array or object"},
		{"members", `{"metadata":{` + strings.TrimSuffix(strings.Repeat(`"a":1,`, 10_001), ",") + `}}`, "Payload must NOT have more than 10000 elements in one array or object"},
		{"depth", `{"metadata":{"a":` + strings.Repeat("[", 127) + strings.Repeat("]", 127) + `}}`, "Payload must NOT nest more than 128 arrays and objects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := h.with(t).do(req{method: http.MethodPost, target: "/v1/redemptions", body: tc.body})
			var e struct {
				Code         int
				Key, Details string
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				t.Fatal(err)
			}
			if e.Code != http.StatusBadRequest || e.Key != "invalid_payload" || e.Details != tc.want {
				t.Errorf("answer %d %s %q, want 400 invalid_payload %q", e.Code, e.Key, e.Details, tc.want)
			}
		})
	}
	// Brackets and commas inside strings are text, not structure.
	quoted := `{"source_id":"c1","metadata":{"a":"` + strings.Repeat(`[{,\"`, 30_000) + `"}}`
	if rec := h.do(req{method: http.MethodPost, target: "/v1/customers", body: quoted}); rec.Code != http.StatusOK {
		t.Errorf("a string of brackets and commas: %d %s, want 200", rec.Code, rec.Body)
	}
}

// TestHostileBodyDecodeCost measures what one request costs the process in
// allocations: the hostile body is refused before decoding, the heaviest
// body within the bounds stays under 16 MB. Not parallel: it reads the
// process's allocation counter.
func TestHostileBodyDecodeCost(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		name, body string
		max        float64 // MB
	}{{"hostile", hostileBody, 4}, {"heavy", heavyBody, 16}} {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		rec := h.do(req{method: http.MethodPost, target: "/v1/redemptions", body: tc.body})
		runtime.ReadMemStats(&m1)
		mb := float64(m1.TotalAlloc-m0.TotalAlloc) / (1 << 20)
		t.Logf("%s (%d bytes): %d, %.1f MB allocated", tc.name, len(tc.body), rec.Code, mb)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", tc.name, rec.Code, rec.Body)
		}
		if mb > tc.max {
			t.Errorf("%s: %.1f MB allocated, want at most %.0f MB", tc.name, mb, tc.max)
		}
	}
}

// TestHostileBodiesAtOnce sends 64 hostile bodies and 64 of the heaviest
// bodies within the bounds at once and samples the heap while they are
// served: its growth stays within 300 MB (it was 2 GB), and every answer is
// a 400 or, for a body that found no turn to decode, a 503 with
// Retry-After. Not parallel: it reads the process's heap.
func TestHostileBodiesAtOnce(t *testing.T) {
	h := newHarness(t, httpadapter.WithLargeBodyDecodes(2))
	runtime.GC()
	heap0 := heapInUse()
	var peak atomic.Int64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			peak.Store(max(peak.Load(), int64(heapInUse()-heap0)))
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	codes := make(chan int, 128)
	for i := range 128 {
		body := hostileBody
		if i%2 == 1 {
			body = heavyBody
		}
		wg.Go(func() {
			rec := h.do(req{method: http.MethodPost, target: "/v1/redemptions", body: body})
			if rec.Code == http.StatusServiceUnavailable && rec.Header().Get("Retry-After") == "" {
				t.Errorf("503 without Retry-After")
			}
			codes <- rec.Code
		})
	}
	wg.Wait()
	close(done)
	<-sampled
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	growth := float64(peak.Load()) / (1 << 20)
	t.Logf("answers %v, heap growth at most %.0f MB", count, growth)
	if count[http.StatusBadRequest]+count[http.StatusServiceUnavailable] != 128 {
		t.Errorf("answers %v, want only 400 and 503", count)
	}
	if growth > 300 {
		t.Errorf("heap grew by %.0f MB, want at most 300 MB", growth)
	}
}
