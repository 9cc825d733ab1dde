package redemption

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// Reservation is what a LOCK session holds on one voucher: a unit of its redemption quantity (vouchers with a limit), gift
// credits, loyalty points. It counts as spent for every request that does
// not bear its key until it expires, is released or a redemption with its
// key consumes it.
type Reservation struct {
	ProjectID string
	VoucherID string
	Key       string
	Spend     Spend // Quantity 0 or 1; Credits, Points ≥ 0
	ExpiresAt promotype.Time
}

// Live reports whether r still counts at now.
func (r *Reservation) Live(now promotype.Time) bool { return r.ExpiresAt.After(now.Time) }

// ErrReserved is SpendVoucher's refusal of a voucher that holds session
// reservations: the caller spends through SpendReserved, which counts them.
var ErrReserved = errors.New("redemption: the voucher holds session reservations")

// SessionStore is the storage port of session reservations. A voucher's
// ReservedUntil is nil when it holds no live reservation: every write of a
// reservation sets it under the voucher's row lock, so SpendVoucher (the
// fast path) only has to check it, and the session-aware methods below
// count the reservations under that lock.
type SessionStore interface {
	// ReserveSession replaces every reservation of key in the project by
	// rs (all on distinct vouchers of the project, with the same key and
	// a live ExpiresAt): each must fit, with the live reservations of
	// other keys on its voucher at now, in what the voucher has left
	// (redemption quantity − redeemed, gift and loyalty balances), else
	// the whole change is refused with a *LimitError naming the voucher.
	// not_found for a missing voucher.
	ReserveSession(ctx context.Context, projectID, key string, rs []*Reservation, now promotype.Time) error
	// Reservations returns the live reservations (at now) on voucher id.
	Reservations(ctx context.Context, projectID, voucherID string, now promotype.Time) ([]*Reservation, error)
	// SpendReserved is SpendVoucher for a voucher that may hold
	// reservations: the live reservations of keys other than key count
	// as spent; the reservation of key on the voucher (if any) is
	// consumed. Rollbacks (negative spends) always apply. not_found for a
	// missing voucher.
	SpendReserved(ctx context.Context, projectID, voucherID string, s Spend, key string, now promotype.Time) error
	// ReleaseReservation deletes the live reservation of key on the
	// voucher; not_found (resource session) when there is none.
	ReleaseReservation(ctx context.Context, projectID, voucherID, key string, now promotype.Time) error
}

// Left is what a voucher has left for a spend once the reservations rs
// (of other keys) are counted: the limit a spend s breaks, "" when it fits.
// quantity is the redemption quantity (nil: unlimited), redeemed the
// redeemed quantity, gift and points the balances (nil: not that card).
func Left(quantity *int64, redeemed int64, gift, points *int64, rs []*Reservation, s Spend) string {
	var held Spend
	for _, r := range rs {
		held.Quantity += r.Spend.Quantity
		held.Credits += r.Spend.Credits
		held.Points += r.Spend.Points
	}
	switch {
	case s.Quantity > 0 && quantity != nil && redeemed+held.Quantity+s.Quantity > *quantity:
		return LimitQuantity
	case s.Credits > 0 && (gift == nil || *gift-held.Credits < s.Credits):
		return LimitGift
	case s.Points > 0 && (points == nil || *points-held.Points < s.Points):
		return LimitPoints
	}
	return ""
}
