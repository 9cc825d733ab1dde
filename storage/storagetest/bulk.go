package storagetest

import (
	"context"
	"errors"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// testBulkTransactions covers the optional bulk-transaction ability
// (storage.BulkTxStore) on every store that has it: RunInBulkTx keeps the
// contract of RunInTx.
func testBulkTransactions(t *testing.T, newStore Factory) {
	st := newStore(t)
	s, ok := st.(storage.BulkTxStore)
	if !ok {
		t.Skip("the store has no bulk transactions (storage.BulkTxStore)")
	}
	p := newProject(t, s, "proj_a")
	count := func(t *testing.T) int {
		t.Helper()
		_, n := voucherIDs(t, s, p, promotype.Query{Limit: 100})
		return n
	}

	t.Run("commit is visible, a batch insert inside", func(t *testing.T) {
		must(t, s.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if _, ok := tx.(storage.Store); ok {
				t.Error("the bulk transaction handle is a storage.Store: fn could open a nested transaction")
			}
			rejected, err := tx.InsertBatch(ctx, batchOf(p, "camp_1", 1, 10, at(1)))
			if err != nil {
				return err
			}
			if len(rejected) != 0 {
				t.Errorf("rejected %v of a fresh batch", rejected)
			}
			// Read your own writes.
			_, err = tx.GetVoucher(ctx, p, "v_b1_0000")
			return err
		}))
		if n := count(t); n != 10 {
			t.Errorf("vouchers after the commit = %d, want 10", n)
		}
	})
	t.Run("error rolls back", func(t *testing.T) {
		err := s.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if _, err := tx.InsertBatch(ctx, batchOf(p, "camp_1", 2, 5, at(2))); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("RunInBulkTx returned %v, want the callback's error", err)
		}
		if n := count(t); n != 10 {
			t.Errorf("vouchers after the rollback = %d, want 10", n)
		}
	})
	t.Run("panic rolls back and goes on", func(t *testing.T) {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("the panic did not reach the caller")
				}
			}()
			_ = s.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				must(t, second(tx.InsertBatch(ctx, batchOf(p, "camp_1", 3, 5, at(3)))))
				panic("boom")
			})
		}()
		if n := count(t); n != 10 {
			t.Errorf("vouchers after the panic = %d, want 10", n)
		}
		must(t, second(s.InsertBatch(ctx, batchOf(p, "camp_1", 4, 1, at(4))))) // the store still works
	})
}
