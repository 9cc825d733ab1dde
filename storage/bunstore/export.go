package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

type exportRow struct {
	bun.BaseModel `bun:"table:promo_exports,alias:ex"`

	ProjectID      string          `bun:"project_id,pk"`
	ID             string          `bun:"id,pk"`
	CreatedAt      time.Time       `bun:"created_at"`
	Status         string          `bun:"status"`
	Channel        string          `bun:"channel"`
	ExportedObject string          `bun:"exported_object"`
	Parameters     json.RawMessage `bun:"parameters"`
	UserID         *string         `bun:"user_id"`
	Token          string          `bun:"token"`
	Chunks         int             `bun:"chunks"`
	Rows           int64           `bun:"rows_count"`
	Error          *string         `bun:"error"`

	Total int `bun:"total,scanonly"`
}

func (r *exportRow) listTotal() int { return r.Total }

var exportColumns = columns{
	"status":          {"status", promotype.FieldString},
	"exported_object": {"exported_object", promotype.FieldString},
	"created_at":      {"created_at", promotype.FieldTime},
}

func newExportRow(e *export.Export) (*exportRow, error) {
	if err := checkText("export", str("id", e.ID), str("project_id", e.ProjectID), str("status", string(e.Status)),
		str("channel", e.Channel), str("exported_object", e.ExportedObject), text{"user_id", e.UserID}); err != nil {
		return nil, err
	}
	params, err := encodeJSON(e.Parameters)
	if err != nil {
		return nil, err
	}
	r := &exportRow{ProjectID: e.ProjectID, ID: e.ID, CreatedAt: sqlTime(e.CreatedAt), Status: string(e.Status),
		Channel: e.Channel, ExportedObject: e.ExportedObject, Parameters: params, UserID: promotype.ClonePtr(e.UserID),
		Token: e.Token, Chunks: e.Chunks, Rows: e.Rows}
	if e.Error != "" {
		r.Error = &e.Error
	}
	return r, nil
}

func (r *exportRow) domain() (*export.Export, error) {
	e := &export.Export{ID: r.ID, Object: "export", ProjectID: r.ProjectID, CreatedAt: domainTime(r.CreatedAt),
		Status: export.Status(r.Status), Channel: r.Channel, ExportedObject: r.ExportedObject, UserID: r.UserID,
		Token: r.Token, Chunks: r.Chunks, Rows: r.Rows}
	if r.Error != nil {
		e.Error = *r.Error
	}
	if err := decodeJSON(r.Parameters, &e.Parameters); err != nil {
		return nil, err
	}
	return e, nil
}

func exportNotFound(id string) func() error {
	return func() error { return promotype.NotFound("export", id) }
}

// InsertExport implements export.Store.
func (s *Store) InsertExport(ctx context.Context, e *export.Export) error {
	row, err := newExportRow(e)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert export", row, func() error {
		return promotype.Duplicate("export", "Duplicated export exists with id %s", e.ID)
	})
}

// GetExport implements export.Store.
func (s *Store) GetExport(ctx context.Context, projectID, id string) (*export.Export, error) {
	return getByID[exportRow, *exportRow](ctx, s.db, "get export", "ex", projectID, id, exportNotFound(id))
}

// FindExports implements export.Store: the id index, across projects.
func (s *Store) FindExports(ctx context.Context, id string) ([]*export.Export, error) {
	if !storable(id) {
		return nil, nil
	}
	var rows []exportRow
	if err := s.db.NewSelect().Model(&rows).Where("ex.id = ?", id).Scan(ctx); err != nil {
		return nil, fail("find exports", err, nil)
	}
	return domains[exportRow, *exportRow](rows)
}

// ListExports implements export.Store.
func (s *Store) ListExports(ctx context.Context, projectID string, q promotype.Query) ([]*export.Export, int, error) {
	return listProject[exportRow, *exportRow, *export.Export](ctx, s.db, exportColumns, "ex", "", projectID, q)
}

// UpdateExport implements export.Store.
func (s *Store) UpdateExport(ctx context.Context, e *export.Export) error {
	row, err := newExportRow(e)
	if err != nil {
		return rowErr(err, e.ProjectID, e.ID, exportNotFound(e.ID))
	}
	return replaceRow(ctx, s.db, "update export", row, exportNotFound(e.ID))
}

// DeleteExport implements export.Store: its chunks go with it (ON DELETE
// CASCADE).
func (s *Store) DeleteExport(ctx context.Context, projectID, id string) error {
	return deleteByID[exportRow](ctx, s.db, "delete export", "ex", projectID, id, exportNotFound(id))
}

type exportChunkRow struct {
	bun.BaseModel `bun:"table:promo_export_chunks,alias:xc"`

	ProjectID string `bun:"project_id,pk"`
	ExportID  string `bun:"export_id,pk"`
	Seq       int    `bun:"seq,pk"`
	Data      []byte `bun:"data"`
}

// AppendExportChunk implements export.Store. A deleted export's chunk
// breaks the foreign key: not found.
func (s *Store) AppendExportChunk(ctx context.Context, projectID, id string, seq int, data []byte) error {
	if !storableKeys(projectID, id) {
		return promotype.NotFound("export", id)
	}
	_, err := s.db.NewInsert().Model(&exportChunkRow{ProjectID: projectID, ExportID: id, Seq: seq, Data: data}).Exec(ctx)
	if err != nil {
		if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok && pgErr.Code == "23503" { // foreign_key_violation
			return promotype.NotFound("export", id)
		}
		return fail("append export chunk", err, func() error {
			return promotype.Conflict("chunk_out_of_order", "Chunk out of order", "Chunk %d of export %s is stored already", seq, id)
		})
	}
	return nil
}

// ExportChunk implements export.Store.
func (s *Store) ExportChunk(ctx context.Context, projectID, id string, seq int) ([]byte, error) {
	notFound := func() error { return promotype.NotFound("export_chunk", id) }
	if !storableKeys(projectID, id) {
		return nil, notFound()
	}
	var data []byte
	err := s.db.NewSelect().Model((*exportChunkRow)(nil)).Column("data").
		Where("xc.project_id = ? AND xc.export_id = ? AND xc.seq = ?", projectID, id, seq).Scan(ctx, &data)
	if err != nil {
		return nil, getErr("get export chunk", err, notFound)
	}
	return data, nil
}

// keysetPage reads the rows scope selects that match q's conditions and
// come after the cursor in q's order (OrderBy, then id, in q's direction;
// nulls first ascending, last descending), at most q.Limit of them. The
// cursor is a row comparison, so the page is read off the list index of
// the order ((project_id, field NULLS FIRST, id)) from where the last one
// ended: no offset, no sort.
//
// notNull names the order fields whose column is NOT NULL: their keyset
// condition is the row comparison alone (with an "OR field IS NULL" the
// planner, which does not read the constraint, would scan and sort).
func keysetPage[R any](ctx context.Context, db bun.IDB, cols columns, notNull []string, q promotype.Query, after *export.Cursor,
	scope func(*bun.SelectQuery) *bun.SelectQuery,
) ([]R, error) {
	var rows []R
	sel, err := keysetQuery(db.NewSelect().Model(&rows), cols, notNull, q, after, scope)
	if err != nil || sel == nil {
		return rows, err
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, fail("export page", err, nil)
	}
	return rows, nil
}

// keysetQuery adds to sel (a select of a model) what keysetPage reads;
// nil when q asks for no rows.
func keysetQuery(sel *bun.SelectQuery, cols columns, notNull []string, q promotype.Query, after *export.Cursor,
	scope func(*bun.SelectQuery) *bun.SelectQuery,
) (*bun.SelectQuery, error) {
	where, args, err := cols.where(q)
	if err != nil {
		return nil, err
	}
	sel = scope(sel)
	if where != "" {
		sel = sel.Where(where, args...)
	}
	id := `"id" COLLATE "C"`
	lt, dir, nulls := ">", "ASC", "NULLS FIRST"
	if q.Desc {
		lt, dir, nulls = "<", "DESC", "NULLS LAST"
	}
	if q.OrderBy == "" || q.OrderBy == "id" {
		if after != nil {
			sel = sel.Where(id+" "+lt+" ?", after.ID)
		}
		sel = sel.OrderExpr(id + " " + dir)
	} else {
		col, ok := cols[q.OrderBy]
		if !ok {
			return nil, fmt.Errorf("bunstore: %q is not an order field", q.OrderBy)
		}
		key := `"` + col.name + `"`
		if col.kind == promotype.FieldString {
			key += ` COLLATE "C"`
		}
		if after != nil {
			var v any = after.Key.Str
			if col.kind == promotype.FieldTime {
				v = sqlTime(after.Key.Time)
			}
			switch {
			case !after.Key.Null && (!q.Desc || slices.Contains(notNull, q.OrderBy)):
				sel = sel.Where("("+key+", "+id+") "+lt+" (?, ?)", v, after.ID)
			case !after.Key.Null:
				sel = sel.Where("(("+key+", "+id+") < (?, ?) OR "+key+" IS NULL)", v, after.ID)
			case !q.Desc:
				sel = sel.Where("(("+key+" IS NULL AND "+id+" > ?) OR "+key+" IS NOT NULL)", after.ID)
			default:
				sel = sel.Where(key+" IS NULL AND "+id+" < ?", after.ID)
			}
		}
		sel = sel.OrderExpr(key + " " + dir + " " + nulls).OrderExpr(id + " " + dir)
	}
	if q.Limit <= 0 {
		return nil, nil
	}
	return sel.Limit(int64(q.Limit)), nil
}

// pageOf reads a keyset page of one project's rows and converts them.
//
// metadata tells that the table has a metadata column of its own, which
// a page without metadata leaves unread.
func pageOf[R any, D any](ctx context.Context, db bun.IDB, cols columns, notNull []string, metadata bool, alias, extra, projectID string, pg export.Page,
	conv func(*R) (D, error),
) ([]D, error) {
	if !storable(projectID) {
		return []D{}, nil
	}
	rows, err := keysetPage[R](ctx, db, cols, notNull, pg.Query, pg.After, func(sel *bun.SelectQuery) *bun.SelectQuery {
		if !pg.Metadata && metadata {
			sel = sel.ExcludeColumn("metadata") // NULL: decoded as an empty map
		}
		sel = sel.Where(alias+".project_id = ?", projectID)
		if extra != "" {
			sel = sel.Where(extra)
		}
		return sel
	})
	if err != nil {
		return nil, err
	}
	out := make([]D, len(rows))
	for i := range rows {
		if out[i], err = conv(&rows[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// VoucherPage implements export.Store: live vouchers. It scans the rows
// itself, column by column, rather than through Bun's reflection: a
// million-voucher export spends most of its time here.
func (s *Store) VoucherPage(ctx context.Context, projectID string, pg export.Page) ([]*voucher.Voucher, error) {
	out := []*voucher.Voucher{}
	if !storable(projectID) {
		return out, nil
	}
	columns := "v.project_id, v.id, v.code, v.campaign_id, v.category_id, v.type, v.active, v.is_referral_code, " +
		"v.holder_id, v.referrer_id, v.start_date, v.expiration_date, v.redemption_quantity, v.redeemed_quantity, " +
		"v.publish_count, v.data, v.created_at, v.updated_at, v.reserved_until"
	if pg.Metadata {
		columns += ", v.metadata"
	}
	sel, err := keysetQuery(s.db.NewSelect().Model((*voucherRow)(nil)).ColumnExpr(columns), voucherColumns,
		[]string{"created_at", "code"}, pg.Query, pg.After, func(sel *bun.SelectQuery) *bun.SelectQuery {
			return sel.Where("v.project_id = ? AND v.binned_at IS NULL", projectID)
		})
	if err != nil || sel == nil {
		return out, err
	}
	m := &voucherPage{metadata: pg.Metadata, out: out}
	if err := sel.Scan(ctx, m); err != nil {
		return nil, fail("voucher page", err, nil)
	}
	return m.out, nil
}

// voucherPage is a bun model that scans the columns VoucherPage selects,
// in order, into vouchers: inside the query (before its deadline ends it),
// without Bun's per-column reflection.
type voucherPage struct {
	metadata bool
	out      []*voucher.Voucher
}

// Value implements bun's model.
func (m *voucherPage) Value() any { return &m.out }

// ScanRows implements bun's model.
func (m *voucherPage) ScanRows(_ context.Context, rows *sql.Rows) (int, error) {
	var r voucherRow
	dest := []any{&r.ProjectID, &r.ID, &r.Code, &r.CampaignID, &r.CategoryID, &r.Type, &r.Active, &r.IsReferralCode,
		&r.HolderID, &r.ReferrerID, &r.StartDate, &r.ExpirationDate, &r.RedemptionQuantity, &r.RedeemedQuantity,
		&r.PublishCount, (*[]byte)(&r.Data), &r.CreatedAt, &r.UpdatedAt, &r.ReservedUntil}
	if m.metadata {
		dest = append(dest, (*[]byte)(&r.Metadata))
	}
	n := 0
	for rows.Next() {
		r = voucherRow{}
		if err := rows.Scan(dest...); err != nil {
			return n, err
		}
		v, err := r.domain()
		if err != nil {
			return n, err
		}
		m.out = append(m.out, v)
		n++
	}
	return n, rows.Err()
}

// RedemptionPage implements export.Store.
func (s *Store) RedemptionPage(ctx context.Context, projectID string, pg export.Page) ([]*redemption.Redemption, error) {
	return pageOf(ctx, s.db, redemptionColumns, []string{"created_at"}, false, "r", "", projectID, pg, (*redemptionRow).decode)
}

// exportCustomerColumns are the filter and order fields of a customer
// export (export.CustomerSpec).
var exportCustomerColumns = columns{
	"name":       {"name", promotype.FieldString},
	"email":      {"email", promotype.FieldString},
	"source_id":  {"source_id", promotype.FieldString},
	"phone":      {"phone", promotype.FieldString},
	"id":         {"id", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

// CustomerPage implements export.Store.
func (s *Store) CustomerPage(ctx context.Context, projectID string, pg export.Page) ([]*customer.Customer, error) {
	return pageOf(ctx, s.db, exportCustomerColumns, []string{"created_at"}, true, "c", "", projectID, pg, (*customerRow).domain)
}

// OrderPage implements export.Store.
func (s *Store) OrderPage(ctx context.Context, projectID string, pg export.Page) ([]*order.Order, error) {
	return pageOf(ctx, s.db, orderColumns, []string{"created_at", "status"}, true, "o", "", projectID, pg, (*orderRow).domain)
}

// PublicationPage implements export.Store.
func (s *Store) PublicationPage(ctx context.Context, projectID string, pg export.Page) ([]*publication.Publication, error) {
	return pageOf(ctx, s.db, publicationColumns, []string{"created_at", "customer_id", "voucher_code", "channel"}, true, "pub", "", projectID, pg, (*publicationRow).domain)
}

// exportTransactionColumns are the filter and order fields of a
// transactions export.
var exportTransactionColumns = columns{
	"id":          {"id", promotype.FieldString},
	"voucher_id":  {"voucher_id", promotype.FieldString},
	"campaign_id": {"campaign_id", promotype.FieldString},
	"created_at":  {"created_at", promotype.FieldTime},
}

// TransactionPage implements export.Store: off the index (project_id,
// created_at, id) of migration 0035.
func (s *Store) TransactionPage(ctx context.Context, projectID string, pg export.Page) ([]*redemption.Transaction, error) {
	return pageOf(ctx, s.db, exportTransactionColumns, []string{"created_at"}, false, "t", "", projectID, pg, (*transactionRow).domain)
}

// exportBucketColumns are the filter and order fields of a
// points_expiration export: expires_at is the bucket's due instant.
var exportBucketColumns = columns{
	"id":          {"id", promotype.FieldString},
	"voucher_id":  {"voucher_id", promotype.FieldString},
	"campaign_id": {"campaign_id", promotype.FieldString},
	"created_at":  {"created_at", promotype.FieldTime},
	"expires_at":  {"due", promotype.FieldTime},
}

// BucketPage implements export.Store.
func (s *Store) BucketPage(ctx context.Context, projectID string, pg export.Page) ([]*voucher.PointsBucket, error) {
	return pageOf(ctx, s.db, exportBucketColumns, []string{"created_at"}, false, "lb", "", projectID, pg, (*bucketRow).domain)
}
