package redemption

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCheckSession: defaults (7 DAYS), units, the generated key, a key
// alone (no lock), and the 400s of bad values.
func TestCheckSession(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	gen := func() string { return "ssn_generated" }
	for _, tc := range []struct {
		name string
		in   *SessionParams
		want *session // nil with wantErr false: no session
		err  bool
	}{
		{"none", nil, nil, false},
		{"empty", &SessionParams{}, nil, false},
		{"type only", &SessionParams{Type: "LOCK"}, &session{key: "ssn_generated", lock: true, life: 7 * 24 * time.Hour, ttl: 7, ttlUnit: "DAYS"}, false},
		{"key only", &SessionParams{Key: "cart"}, &session{key: "cart", life: 7 * 24 * time.Hour, ttl: 7, ttlUnit: "DAYS"}, false},
		{"hours", &SessionParams{Type: "LOCK", Key: "k", TTL: f(1.5), TTLUnit: "HOURS"}, &session{key: "k", lock: true, life: 90 * time.Minute, ttl: 1.5, ttlUnit: "HOURS"}, false},
		{"unit alone", &SessionParams{Type: "LOCK", Key: "k", TTLUnit: "MINUTES"}, &session{key: "k", lock: true, life: 7 * time.Minute, ttl: 7, ttlUnit: "MINUTES"}, false},
		{"nanoseconds", &SessionParams{Type: "LOCK", Key: "k", TTL: f(0.5), TTLUnit: "NANOSECONDS"}, &session{key: "k", lock: true, life: time.Nanosecond, ttl: 0.5, ttlUnit: "NANOSECONDS"}, false},
		{"type", &SessionParams{Type: "lock"}, nil, true},
		{"zero ttl", &SessionParams{Type: "LOCK", TTL: f(0)}, nil, true},
		{"negative ttl", &SessionParams{Type: "LOCK", TTL: f(-3)}, nil, true},
		{"ttl beyond ten years", &SessionParams{Type: "LOCK", TTL: f(3651), TTLUnit: "DAYS"}, nil, true},
		{"unit", &SessionParams{Type: "LOCK", TTLUnit: "WEEKS"}, nil, true},
		{"long key", &SessionParams{Type: "LOCK", Key: string(make([]byte, MaxSessionKey+1))}, nil, true},
		{"control key", &SessionParams{Key: "a\nb"}, nil, true},
		{"bad utf-8 key", &SessionParams{Key: "\xff"}, nil, true},
	} {
		got, err := checkSession(tc.in, gen)
		if (err != nil) != tc.err {
			t.Errorf("%s: error %v, want error %v", tc.name, err, tc.err)
			continue
		}
		if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(session{})); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}
