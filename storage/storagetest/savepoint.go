package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
)

// testSavepoint: a failing Savepoint undoes only what its fn wrote and
// leaves the transaction usable; a succeeding one keeps its writes, and the
// transaction commits them all.
func testSavepoint(t *testing.T, newStore Factory) {
	s := newStore(t)
	testSavepointIn(t, s, s.RunInTx)
}

// testSavepointIn is testSavepoint's case in the transactions run opens.
func testSavepointIn(t *testing.T, s storage.Store, run func(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error) {
	p := newProject(t, s, "proj_a")
	v := discountVoucher(p, "", 20)
	v.RedemptionQuantity = ptr(int64(2))
	must(t, s.InsertVoucher(ctx, v))
	errBoom := errors.New("boom")
	var outcomes []error
	err := run(ctx, func(ctx context.Context, tx storage.Tx) error {
		part := func(r *redemption.Redemption, fail error) error {
			return tx.Savepoint(ctx, func(ctx context.Context) error {
				if _, err := tx.SpendVoucher(ctx, p, v.ID, r.Ledger.Spend); err != nil {
					return err
				}
				if err := tx.InsertRedemptions(ctx, r); err != nil {
					return err
				}
				return fail
			})
		}
		outcomes = []error{
			part(ledgerRow(p, 1, v, "", redemption.Spend{Quantity: 1}), nil),
			part(ledgerRow(p, 2, v, "", redemption.Spend{Quantity: 1}), errBoom),   // spent and written, then undone
			part(ledgerRow(p, 1, v, "", redemption.Spend{Quantity: 1}), nil),       // a taken id: duplicate_found
			part(ledgerRow(p, 3, v, "", redemption.Spend{Quantity: 1}), nil),       // the second unit
			part(ledgerRow(p, 4, v, "", redemption.Spend{Quantity: 1}), nil),       // over the quantity
			part(ledgerRow(p, 5, v, "", redemption.Spend{Quantity: 1}.Neg()), nil), // a give-back still applies
		}
		return nil
	})
	must(t, err)
	if len(outcomes) != 6 || outcomes[0] != nil || !errors.Is(outcomes[1], errBoom) || !errors.Is(outcomes[2], promotype.ErrDuplicateFound) ||
		outcomes[3] != nil || outcomes[5] != nil {
		t.Fatalf("outcomes %v: want nil, boom, duplicate_found, nil, a quantity LimitError, nil", outcomes)
	}
	wantLimit(t, "over the quantity in a savepoint", outcomes[4], redemption.LimitQuantity)
	got, err := s.GetVoucher(ctx, p, v.ID)
	must(t, err)
	rs, _, err := s.ListRedemptions(ctx, p, promotype.Query{Limit: 10, OrderBy: "id"})
	must(t, err)
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	diff(t, "redeemed quantity and rows after the savepoints", []any{int64(1), []string{"r_001", "r_003", "r_005"}}, []any{got.RedeemedQuantity, ids})

	// A transaction that fails undoes its succeeded savepoints too.
	err = run(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.Savepoint(ctx, func(ctx context.Context) error {
			return spendErr(tx.SpendVoucher(ctx, p, v.ID, redemption.Spend{Quantity: 1}))
		}))
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("failing transaction: %v", err)
	}
	got, err = s.GetVoucher(ctx, p, v.ID)
	must(t, err)
	diff(t, "redeemed quantity after a failed transaction", int64(1), got.RedeemedQuantity)
}

// testHotVoucher: 200 concurrent redemptions of one voucher of quantity 50,
// alone and in batches of several redemptions per transaction (each in a
// savepoint, as the redemption combiner writes them), give exactly 50
// successes and 150 quantity refusals, and the voucher's redeemed quantity
// equals its ledger.
func testHotVoucher(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	const n, q = 200, 50
	for _, batch := range []int{1, 8} {
		t.Run(fmt.Sprintf("Batch%d", batch), func(t *testing.T) {
			v := discountVoucher(p, "", 30+batch)
			v.RedemptionQuantity = ptr(int64(q))
			must(t, s.InsertVoucher(ctx, v))
			outcomes := make([]error, n)
			var wg sync.WaitGroup
			done := make(chan struct{})
			for g := 0; g < n; g += batch {
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
						for i := g; i < min(n, g+batch); i++ {
							r := ledgerRow(p, 10_000*batch+i, v, "", redemption.Spend{Quantity: 1})
							outcomes[i] = tx.Savepoint(ctx, func(ctx context.Context) error {
								if _, err := tx.SpendVoucher(ctx, p, v.ID, r.Ledger.Spend); err != nil {
									return err
								}
								return tx.InsertRedemptions(ctx, r)
							})
						}
						return nil
					})
					if err != nil {
						for i := g; i < min(n, g+batch); i++ {
							outcomes[i] = err
						}
					}
				}()
			}
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Minute):
				t.Fatalf("%d redemptions did not finish in 2 minutes", n)
			}
			ok, refused := 0, 0
			for i, err := range outcomes {
				var le *redemption.LimitError
				switch {
				case err == nil:
					ok++
				case errors.As(err, &le) && le.Limit == redemption.LimitQuantity:
					refused++
				default:
					t.Errorf("redemption %d: %v", i, err)
				}
			}
			got, err := s.GetVoucher(ctx, p, v.ID)
			must(t, err)
			rs, _, err := s.ListRedemptions(ctx, p, promotype.Query{Limit: 2 * n, OrderBy: "id"})
			must(t, err)
			rows := 0
			for _, r := range rs {
				if r.Ledger.VoucherID == v.ID {
					rows++
				}
			}
			diff(t, "successes, refusals, redeemed quantity, ledger rows", []int64{q, n - q, q, q},
				[]int64{int64(ok), int64(refused), got.RedeemedQuantity, int64(rows)})
		})
	}
}
