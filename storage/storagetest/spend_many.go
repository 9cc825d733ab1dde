package storagetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// testSpendVouchers: SpendVouchers is SpendVoucher of each spend in
// order. It returns the vouchers the spends left; at a refused one it
// returns those spent before it and the refusal (a *LimitError,
// ErrReserved, not_found), and the transaction undoes the rest.
func testSpendVouchers(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q2, gift, reserved := spendFixtures(t, s, p)
	plain := discountVoucher(p, "", 4)
	must(t, s.InsertVoucher(ctx, plain))
	spend := func(id string, sp redemption.Spend) redemption.VoucherSpend {
		return redemption.VoucherSpend{VoucherID: id, Spend: sp}
	}
	one := redemption.Spend{Quantity: 1}
	errUndo := errors.New("undo")

	refusals := []struct {
		name  string
		ss    []redemption.VoucherSpend
		spent int // how many spends before the refused one
		check func(t *testing.T, err error)
	}{
		{"over the quantity", []redemption.VoucherSpend{spend(q2.ID, redemption.Spend{Quantity: 3}), spend(gift.ID, one)}, 0,
			func(t *testing.T, err error) { wantLimit(t, "over the quantity", err, redemption.LimitQuantity) }},
		{"over the gift balance, second", []redemption.VoucherSpend{spend(q2.ID, one), spend(gift.ID, redemption.Spend{Quantity: 1, Credits: 901}), spend(plain.ID, one)}, 1,
			func(t *testing.T, err error) { wantLimit(t, "over the balance", err, redemption.LimitGift) }},
		{"a voucher sessions reserve, last", []redemption.VoucherSpend{spend(q2.ID, one), spend(gift.ID, one), spend(reserved.ID, one)}, 2,
			func(t *testing.T, err error) {
				if !errors.Is(err, redemption.ErrReserved) {
					t.Fatalf("got %v, want ErrReserved", err)
				}
			}},
		{"an unknown voucher", []redemption.VoucherSpend{spend(q2.ID, one), spend("v_none", one)}, 1,
			func(t *testing.T, err error) { wantErr(t, "an unknown voucher", err, promotype.ErrNotFound) }},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			if !slices.IsSortedFunc(c.ss, func(a, b redemption.VoucherSpend) int { return strings.Compare(a.VoucherID, b.VoucherID) }) {
				t.Fatal("the spends are not in voucher order, as SpendVouchers takes them")
			}
			err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				spent, err := tx.SpendVouchers(ctx, p, c.ss)
				c.check(t, err)
				diff(t, "vouchers spent before the refused one", c.spent, len(spent))
				for i, v := range spent {
					diff(t, "the voucher a spend left", c.ss[i].VoucherID, v.ID)
				}
				return errUndo
			})
			if !errors.Is(err, errUndo) {
				t.Fatalf("RunInTx = %v", err)
			}
		})
	}
	for _, v := range []*voucher.Voucher{q2, gift, plain} {
		got, err := s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		diff(t, v.ID+" after the rolled-back spends", v.RedeemedQuantity, got.RedeemedQuantity)
	}

	// Committed: every spend stays, and each returned voucher is the
	// stored one.
	var left []*voucher.Voucher
	ss := []redemption.VoucherSpend{spend(q2.ID, redemption.Spend{Quantity: 2}), spend(gift.ID, redemption.Spend{Quantity: 1, Credits: 300}), spend(plain.ID, one)}
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) (err error) {
		left, err = tx.SpendVouchers(ctx, p, ss)
		return err
	}))
	var stored []*voucher.Voucher
	for _, sp := range ss {
		v, err := s.GetVoucher(ctx, p, sp.VoucherID)
		must(t, err)
		stored = append(stored, v)
	}
	diff(t, "the vouchers the spends left are the stored ones", stored, left)
	diff(t, "redeemed quantities", []int64{2, 3, 1}, []int64{stored[0].RedeemedQuantity, stored[1].RedeemedQuantity, stored[2].RedeemedQuantity})
	diff(t, "gift balance", int64(600), stored[1].Gift.Balance)
}

// testSpendVouchersConcurrency: transactions that spend overlapping sets
// of vouchers at once, half with SpendVouchers and half one SpendVoucher
// at a time in the same order, never deadlock (SpendVouchers locks in id
// order, as the one-by-one spends do) and never pass a voucher's
// quantity; each voucher's redeemed quantity is the number of committed
// transactions that spent it.
func testSpendVouchersConcurrency(t *testing.T, newStore Factory) {
	const vouchers, quantity, txs, each = 6, 20, 60, 3
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	ids := make([]string, vouchers)
	for i := range vouchers {
		v := discountVoucher(p, "", i+1)
		v.RedemptionQuantity = ptr(int64(quantity))
		must(t, s.InsertVoucher(ctx, v))
		ids[i] = v.ID
	}
	sets := make([][]redemption.VoucherSpend, txs)
	for i := range txs {
		for k := range each { // vouchers i, i+2, i+4 (mod 6): every pair of sets overlaps in a different order
			sets[i] = append(sets[i], redemption.VoucherSpend{VoucherID: ids[(i+2*k)%vouchers], Spend: redemption.Spend{Quantity: 1}})
		}
		slices.SortFunc(sets[i], func(a, b redemption.VoucherSpend) int { return strings.Compare(a.VoucherID, b.VoucherID) })
	}
	committed := make([]bool, txs) // each goroutine sets its own
	ok, errs := runConcurrently(t, "spend voucher sets", txs, func(i int) error {
		err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			var err error
			if i%2 == 0 {
				_, err = tx.SpendVouchers(ctx, p, sets[i])
			} else {
				_, err = redemption.SpendEach(ctx, tx, p, sets[i])
			}
			return err
		})
		committed[i] = err == nil
		return err
	})
	for _, err := range errs {
		wantLimit(t, "a refused set", err, redemption.LimitQuantity)
	}
	if ok == 0 {
		t.Fatal("no set committed")
	}
	want, got := map[string]int64{}, map[string]int64{}
	for i, sp := range sets {
		for _, v := range sp {
			if committed[i] {
				want[v.VoucherID]++
			}
		}
	}
	for _, id := range ids {
		v, err := s.GetVoucher(ctx, p, id)
		must(t, err)
		if v.RedeemedQuantity > quantity {
			t.Errorf("%s: redeemed %d, over its quantity %d", id, v.RedeemedQuantity, quantity)
		}
		if v.RedeemedQuantity > 0 {
			got[id] = v.RedeemedQuantity
		}
	}
	diff(t, "each voucher's redeemed quantity is the committed sets that spent it", want, got)
}
