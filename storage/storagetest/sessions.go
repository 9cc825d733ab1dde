package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// reservation is a reservation of key on voucher v, live until expires.
func reservation(p string, v *voucher.Voucher, key string, sp redemption.Spend, expires promotype.Time) *redemption.Reservation {
	return &redemption.Reservation{ProjectID: p, VoucherID: v.ID, Key: key, Spend: sp, ExpiresAt: expires}
}

// spendAsRedeem spends as a redemption does: the fast conditional spend,
// and the session-aware one when the voucher holds reservations.
func spendAsRedeem(ctx context.Context, tx redemption.LedgerStore, p, id string, sp redemption.Spend, key string, now promotype.Time) error {
	if key == "" {
		_, err := tx.SpendVoucher(ctx, p, id, sp)
		if !errors.Is(err, redemption.ErrReserved) {
			return err
		}
	}
	return tx.SpendReserved(ctx, p, id, sp, key, now)
}

// testSessions: reservations count against what a voucher has left for
// every other key, a key's own may be spent (and is consumed), they
// expire, are released, replaced by a key's next LOCK, and the fast spend
// refuses a voucher that holds any.
func testSessions(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	now, later := at(100), at(100+60)
	keys := func(rs []*redemption.Reservation) map[string]redemption.Spend {
		m := map[string]redemption.Spend{}
		for _, r := range rs {
			m[r.Key] = r.Spend
		}
		return m
	}
	live := func(id string, at promotype.Time) map[string]redemption.Spend {
		t.Helper()
		rs, err := s.Reservations(ctx, p, id, at)
		must(t, err)
		return keys(rs)
	}

	t.Run("Quantity", func(t *testing.T) {
		v := discountVoucher(p, "", 1)
		v.RedemptionQuantity, v.RedeemedQuantity = ptr(int64(4)), 1
		must(t, s.InsertVoucher(ctx, v))
		unit := redemption.Spend{Quantity: 1}
		for _, k := range []string{"k1", "k2", "k3"} {
			must(t, s.ReserveSession(ctx, p, k, []*redemption.Reservation{reservation(p, v, k, unit, later)}, now))
		}
		wantLimit(t, "a 4th session over 1 redeemed + 3 reserved", s.ReserveSession(ctx, p, "k4",
			[]*redemption.Reservation{reservation(p, v, "k4", unit, later)}, now), redemption.LimitQuantity)
		must(t, s.ReserveSession(ctx, p, "k3", []*redemption.Reservation{reservation(p, v, "k3", unit, later)}, now)) // reuse: no extra unit
		diff(t, "live reservations", map[string]redemption.Spend{"k1": unit, "k2": unit, "k3": unit}, live(v.ID, now))
		got, err := s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		if got.ReservedUntil == nil || !got.ReservedUntil.Equal(later) {
			t.Fatalf("reserved_until %v, want %v", got.ReservedUntil, later)
		}
		if _, err := s.SpendVoucher(ctx, p, v.ID, unit); !errors.Is(err, redemption.ErrReserved) {
			t.Fatalf("fast spend on a reserved voucher: %v, want ErrReserved", err)
		}
		wantLimit(t, "a spend without a key", s.SpendReserved(ctx, p, v.ID, unit, "", now), redemption.LimitQuantity)
		wantLimit(t, "a spend with an unknown key", s.SpendReserved(ctx, p, v.ID, unit, "kx", now), redemption.LimitQuantity)
		must(t, s.SpendReserved(ctx, p, v.ID, unit, "k1", now)) // k1 uses its own unit
		diff(t, "after k1's redemption", map[string]redemption.Spend{"k2": unit, "k3": unit}, live(v.ID, now))
		wantLimit(t, "k1 again: its unit is consumed", s.SpendReserved(ctx, p, v.ID, unit, "k1", now), redemption.LimitQuantity)
		must(t, s.ReleaseReservation(ctx, p, v.ID, "k2", now))
		wantErr(t, "release twice", s.ReleaseReservation(ctx, p, v.ID, "k2", now), promotype.ErrNotFound)
		wantErr(t, "release on a missing voucher", s.ReleaseReservation(ctx, p, "v_none", "k3", now), promotype.ErrNotFound)
		wantErr(t, "release in another project", s.ReleaseReservation(ctx, "proj_b", v.ID, "k3", now), promotype.ErrNotFound)
		must(t, spendAsRedeem(ctx, s, p, v.ID, unit, "", now)) // the released unit
		got, err = s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		diff(t, "redeemed", int64(3), got.RedeemedQuantity)
		// k3's unit expires: it no longer counts, the next locked write
		// drops it and the fast spend works again.
		wantLimit(t, "before the expiry", s.SpendReserved(ctx, p, v.ID, unit, "", now), redemption.LimitQuantity)
		diff(t, "after the expiry", map[string]redemption.Spend{}, live(v.ID, later))
		must(t, s.SpendReserved(ctx, p, v.ID, unit, "", later))
		got, err = s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		if got.RedeemedQuantity != 4 || got.ReservedUntil != nil {
			t.Fatalf("after the expired session: redeemed %d, reserved_until %v; want 4 and nil", got.RedeemedQuantity, got.ReservedUntil)
		}
		must(t, spendErr(s.SpendVoucher(ctx, p, v.ID, unit.Neg()))) // a rollback
		must(t, spendErr(s.SpendVoucher(ctx, p, v.ID, unit)))       // the fast path again
		wantErr(t, "release an expired session", s.ReleaseReservation(ctx, p, v.ID, "k3", later), promotype.ErrNotFound)
	})

	t.Run("CreditsAndPoints", func(t *testing.T) {
		gift := discountVoucher(p, "", 2)
		gift.Type, gift.Discount, gift.Gift = campaign.GiftVoucher, nil, &voucher.Gift{Amount: 1000, Balance: 1000}
		loyal := discountVoucher(p, "", 3)
		loyal.Type, loyal.Discount, loyal.LoyaltyCard = campaign.LoyaltyCard, nil, &voucher.LoyaltyCard{Points: 100, Balance: 100}
		must(t, s.InsertVoucher(ctx, gift))
		must(t, s.InsertVoucher(ctx, loyal))
		// One key locks both cards.
		must(t, s.ReserveSession(ctx, p, "cart", []*redemption.Reservation{
			reservation(p, gift, "cart", redemption.Spend{Credits: 700}, later),
			reservation(p, loyal, "cart", redemption.Spend{Points: 60}, later)}, now))
		wantLimit(t, "credits over the unreserved balance", s.ReserveSession(ctx, p, "other",
			[]*redemption.Reservation{reservation(p, gift, "other", redemption.Spend{Credits: 301}, later)}, now), redemption.LimitGift)
		wantLimit(t, "points over the unreserved balance", s.ReserveSession(ctx, p, "other",
			[]*redemption.Reservation{reservation(p, loyal, "other", redemption.Spend{Points: 41}, later)}, now), redemption.LimitPoints)
		diff(t, "a refused session stores nothing", map[string]redemption.Spend{}, keys(mustReservations(t, s, p, "other", gift.ID, loyal.ID)))
		wantLimit(t, "a redemption without the key", spendAsRedeem(ctx, s, p, gift.ID, redemption.Spend{Quantity: 1, Credits: 301}, "", now), redemption.LimitGift)
		must(t, spendAsRedeem(ctx, s, p, gift.ID, redemption.Spend{Quantity: 1, Credits: 300}, "", now))
		must(t, spendAsRedeem(ctx, s, p, gift.ID, redemption.Spend{Quantity: 1, Credits: 700}, "cart", now))
		got, err := s.GetVoucher(ctx, p, gift.ID)
		must(t, err)
		diff(t, "gift balance", int64(0), got.Gift.Balance)
		diff(t, "the loyalty lock stays", map[string]redemption.Spend{"cart": {Points: 60}}, live(loyal.ID, now))
		// The key's next LOCK replaces its reservations: the loyalty card's goes.
		must(t, s.ReserveSession(ctx, p, "cart", nil, now))
		diff(t, "after the key's empty LOCK", map[string]redemption.Spend{}, live(loyal.ID, now))
		must(t, spendAsRedeem(ctx, s, p, loyal.ID, redemption.Spend{Quantity: 1, Points: 100}, "", now))
	})

	t.Run("Transactions", func(t *testing.T) {
		v := discountVoucher(p, "", 4)
		v.RedemptionQuantity = ptr(int64(1))
		must(t, s.InsertVoucher(ctx, v))
		must(t, s.ReserveSession(ctx, p, "k", []*redemption.Reservation{reservation(p, v, "k", redemption.Spend{Quantity: 1}, later)}, now))
		boom := errors.New("boom")
		err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			must(t, tx.SpendReserved(ctx, p, v.ID, redemption.Spend{Quantity: 1}, "k", now))
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("transaction: %v", err)
		}
		diff(t, "a rolled back redemption keeps the session", map[string]redemption.Spend{"k": {Quantity: 1}}, live(v.ID, now))
		wantErr(t, "a missing voucher", s.ReserveSession(ctx, p, "k2", []*redemption.Reservation{{ProjectID: p, VoucherID: "v_none", Key: "k2", Spend: redemption.Spend{Quantity: 1}, ExpiresAt: later}}, now), promotype.ErrNotFound)
	})

	t.Run("Concurrency", func(t *testing.T) { testSessionConcurrency(t, s, p) })
}

func mustReservations(t *testing.T, s storage.Store, p, key string, ids ...string) []*redemption.Reservation {
	t.Helper()
	var out []*redemption.Reservation
	for _, id := range ids {
		rs, err := s.Reservations(ctx, p, id, at(100))
		must(t, err)
		for _, r := range rs {
			if r.Key == key {
				out = append(out, r)
			}
		}
	}
	return out
}

// testSessionConcurrency: N ≫ Q concurrent sessions get exactly Q units;
// sessions racing redemptions never hand out more than Q in all.
func testSessionConcurrency(t *testing.T, s storage.Store, p string) {
	const n, q = 40, 5
	now, later := at(100), at(200)
	run := func(what string, f func(i int) error) (int, []error) {
		return runConcurrently(t, what, n, f)
	}
	unit := redemption.Spend{Quantity: 1}

	v := discountVoucher(p, "", 20)
	v.RedemptionQuantity = ptr(int64(q))
	must(t, s.InsertVoucher(ctx, v))
	ok, errs := run("sessions", func(i int) error {
		k := fmt.Sprintf("k%d", i)
		return s.ReserveSession(ctx, p, k, []*redemption.Reservation{reservation(p, v, k, unit, later)}, now)
	})
	for _, err := range errs {
		wantLimit(t, "a refused session", err, redemption.LimitQuantity)
	}
	rs, err := s.Reservations(ctx, p, v.ID, now)
	must(t, err)
	if ok != q || len(rs) != q {
		t.Errorf("sessions granted %d, stored %d; want %d", ok, len(rs), q)
	}

	// Half the goroutines lock, half redeem without a key.
	w := discountVoucher(p, "", 21)
	w.RedemptionQuantity = ptr(int64(q))
	must(t, s.InsertVoucher(ctx, w))
	var mu sync.Mutex
	locked, redeemed := 0, 0
	_, errs = run("sessions and redemptions", func(i int) error {
		k := fmt.Sprintf("m%d", i)
		var err error
		if i%2 == 0 {
			err = s.ReserveSession(ctx, p, k, []*redemption.Reservation{reservation(p, w, k, unit, later)}, now)
		} else {
			err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				return spendAsRedeem(ctx, tx, p, w.ID, unit, "", now)
			})
		}
		if err == nil {
			mu.Lock()
			if i%2 == 0 {
				locked++
			} else {
				redeemed++
			}
			mu.Unlock()
		}
		return err
	})
	for _, err := range errs {
		wantLimit(t, "a refusal", err, redemption.LimitQuantity)
	}
	got, err := s.GetVoucher(ctx, p, w.ID)
	must(t, err)
	rs, err = s.Reservations(ctx, p, w.ID, now)
	must(t, err)
	if got.RedeemedQuantity != int64(redeemed) || len(rs) != locked || redeemed+locked != q {
		t.Errorf("redeemed %d (voucher says %d), locked %d (stored %d); want them to add up to %d",
			redeemed, got.RedeemedQuantity, locked, len(rs), q)
	}
}
