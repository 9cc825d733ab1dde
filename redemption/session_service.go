package redemption

import (
	"context"
	"errors"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// requestKey is the session key a request names ("" without one): the
// reservations held under it are the request's own.
func requestKey(p *SessionParams) string {
	if p == nil {
		return ""
	}
	return p.Key
}

// evaluateLocked evaluates a validation and, for a LOCK session, reserves
// what its applicable vouchers promise. A reservation refused because a
// concurrent session or redemption took what was left makes it evaluate
// again against what they left; so does a transient store conflict (a
// deadlock with a redemption locking the same vouchers in another order).
func (s *Service) evaluateLocked(ctx context.Context, projectID string, in ValidationParams, rules *StackingRules, sess *session) (*resolver, *Outcome, string, error) {
	var retries promotype.Retries
	for range maxAttempts {
		r, out, tracking, err := s.evaluate(ctx, projectID, in, rules)
		if err != nil || sess == nil || !sess.lock {
			return r, out, tracking, err
		}
		err = s.lock(ctx, projectID, sess, r, out)
		var le *LimitError
		if errors.As(err, &le) || retries.Again(ctx, err) {
			continue
		}
		if err != nil {
			return nil, nil, "", retries.Final(err)
		}
		return r, out, tracking, nil
	}
	return nil, nil, "", promotype.BadRequest("multiple_requests", "Multiple requests", "The redeemables are in use by other requests; try again")
}

// lock replaces the session's reservations by what the applicable
// vouchers of out promise: a unit of a limited quantity, the gift credits
// and the loyalty points they take; one key locks every voucher of a
// stacked call. An
// invalid outcome (under ALL, one failure) reserves nothing: a redemption
// of it would redeem nothing.
func (s *Service) lock(ctx context.Context, projectID string, sess *session, r *resolver, out *Outcome) error {
	now := s.env.Clock.Now()
	expires := promotype.NewTime(now.Add(sess.life))
	var rs []*Reservation
	byVoucher := map[string]*Reservation{}
	for i := range out.Steps {
		st := &out.Steps[i]
		sh := &r.shows[st.Index]
		if !out.Valid || st.Status != Applicable || sh.object != ObjectVoucher || sh.voucher == nil {
			continue
		}
		v := sh.voucher
		sp := Spend{Credits: st.Credits, Points: st.Points}
		if v.RedemptionQuantity != nil {
			sp.Quantity = 1
		}
		if prev := byVoucher[v.ID]; prev != nil { // the same voucher by code and by id
			prev.Spend.Quantity += sp.Quantity
			prev.Spend.Credits += sp.Credits
			prev.Spend.Points += sp.Points
			continue
		}
		res := &Reservation{ProjectID: projectID, VoucherID: v.ID, Key: sess.key, Spend: sp, ExpiresAt: expires}
		byVoucher[v.ID] = res
		rs = append(rs, res)
	}
	return s.store.ReserveSession(ctx, projectID, sess.key, rs, now)
}

// unreserved is v as the request sees it: the live reservations of other
// sessions count as redeemed units and spent credits and points. A
// voucher without a live reservation costs nothing more to read.
func (r *resolver) unreserved(ctx context.Context, v *voucher.Voucher) (*voucher.Voucher, error) {
	if v.ReservedUntil == nil || !v.ReservedUntil.After(r.now) {
		return v, nil
	}
	rs, err := r.s.store.Reservations(ctx, r.projectID, v.ID, promotype.NewTime(r.now))
	if err != nil {
		return nil, err
	}
	var held Spend
	for _, x := range rs {
		if r.key != "" && x.Key == r.key {
			continue
		}
		held.Quantity += x.Spend.Quantity
		held.Credits += x.Spend.Credits
		held.Points += x.Spend.Points
	}
	if held == (Spend{}) {
		return v, nil
	}
	c := v.Clone()
	c.RedeemedQuantity += held.Quantity
	if c.Gift != nil {
		c.Gift.Balance -= held.Credits
	}
	if c.LoyaltyCard != nil {
		c.LoyaltyCard.Balance -= held.Points
	}
	return c, nil
}

// ReleaseSession releases the session key's reservation on the voucher
// with code (or id) ref (DELETE /v1/vouchers/{code}/sessions/{key}): only
// that voucher's; the session's reservations on other vouchers stay
// (one key may lock several vouchers). not_found for an unknown voucher or a session that
// holds nothing live on it (resource type "session").
func (s *Service) ReleaseSession(ctx context.Context, projectID, ref, key string) error {
	v, err := s.store.FindVoucherByCode(ctx, projectID, ref)
	if errors.Is(err, promotype.ErrNotFound) && strings.HasPrefix(ref, promotype.PrefixVoucher) {
		v, err = s.store.GetVoucher(ctx, projectID, ref)
	}
	if errors.Is(err, promotype.ErrNotFound) {
		return promotype.NotFound("voucher", ref)
	}
	if err != nil {
		return err
	}
	if key == "" || len(key) > MaxSessionKey {
		return promotype.NotFound("session", key)
	}
	return s.store.ReleaseReservation(ctx, projectID, v.ID, key, s.env.Clock.Now())
}

// spendVoucher takes sp from voucher id: the plain conditional spend for a
// request without a session on a voucher without reservations (the fast
// path), else the spend that counts the others' reservations and consumes
// the request's own.
func (w *write) spendVoucher(ctx context.Context, st RedeemStore, id string, sp Spend) (*voucher.Voucher, error) {
	key := requestKey(w.in.Session)
	if key == "" {
		v, err := st.SpendVoucher(ctx, w.projectID, id, sp)
		if !errors.Is(err, ErrReserved) {
			return v, err
		}
	}
	if err := st.SpendReserved(ctx, w.projectID, id, sp, key, w.now); err != nil {
		return nil, err
	}
	return st.GetVoucher(ctx, w.projectID, id)
}
