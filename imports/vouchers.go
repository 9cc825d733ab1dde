package imports

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// VouchersImport imports standalone vouchers (VOUCHERS.IMPORT).
type VouchersImport struct {
	Rows int `json:"rows"`
}

// Kind implements async.Args.
func (VouchersImport) Kind() string    { return ActionVouchersImport }
func (a VouchersImport) rowCount() int { return a.Rows }

// VouchersCSV imports the rows of a vouchers CSV file: standalone vouchers
// (VOUCHERS.IMPORT_CSV), or vouchers of campaign CampaignID
// (CAMPAIGN.VOUCHERS_IMPORT_CSV).
type VouchersCSV struct {
	Header     []string `json:"header"`
	Rows       int      `json:"rows"`
	CampaignID string   `json:"campaign_id,omitempty"`
}

// Kind implements async.Args.
func (VouchersCSV) Kind() string    { return ActionVouchersImportCSV }
func (a VouchersCSV) rowCount() int { return a.Rows }

// CampaignVouchersCSV is VouchersCSV into a campaign
// (CAMPAIGN.VOUCHERS_IMPORT_CSV).
type CampaignVouchersCSV VouchersCSV

// Kind implements async.Args.
func (CampaignVouchersCSV) Kind() string    { return ActionCampaignVouchersImportCSV }
func (a CampaignVouchersCSV) rowCount() int { return a.Rows }

// SerialKey implements async.Serial: the import waits for the campaign's
// generation (campaign.SerialKey).
func (a CampaignVouchersCSV) SerialKey() string { return campaign.SerialKey(a.CampaignID) }

// voucherColumns are the standard columns of a vouchers CSV (the hosted
// names in normal form: lower case, spaces as underscores).
var voucherColumns = []string{"code", "voucher_type", "value", "discount_type", "category", "start_date",
	"expiration_date", "redemption_limit", "redeemed_quantity", "redeemed_amount", "active", "additional_info"}

// ImportVouchers imports standalone vouchers (POST /v1/vouchers/import)
// with a VOUCHERS.IMPORT action. Each item needs a code and a type (or a
// discount or gift to infer it from). Items that cannot be stored (an
// invalid field, a code taken) are listed in the result with the reason;
// the others are stored, each chunk of items in one transaction.
func (s *Service) ImportVouchers(ctx context.Context, projectID string, items []voucher.StandaloneItem) (*async.Ref, error) {
	in, err := Items(items)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, in, VouchersImport{Rows: in.Rows}, nil)
}

// ImportVouchersCSV imports standalone vouchers from a CSV file (POST
// /v1/vouchers/importCSV) with a VOUCHERS.IMPORT_CSV action. Columns (any
// case, spaces or underscores): Code (required), Voucher Type
// (DISCOUNT_VOUCHER, the default, or GIFT_VOUCHER), Value (the discount's
// amount, percent or units, or the gift's amount), Discount Type (AMOUNT,
// the default, PERCENT, UNIT, FIXED), Category, Start Date, Expiration
// Date, Redemption Limit, Active, Additional Info; Redeemed Quantity and
// Redeemed Amount are ignored (no redemption history is made); the other
// columns are metadata. Rows that cannot be stored are listed in the
// result; the others are stored.
func (s *Service) ImportVouchersCSV(ctx context.Context, projectID string, r io.Reader) (*async.Ref, error) {
	c, err := readVoucherCSV(r)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, c.Input, VouchersCSV{Header: c.Header, Rows: c.Rows}, nil)
}

// ImportCampaignVouchersCSV imports vouchers from a CSV file into the
// campaign with id or name ref (POST /v1/campaigns/{id}/importCSV) with a
// CAMPAIGN.VOUCHERS_IMPORT_CSV action: the columns of ImportVouchersCSV
// (Voucher Type, Discount Type and a discount's Value aside: the
// vouchers take the campaign's); each voucher takes the campaign's
// settings overridden by its row.
func (s *Service) ImportCampaignVouchersCSV(ctx context.Context, projectID, ref string, r io.Reader) (*async.Ref, error) {
	c, err := readVoucherCSV(r)
	if err != nil {
		return nil, err
	}
	args := CampaignVouchersCSV{Header: c.Header, Rows: c.Rows}
	return s.enqueue(ctx, projectID, c.Input, &args, func(ctx context.Context, tx JobStore) error {
		camp, err := s.svc.Campaigns.Resolve(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		if !camp.CampaignType.HasVouchers() {
			return campaign.InvalidCampaign("A PROMOTION campaign holds promotion tiers, not vouchers")
		}
		args.CampaignID = camp.ID
		return nil
	})
}

func readVoucherCSV(r io.Reader) (*CSV, error) {
	c, err := ReadCSV(r)
	if err != nil {
		return nil, err
	}
	if !newColumns(c.Header, voucherColumns, nil).has("code") {
		return nil, promotype.InvalidPayload("The CSV file must have a column Code")
	}
	return c, nil
}

// voucherItem reads a vouchers CSV row as the JSON item it stands for.
func voucherItem(cols columns, rec []string, standalone bool) (json.RawMessage, error) {
	m := map[string]any{}
	if v := cols.get(rec, "code"); v != nil {
		m["code"] = *v
	}
	if v := cols.get(rec, "category"); v != nil {
		m["category"] = *v
	}
	if v := cols.get(rec, "additional_info"); v != nil {
		m["additional_info"] = *v
	}
	for _, d := range []string{"start_date", "expiration_date"} {
		t, err := date(cols.get(rec, d), d)
		if err != nil {
			return nil, err
		}
		if t != nil {
			m[d] = t
		}
	}
	q, err := integer(cols.get(rec, "redemption_limit"), "redemption_limit")
	if err != nil {
		return nil, err
	}
	if q != nil {
		m["redemption"] = map[string]any{"quantity": *q}
	}
	active, err := boolean(cols.get(rec, "active"), "active")
	if err != nil {
		return nil, err
	}
	if active != nil {
		m["active"] = *active
	}
	if meta := cols.metadata(rec); meta != nil {
		m["metadata"] = meta
	}
	typ := strings.ToUpper(deref(trimmed(cols.get(rec, "voucher_type"))))
	if typ == "" {
		typ = string(campaign.DiscountVoucher)
	}
	value := trimmed(cols.get(rec, "value"))
	if value != nil {
		if _, err := strconv.ParseFloat(*value, 64); err != nil {
			return nil, promotype.InvalidPayload("Column Value must be a number, not %q", *value)
		}
	}
	switch {
	case typ == string(campaign.GiftVoucher):
		if value != nil {
			n, err := integer(value, "Value")
			if err != nil {
				return nil, err
			}
			m["gift"] = map[string]any{"amount": *n}
		}
	case !standalone:
	case typ == string(campaign.DiscountVoucher):
		dt := strings.ToUpper(deref(trimmed(cols.get(rec, "discount_type"))))
		if dt == "" {
			dt = "AMOUNT"
		}
		d := map[string]any{"type": dt}
		if value != nil {
			field := map[string]string{"AMOUNT": "amount_off", "PERCENT": "percent_off", "UNIT": "unit_off", "FIXED": "fixed_amount"}[dt]
			if field == "" {
				return nil, promotype.InvalidPayload("Column Discount Type must be AMOUNT, PERCENT, UNIT or FIXED, not %q", dt)
			}
			d[field] = json.Number(*value)
		}
		m["discount"] = d
	default:
		return nil, promotype.InvalidPayload("Column Voucher Type must be DISCOUNT_VOUCHER or GIFT_VOUCHER, not %q", typ)
	}
	if standalone {
		m["type"] = typ
	}
	return json.Marshal(m)
}

// voucherRows makes the vouchers of a chunk of rows (their JSON items,
// or the reason they cannot be imported) and stores those it could in
// one statement; taken codes are failures.
func (s *Service) voucherRows(ctx context.Context, tx JobStore, projectID string, items []json.RawMessage, o *outcome,
	build func(raw json.RawMessage) (*voucher.Voucher, error)) (int64, error) {
	var vs []*voucher.Voucher
	var at []int
	for i, raw := range items {
		if o.bad[i] != nil {
			continue
		}
		v, err := build(raw)
		if err != nil {
			if err := o.fail(i, err); err != nil {
				return 0, err
			}
			continue
		}
		vs, at = append(vs, v), append(at, i)
	}
	rejected, err := tx.InsertVouchers(ctx, vs)
	if err != nil {
		return 0, err
	}
	for _, k := range rejected {
		_ = o.fail(at[k], promotype.Duplicate("voucher", "Duplicated voucher exists with code %s", vs[k].Code))
	}
	stored := voucher.Kept(vs, rejected)
	// voucher.created for each, in the chunk's transaction, as a voucher
	// created alone has (nothing built when no webhook listens).
	if err := s.svc.Vouchers.EmitCreated(ctx, tx, projectID, stored); err != nil {
		return 0, err
	}
	o.done += int64(len(stored))
	return int64(len(stored)), nil
}

// checkVoucherMeta checks the metadata of the items of a chunk, outside
// its transaction.
func (s *Service) checkVoucherMeta(ctx context.Context, projectID string, items []json.RawMessage, o *outcome) error {
	check, err := s.metaChecker(ctx, projectID, "voucher")
	if err != nil {
		return err
	}
	for i, raw := range items {
		if o.bad[i] != nil {
			continue
		}
		var it struct {
			Metadata promotype.Metadata `json:"metadata"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			_ = o.fail(i, promotype.InvalidPayload("The item cannot be read: %v", err))
			continue
		}
		if it.Metadata == nil {
			continue // as voucher.Service.CheckMetadata
		}
		if err := check(it.Metadata); err != nil {
			if err := o.fail(i, err); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvItems turns a chunk of CSV rows into JSON items (nil, with a failure,
// for a row that cannot be read).
func csvItems(header []string, rows [][]string, standalone bool, o *outcome) ([]json.RawMessage, error) {
	cols := newColumns(header, voucherColumns, nil)
	items := make([]json.RawMessage, len(rows))
	for i, rec := range rows {
		raw, err := voucherItem(cols, rec, standalone)
		if err != nil {
			if err := o.fail(i, err); err != nil {
				return nil, err
			}
			continue
		}
		items[i] = raw
	}
	return items, nil
}

func (s *Service) registerVouchers(reg *async.Registry) {
	standalone := func(ctx context.Context, tx JobStore, projectID string, now promotype.Time) func(raw json.RawMessage) (*voucher.Voucher, error) {
		return func(raw json.RawMessage) (*voucher.Voucher, error) {
			var it voucher.StandaloneItem
			if err := decodeItem(raw, &it); err != nil {
				return nil, err
			}
			return s.svc.Vouchers.StandaloneVoucher(ctx, tx, projectID, it, now)
		}
	}
	register(s, reg, kind[VouchersImport, json.RawMessage]{
		outside: func(ctx context.Context, job *async.Job[VouchersImport], rows []json.RawMessage, o *outcome) error {
			return s.checkVoucherMeta(ctx, job.Action().ProjectID, rows, o)
		},
		inside: func(ctx context.Context, tx JobStore, job *async.Job[VouchersImport], rows []json.RawMessage, o *outcome) error {
			projectID := job.Action().ProjectID
			_, err := s.voucherRows(ctx, tx, projectID, rows, o, standalone(ctx, tx, projectID, job.Now()))
			return err
		},
		key:    func(_ VouchersImport, raw json.RawMessage) string { return rawKey(raw, "code") },
		row:    itemRow,
		result: func(_ VouchersImport, st state) any { return importResult(st, "voucher", withCode) },
	})
	register(s, reg, kind[VouchersCSV, []string]{
		outside: func(ctx context.Context, job *async.Job[VouchersCSV], rows [][]string, o *outcome) error {
			items, err := csvItems(job.Args.Header, rows, true, o)
			if err != nil {
				return err
			}
			return s.checkVoucherMeta(ctx, job.Action().ProjectID, items, o)
		},
		inside: func(ctx context.Context, tx JobStore, job *async.Job[VouchersCSV], rows [][]string, o *outcome) error {
			projectID := job.Action().ProjectID
			items, err := csvItems(job.Args.Header, rows, true, o)
			if err != nil {
				return err
			}
			_, err = s.voucherRows(ctx, tx, projectID, items, o, standalone(ctx, tx, projectID, job.Now()))
			return err
		},
		key: func(a VouchersCSV, rec []string) string {
			return deref(newColumns(a.Header, voucherColumns, nil).get(rec, "code"))
		},
		row:    csvRow,
		result: func(_ VouchersCSV, st state) any { return importResult(st, "voucher", withRow|withCode) },
	})
	register(s, reg, kind[CampaignVouchersCSV, []string]{
		outside: func(ctx context.Context, job *async.Job[CampaignVouchersCSV], rows [][]string, o *outcome) error {
			items, err := csvItems(job.Args.Header, rows, false, o)
			if err != nil {
				return err
			}
			return s.checkVoucherMeta(ctx, job.Action().ProjectID, items, o)
		},
		inside: func(ctx context.Context, tx JobStore, job *async.Job[CampaignVouchersCSV], rows [][]string, o *outcome) error {
			projectID, now := job.Action().ProjectID, job.Now()
			c, err := tx.GetCampaign(ctx, projectID, job.Args.CampaignID)
			if err != nil {
				return err // a deleted campaign fails the action
			}
			items, err := csvItems(job.Args.Header, rows, false, o)
			if err != nil {
				return err
			}
			stored, err := s.voucherRows(ctx, tx, projectID, items, o, func(raw json.RawMessage) (*voucher.Voucher, error) {
				var it voucher.ImportItem
				if err := decodeItem(raw, &it); err != nil {
					return nil, err
				}
				return s.svc.Vouchers.ImportVoucher(ctx, tx, c, it, now)
			})
			if err != nil || stored == 0 {
				return err
			}
			if err := tx.AddCampaignVouchers(ctx, projectID, c.ID, stored); err != nil {
				return err
			}
			// As CAMPAIGN.VOUCHERS_IMPORT tells of its vouchers (once, with
			// their count), each chunk tells of the vouchers it added.
			return s.svc.Campaigns.EmitCampaignByID(ctx, tx, campaign.EventVouchersAdded, projectID, c.ID, map[string]any{"count": stored})
		},
		key: func(a CampaignVouchersCSV, rec []string) string {
			return deref(newColumns(a.Header, voucherColumns, nil).get(rec, "code"))
		},
		row:    csvRow,
		result: func(_ CampaignVouchersCSV, st state) any { return importResult(st, "voucher", withRow|withCode) },
	})
	s.registerVoucherUpdates(reg)
}
