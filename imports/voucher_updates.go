package imports

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// VoucherUpdate is an item of POST /v1/vouchers/bulk/async: the metadata
// keys to set on the voucher with code Code.
type VoucherUpdate struct {
	Code     string             `json:"code"`
	Metadata promotype.Metadata `json:"metadata"`
}

// VouchersBulkUpdate sets metadata keys on vouchers, per voucher
// (VOUCHERS.BULK_UPDATE).
type VouchersBulkUpdate struct {
	Rows int `json:"rows"`
}

// Kind implements async.Args.
func (VouchersBulkUpdate) Kind() string    { return ActionVouchersBulkUpdate }
func (a VouchersBulkUpdate) rowCount() int { return a.Rows }

// VouchersMetadataUpdate sets metadata keys on vouchers
// (VOUCHERS.METADATA_UPDATE); the codes are the input rows.
type VouchersMetadataUpdate struct {
	Rows     int                `json:"rows"`
	Metadata promotype.Metadata `json:"metadata"`
}

// Kind implements async.Args.
func (VouchersMetadataUpdate) Kind() string    { return ActionVouchersMetadataUpdate }
func (a VouchersMetadataUpdate) rowCount() int { return a.Rows }

// UpdateVouchersInBulk sets, for each item, the keys of its metadata on
// the voucher with its code (merged into the voucher's metadata) with a
// VOUCHERS.BULK_UPDATE action (POST /v1/vouchers/bulk/async). Vouchers are
// not upserted: a code that names none is an error of the result. An item
// without metadata sets nothing; no items make an action with no rows.
func (s *Service) UpdateVouchersInBulk(ctx context.Context, projectID string, items []VoucherUpdate) (*async.Ref, error) {
	for i, it := range items {
		if it.Code == "" {
			return nil, promotype.InvalidPayload("Property [%d].code is required", i)
		}
	}
	in, err := updateItems(items)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, in, VouchersBulkUpdate{Rows: in.Rows}, nil)
}

// UpdateVouchersMetadata sets the keys of in.Metadata on the vouchers with
// the codes in.Codes with a VOUCHERS.METADATA_UPDATE action (POST
// /v1/vouchers/metadata/async).
func (s *Service) UpdateVouchersMetadata(ctx context.Context, projectID string, in MetadataUpdate) (*async.Ref, error) {
	input, err := keysInput(in.Codes, "codes")
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, input, VouchersMetadataUpdate{Rows: input.Rows, Metadata: in.Metadata}, nil)
}

// setVoucherMetadata merges meta into the metadata of the voucher with
// code (through the voucher update, its checks and events).
func (s *Service) setVoucherMetadata(ctx context.Context, projectID, code string, meta promotype.Metadata) error {
	v, err := s.svc.Vouchers.Get(ctx, projectID, code)
	if err != nil {
		return err
	}
	var up voucher.UpdateParams
	up.Metadata = merged(v.Metadata, meta)
	_, err = s.svc.Vouchers.Update(ctx, projectID, v.ID, up)
	return err
}

func (s *Service) registerVoucherUpdates(reg *async.Registry) {
	register(s, reg, kind[VouchersBulkUpdate, json.RawMessage]{
		outside: eachRow(func(ctx context.Context, job *async.Job[VouchersBulkUpdate], raw json.RawMessage) error {
			var it VoucherUpdate
			if err := decodeItem(raw, &it); err != nil {
				return err
			}
			return s.setVoucherMetadata(ctx, job.Action().ProjectID, it.Code, it.Metadata)
		}),
		key:    func(_ VouchersBulkUpdate, raw json.RawMessage) string { return rawKey(raw, "code") },
		row:    itemRow,
		result: func(_ VouchersBulkUpdate, st state) any { return bulkResult(st, true) },
	})
	register(s, reg, kind[VouchersMetadataUpdate, string]{
		outside: eachRow(func(ctx context.Context, job *async.Job[VouchersMetadataUpdate], code string) error {
			return s.setVoucherMetadata(ctx, job.Action().ProjectID, code, job.Args.Metadata)
		}),
		key:    func(_ VouchersMetadataUpdate, code string) string { return code },
		row:    itemRow,
		result: func(_ VouchersMetadataUpdate, st state) any { return bulkResult(st, true) },
	})
}
