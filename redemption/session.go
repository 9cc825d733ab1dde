package redemption

import (
	"math"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// SessionLock is the only session type: a validation carrying it reserves
// what its applicable vouchers promise.
const SessionLock = "LOCK"

// PrefixSession is the prefix of a generated session key.
const PrefixSession = "ssn_"

// Session TTL units.
const (
	UnitDays         = "DAYS"
	UnitHours        = "HOURS"
	UnitMinutes      = "MINUTES"
	UnitSeconds      = "SECONDS"
	UnitMilliseconds = "MILLISECONDS"
	UnitMicroseconds = "MICROSECONDS"
	UnitNanoseconds  = "NANOSECONDS"
)

// Defaults and bounds of a session.
const (
	// DefaultSessionTTL in DefaultSessionTTLUnit is the life of a session
	// sent with its type only.
	DefaultSessionTTL     = 7
	DefaultSessionTTLUnit = UnitDays
	// MaxSessionKey is the longest key accepted, in bytes.
	MaxSessionKey = 200
	// MaxSessionLife is the longest life a ttl may ask.
	MaxSessionLife = 10 * 365 * 24 * time.Hour
)

var sessionUnits = map[string]time.Duration{
	UnitDays: 24 * time.Hour, UnitHours: time.Hour, UnitMinutes: time.Minute, UnitSeconds: time.Second,
	UnitMilliseconds: time.Millisecond, UnitMicroseconds: time.Microsecond, UnitNanoseconds: time.Nanosecond,
}

// SessionParams is the session of a validation or redemption request:
// Type LOCK opens (or, with a known Key, overwrites) a session; a Key
// without a type names a session to use (a redemption consumes what it
// reserved). TTL (default 7) counts TTLUnit (default DAYS).
type SessionParams struct {
	Type    string   `json:"type,omitempty"`
	Key     string   `json:"key,omitempty"`
	TTL     *float64 `json:"ttl,omitempty"`
	TTLUnit string   `json:"ttl_unit,omitempty"`
}

// Session is the session an answer echoes.
type Session struct {
	Key     string  `json:"key"`
	Type    string  `json:"type"`
	TTL     float64 `json:"ttl"`
	TTLUnit string  `json:"ttl_unit"`
}

// RedemptionSession is the session a redemption used.
type RedemptionSession struct {
	Key string `json:"key"`
}

// session is a request's session once checked: the key it uses (""
// without one), whether it locks, and until when.
type session struct {
	key     string
	lock    bool
	life    time.Duration
	ttl     float64
	ttlUnit string
}

// checkSession checks p (nil: no session) and fills its defaults; newKey
// makes the key of a LOCK sent without one. Bad values are a 400
// invalid_payload.
func checkSession(p *SessionParams, newKey func() string) (*session, error) {
	if p == nil {
		return nil, nil
	}
	s := &session{key: p.Key, ttl: DefaultSessionTTL, ttlUnit: DefaultSessionTTLUnit}
	switch p.Type {
	case "":
	case SessionLock:
		s.lock = true
	default:
		return nil, promotype.InvalidPayload("Property .session.type must be equal to one of the allowed values: LOCK")
	}
	if len(p.Key) > MaxSessionKey {
		return nil, promotype.InvalidPayload("Property .session.key must NOT have more than %d characters", MaxSessionKey)
	}
	if !utf8.ValidString(p.Key) {
		return nil, promotype.InvalidPayload("Property .session.key must be valid UTF-8")
	}
	for _, r := range p.Key {
		if unicode.IsControl(r) {
			return nil, promotype.InvalidPayload("Property .session.key must not hold control characters")
		}
	}
	if p.TTLUnit != "" {
		if _, ok := sessionUnits[p.TTLUnit]; !ok {
			return nil, promotype.InvalidPayload("Property .session.ttl_unit must be equal to one of the allowed values: DAYS, HOURS, MINUTES, SECONDS, MILLISECONDS, MICROSECONDS, NANOSECONDS")
		}
		s.ttlUnit = p.TTLUnit
	}
	if p.TTL != nil {
		t := *p.TTL
		if math.IsNaN(t) || math.IsInf(t, 0) || t <= 0 {
			return nil, promotype.InvalidPayload("Property .session.ttl must be > 0")
		}
		s.ttl = t
	}
	life := s.ttl * float64(sessionUnits[s.ttlUnit])
	if life > float64(MaxSessionLife) {
		return nil, promotype.InvalidPayload("Property .session.ttl must NOT be longer than %d days", MaxSessionLife/(24*time.Hour))
	}
	s.life = max(time.Duration(life), time.Nanosecond)
	if s.lock && s.key == "" {
		s.key = newKey()
	}
	if s.key == "" && !s.lock {
		return nil, nil // an empty session: none
	}
	return s, nil
}

// echo is the session an answer shows (nil unless the request locked).
func (s *session) echo() *Session {
	if s == nil || !s.lock {
		return nil
	}
	return &Session{Key: s.key, Type: SessionLock, TTL: s.ttl, TTLUnit: s.ttlUnit}
}

// newSessionKey is "ssn_" and 32 characters of the environment's ids
// (two ids cut to 32: random ids give random keys, sequential ones
// predictable keys for tests).
func newSessionKey(ids promotype.IDGenerator) func() string {
	return func() string {
		k := ids.NewID("") + ids.NewID("")
		for len(k) < 32 {
			k += ids.NewID("")
		}
		return PrefixSession + k[len(k)-32:]
	}
}
