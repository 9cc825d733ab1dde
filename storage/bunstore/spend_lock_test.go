package bunstore_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// TestSpendVouchersLockOrder: SpendVouchers locks its vouchers in id
// order, the order one-by-one spends take, so the two never wait for each
// other in a cycle. With v_2 held by another transaction, a SpendVouchers
// of v_1, v_2, v_3 has locked v_1 and waits for v_2 without having taken
// v_3 (a descending or join-ordered lock would hold v_3 already).
func TestSpendVouchersLockOrder(t *testing.T) {
	db, store := migrated(t)
	const p = "proj_a"
	if err := store.InsertProject(ctx, &project.Project{ID: p, Name: "A", TimeZone: "UTC", CreatedAt: at(0)}); err != nil {
		t.Fatal(err)
	}
	var spends []redemption.VoucherSpend
	for _, id := range []string{"v_1", "v_2", "v_3"} {
		v := &voucher.Voucher{ID: id, ProjectID: p, Code: strings.ToUpper(id), Type: campaign.DiscountVoucher,
			Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: ptr(promotype.NewDecimal("100"))},
			Active:   true, Metadata: promotype.Metadata{}, CreatedAt: at(0)}
		if err := store.InsertVoucher(ctx, v); err != nil {
			t.Fatal(err)
		}
		spends = append(spends, redemption.VoucherSpend{VoucherID: id, Spend: redemption.Spend{Quantity: 1}})
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()

	holder, err := db.BeginTx(ctx, nil) // holds v_2
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback()
	var holderPID int
	if err := holder.QueryRowContext(ctx, `SELECT pg_backend_pid() FROM promo_vouchers WHERE project_id = ? AND id = 'v_2' FOR UPDATE`, p).Scan(&holderPID); err != nil {
		t.Fatal(err)
	}
	spent := make(chan error, 1)
	var vs []*voucher.Voucher // read after spent answers
	go func() {
		spent <- store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) (err error) {
			vs, err = tx.SpendVouchers(ctx, p, spends)
			return err
		})
	}()
	for waiting := 0; waiting == 0; { // until the spend waits for the holder
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))`, holderPID).Scan(&waiting); err != nil {
			t.Fatalf("waiting for the spend to block on v_2: %v", err)
		}
	}
	tryLock := func(id string) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var got string
		return tx.QueryRowContext(ctx, `SELECT id FROM promo_vouchers WHERE project_id = ? AND id = ? FOR UPDATE NOWAIT`, p, id).Scan(&got)
	}
	if err := tryLock("v_3"); err != nil {
		t.Errorf("v_3 while the spend waits for v_2: %v, want it free (locked in id order)", err)
	}
	if err := tryLock("v_1"); err == nil || err == sql.ErrNoRows {
		t.Errorf("v_1 while the spend waits for v_2: %v, want it locked by the spend", err)
	}
	if err := holder.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := <-spent; err != nil || len(vs) != 3 {
		t.Fatalf("the spend after the holder let go: %d vouchers, %v; want 3", len(vs), err)
	}
	for _, id := range []string{"v_1", "v_2", "v_3"} {
		v, err := store.GetVoucher(ctx, p, id)
		if err != nil {
			t.Fatal(err)
		}
		if v.RedeemedQuantity != 1 {
			t.Errorf("%s redeemed %d, want 1", id, v.RedeemedQuantity)
		}
	}
}
