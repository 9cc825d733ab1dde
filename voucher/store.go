package voucher

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Store is the storage port of vouchers, scoped by project. Get and Find
// return promotype.NotFound for a missing voucher and for one in the bin. A
// live voucher's code is unique in its project (across campaigns); a voucher
// in the bin frees its code. Returned values are the caller's own.
type Store interface {
	// InsertVoucher stores v; a taken id or live code is duplicate_found.
	InsertVoucher(ctx context.Context, v *Voucher) error
	// InsertVouchers stores the vouchers of vs whose id and code are free
	// (also of the vouchers before them in vs) and returns the indexes of
	// the others, ascending. A taken code is not an error.
	InsertVouchers(ctx context.Context, vs []*Voucher) (rejected []int, err error)
	// InsertBatch is InsertVouchers for the vouchers of a batch.
	InsertBatch(ctx context.Context, b *Batch) (rejected []int, err error)
	// UpdateVoucher replaces every field of the live voucher v.ID.
	UpdateVoucher(ctx context.Context, v *Voucher) error
	// LockVoucher holds the live voucher id of the project until the
	// transaction ends, so that a read-modify-write of it (an update) cannot
	// overwrite a concurrent redemption's spend (redeemed quantity, gift and
	// loyalty balances); not found when there is none. A store that runs one
	// transaction at a time may do nothing.
	LockVoucher(ctx context.Context, projectID, id string) error
	GetVoucher(ctx context.Context, projectID, id string) (*Voucher, error)
	// GetVoucherForUpdate is LockVoucher and GetVoucher together: the live
	// voucher id, as the lock leaves it.
	GetVoucherForUpdate(ctx context.Context, projectID, id string) (*Voucher, error)
	FindVoucherByCode(ctx context.Context, projectID, code string) (*Voucher, error)
	ListVouchers(ctx context.Context, projectID string, q promotype.Query) ([]*Voucher, int, error)
	// BinVoucher moves a live voucher to the bin (its code is free again).
	BinVoucher(ctx context.Context, projectID, id string, at promotype.Time) error
	// DeleteVoucher removes a voucher (live or in the bin) for good.
	DeleteVoucher(ctx context.Context, projectID, id string) error

	// UpdateCampaignVouchers applies f (CampaignFields.Apply) to the live
	// vouchers of a campaign that f.Applies accepts and whose id is greater
	// than afterID, at least the first limit of them in id order (a store
	// may do more at once). It returns how many it changed and the greatest
	// id it went through, "" when there was none left.
	UpdateCampaignVouchers(ctx context.Context, projectID, campaignID string, f CampaignFields, afterID string, limit int) (n int, last string, err error)
	// BinCampaignVouchers moves live vouchers of a campaign to the bin, at
	// least limit of them if there are (a store may do more), and returns
	// how many it moved: 0 when none is left.
	BinCampaignVouchers(ctx context.Context, projectID, campaignID string, at promotype.Time, limit int) (int, error)
	// DeleteCampaignVouchers removes vouchers (live or in the bin) of a
	// campaign for good, like BinCampaignVouchers, and returns how many it
	// removed: 0 when none is left.
	DeleteCampaignVouchers(ctx context.Context, projectID, campaignID string, limit int) (int, error)
}
