package bunstore

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// copyTx is a transaction on a dedicated connection whose pgx connection
// the store can reach (database/sql Conn.Raw), so that InsertBatch sends
// the batch with COPY inside the transaction.
type copyTx struct {
	bun.Tx
	conn bun.Conn
}

// RunInBulkTx is RunInTx for writes of voucher batches: over a *bun.DB it
// runs fn in a transaction on a dedicated connection, where InsertBatch
// uses COPY instead of INSERT; a store bound to a transaction already runs
// fn in it, as RunInTx does. The engine's runner uses it for the chunks of
// a voucher generation.
func (s *Store) RunInBulkTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return s.RunInTx(ctx, fn)
	}
	ctx, cancel := withDeadline(ctx, s.txTimeout)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		return txErr(ctx, fail("bulk transaction", err, nil), false)
	}
	defer func() { _ = conn.Close() }() // back to the pool: nothing to do on failure
	committing := false
	err = conn.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		st := &Store{db: copyTx{Tx: tx, conn: conn}, txTimeout: s.txTimeout, pending: &pending{}, cluster: s.cluster}
		if err := fn(ctx, storage.Handle(st)); err != nil {
			return err
		}
		err := st.pending.flush(ctx, tx)
		committing = err == nil
		return err
	})
	return txErr(ctx, err, committing)
}

// voucherCopyColumns are the columns COPY writes.
var voucherCopyColumns = []string{"project_id", "id", "code", "campaign_id", "category_id", "type", "active",
	"is_referral_code", "holder_id", "referrer_id", "start_date", "expiration_date", "redemption_quantity",
	"redeemed_quantity", "publish_count", "data", "metadata", "created_at", "updated_at"}

// copyBatch writes b with COPY. COPY cannot skip a row whose
// code is taken, so it runs inside a savepoint: on a unique violation (a
// code of the batch is taken, rare with a roomy code space) the savepoint
// is rolled back and the batch goes through INSERT ... ON CONFLICT, which
// reports the rows it could not store.
func (s *Store) copyBatch(ctx context.Context, ct copyTx, t *voucherRow, b *voucher.Batch) ([]int, error) {
	ids, codes, err := batchArrays(b)
	if err != nil {
		return nil, err
	}
	if _, err := ct.ExecContext(ctx, "SAVEPOINT promo_voucher_batch"); err != nil {
		return nil, fail("insert voucher batch", err, nil)
	}
	var start, expiration, updated any
	if t.StartDate != nil {
		start = *t.StartDate
	}
	if t.ExpirationDate != nil {
		expiration = *t.ExpirationDate
	}
	if t.UpdatedAt != nil {
		updated = *t.UpdatedAt
	}
	str := func(p *string) any {
		if p == nil {
			return nil
		}
		return *p
	}
	var quantity any
	if t.RedemptionQuantity != nil {
		quantity = *t.RedemptionQuantity
	}
	row := []any{t.ProjectID, nil, nil, str(t.CampaignID), str(t.CategoryID), t.Type, t.Active, t.IsReferralCode,
		str(t.HolderID), str(t.ReferrerID), start, expiration, quantity, t.RedeemedQuantity, t.PublishCount,
		[]byte(t.Data), []byte(t.Metadata), t.CreatedAt, updated}
	err = ct.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return errors.New("bunstore: COPY needs the pgx driver")
		}
		_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{"promo_vouchers"}, voucherCopyColumns,
			pgx.CopyFromSlice(len(ids), func(i int) ([]any, error) {
				row[1], row[2] = ids[i], codes[i]
				return row, nil
			}))
		return err
	})
	if err == nil {
		if _, err := ct.ExecContext(ctx, "RELEASE SAVEPOINT promo_voucher_batch"); err != nil {
			return nil, fail("insert voucher batch", err, nil)
		}
		return nil, nil
	}
	if !isUniqueViolation(err) {
		return nil, fail("copy voucher batch", err, nil)
	}
	if _, err := ct.ExecContext(ctx, "ROLLBACK TO SAVEPOINT promo_voucher_batch"); err != nil {
		return nil, fail("insert voucher batch", err, nil)
	}
	return s.insertBatch(ctx, t, b)
}
