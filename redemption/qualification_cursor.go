package redemption

import (
	"bytes"
	"encoding/json"
	"reflect"
	"time"

	"github.com/promoengine/promo/promotype"
)

// maxCursorSkip is the most redeemables sharing one created_at a cursor
// can count (the nanoseconds below the millisecond).
const maxCursorSkip = 999_999

// Cursor is a qualification page's cursor (options.starting_after,
// redeemables.more_starting_after): the redeemables created before At,
// and, when Skip > 0, those created at At but the first Skip of them
// (lowest id first). On the wire it is a date-time: At with millisecond
// precision, as the hosted service documents (the created_at of a page's
// last redeemable, which then keeps the redeemables created strictly
// before it), and Skip in the nanoseconds below the millisecond, so that
// a page ending inside a group of redeemables sharing a created_at is
// followed by the rest of the group, not by the next instant.
//
// Under BEST_DEAL and LEAST_DEAL, whose order is not by created_at, the
// next page's cursor is At = OffsetAt (9999-12-31T23:59:59.999Z) with Skip
// the count of redeemables the pages so far showed: the next page goes on
// in the same order after them.
type Cursor struct {
	At   promotype.Time
	Skip int
}

// CursorAt returns the cursor of the redeemables created before at.
func CursorAt(at promotype.Time) *Cursor { return &Cursor{At: at} }

// OffsetAt is the instant of a cursor that counts redeemables in the
// sorting rule's order instead of bounding created_at.
var OffsetAt = promotype.NewTime(time.Date(9999, 12, 31, 23, 59, 59, 999_000_000, time.UTC))

// offset is how many redeemables of the sorting rule's order c skips (an
// OffsetAt cursor; 0 otherwise).
func (c *Cursor) offset() int {
	if c == nil || !c.At.Equal(OffsetAt) {
		return 0
	}
	return c.Skip
}

// MarshalJSON writes the cursor as an RFC 3339 date-time.
func (c Cursor) MarshalJSON() ([]byte, error) {
	if c.Skip == 0 {
		return c.At.MarshalJSON()
	}
	t := c.At.UTC().Add(time.Duration(min(c.Skip, maxCursorSkip)))
	return json.Marshal(t.Format("2006-01-02T15:04:05.000000000Z07:00"))
}

// UnmarshalJSON reads a date-time (or a date); nanoseconds below the
// millisecond are the Skip count.
func (c *Cursor) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: "non-string", Type: reflect.TypeFor[Cursor]()}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		at := promotype.NewTime(t)
		*c = Cursor{At: at, Skip: int(t.UTC().Sub(at.Time))}
		return nil
	}
	at, err := promotype.ParseTime(s)
	if err != nil {
		return &json.UnmarshalTypeError{Value: "string " + string(b), Type: reflect.TypeFor[Cursor]()}
	}
	*c = Cursor{At: at}
	return nil
}

// admits reports whether a redeemable created at t may be on the page
// after c (those at c.At are sorted out after evaluation, see tied).
func (c *Cursor) admits(t promotype.Time) bool {
	if c == nil || c.offset() > 0 {
		return true
	}
	return t.Before(c.At.Time) || (c.Skip > 0 && t.Equal(c.At))
}

// tied reports whether a redeemable created at t is in the group the
// cursor skips part of.
func (c *Cursor) tied(t promotype.Time) bool {
	return c != nil && c.Skip > 0 && t.Equal(c.At) && c.offset() == 0
}
