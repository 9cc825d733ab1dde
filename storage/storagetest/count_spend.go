package storagetest

import (
	"context"
	"errors"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// spendFixtures stores, in project p, the vouchers the spend tests spend:
// one of quantity 2 (v_001), a gift card of balance 900 (v_002) and one a
// session reserves (v_003).
func spendFixtures(t *testing.T, s storage.Store, p string) (q2, gift, reserved *voucher.Voucher) {
	q2 = discountVoucher(p, "", 1)
	q2.RedemptionQuantity = ptr(int64(2))
	gift = fullVoucher(p, 2) // balance 900, quantity 5 with 2 redeemed
	reserved = discountVoucher(p, "", 3)
	for _, v := range []*voucher.Voucher{q2, gift, reserved} {
		must(t, s.InsertVoucher(ctx, v))
	}
	must(t, s.ReserveSession(ctx, p, "k1", []*redemption.Reservation{reservation(p, reserved, "k1", redemption.Spend{Quantity: 1}, at(160))}, at(100)))
	return q2, gift, reserved
}

// testCountAndSpend: AddCountersReadSpend is AddCountersRead then
// SpendVoucher. The counters apply and are read back whatever the spend's
// outcome (the transaction decides), the spend answers as SpendVoucher
// does (the voucher it left; a *LimitError; ErrReserved; not_found), and a
// delta with a Max keeps its limit.
func testCountAndSpend(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q2, gift, reserved := spendFixtures(t, s, p)
	ds := []redemption.CounterDelta{{Key: "k:a", Delta: 1}, {Key: "k:b", Delta: 3}, {Key: "k:a", Delta: 1}}
	errUndo := errors.New("undo")

	cases := []struct {
		name    string
		voucher string
		spend   redemption.Spend
		ds      []redemption.CounterDelta
		check   func(t *testing.T, v *voucher.Voucher, err error)
	}{
		{"a spend that applies", q2.ID, redemption.Spend{Quantity: 1}, ds, func(t *testing.T, v *voucher.Voucher, err error) {
			must(t, err)
			if v == nil || v.RedeemedQuantity != 1 {
				t.Fatalf("the voucher the spend left: %+v, want 1 redeemed", v)
			}
		}},
		{"over the quantity", q2.ID, redemption.Spend{Quantity: 3}, ds, func(t *testing.T, _ *voucher.Voucher, err error) {
			wantLimit(t, "over the quantity", err, redemption.LimitQuantity)
		}},
		{"over the gift balance", gift.ID, redemption.Spend{Quantity: 1, Credits: 901}, ds, func(t *testing.T, _ *voucher.Voucher, err error) {
			wantLimit(t, "over the balance", err, redemption.LimitGift)
		}},
		{"a voucher sessions reserve", reserved.ID, redemption.Spend{Quantity: 1}, ds, func(t *testing.T, _ *voucher.Voucher, err error) {
			if !errors.Is(err, redemption.ErrReserved) {
				t.Fatalf("got %v, want ErrReserved", err)
			}
		}},
		{"an unknown voucher", "v_none", redemption.Spend{Quantity: 1}, ds, func(t *testing.T, _ *voucher.Voucher, err error) {
			wantErr(t, "an unknown voucher", err, promotype.ErrNotFound)
		}},
		{"a delta over its Max", q2.ID, redemption.Spend{Quantity: 1}, []redemption.CounterDelta{{Key: "k:a", Delta: 1, Max: ptr(int64(0))}},
			func(t *testing.T, _ *voucher.Voucher, err error) {
				wantLimit(t, "a capped delta", err, redemption.LimitCounter)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := s.Counters(ctx, p, "k:a", "k:b")
			must(t, err)
			err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				now, v, err := tx.AddCountersReadSpend(ctx, p, []string{"k:a"}, c.ds, c.voucher, c.spend)
				c.check(t, v, err)
				if c.ds[0].Max != nil {
					return errUndo
				}
				diff(t, "k:a read back", map[string]int64{"k:a": before["k:a"] + 2}, now)
				got, err := tx.Counters(ctx, p, "k:b")
				must(t, err)
				diff(t, "k:b in the transaction", before["k:b"]+3, got["k:b"])
				return errUndo
			})
			if !errors.Is(err, errUndo) {
				t.Fatalf("RunInTx = %v", err)
			}
		})
	}
	got, err := s.Counters(ctx, p, "k:a", "k:b")
	must(t, err)
	diff(t, "counters after the rolled-back transactions", map[string]int64{"k:a": 0, "k:b": 0}, got)
	v, err := s.GetVoucher(ctx, p, q2.ID)
	must(t, err)
	diff(t, "the quantity after the rolled-back spend", int64(0), v.RedeemedQuantity)

	// Committed: the counters and the spend stay.
	var left *voucher.Voucher
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) (err error) {
		_, left, err = tx.AddCountersReadSpend(ctx, p, nil, ds, q2.ID, redemption.Spend{Quantity: 1})
		return err
	}))
	stored, err := s.GetVoucher(ctx, p, q2.ID)
	must(t, err)
	diff(t, "the voucher the spend left is the stored one", stored, left)
	got, err = s.Counters(ctx, p, "k:a", "k:b")
	must(t, err)
	diff(t, "committed counters", map[string]int64{"k:a": 2, "k:b": 3}, got)
}
