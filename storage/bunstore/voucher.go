package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

type voucherRow struct {
	bun.BaseModel `bun:"table:promo_vouchers,alias:v"`

	ProjectID          string          `bun:"project_id,pk"`
	ID                 string          `bun:"id,pk"`
	Code               string          `bun:"code"`
	CampaignID         *string         `bun:"campaign_id"`
	CategoryID         *string         `bun:"category_id"`
	Type               string          `bun:"type"`
	Active             string          `bun:"active"`
	IsReferralCode     string          `bun:"is_referral_code"`
	HolderID           *string         `bun:"holder_id"`
	ReferrerID         *string         `bun:"referrer_id"`
	StartDate          *time.Time      `bun:"start_date"`
	ExpirationDate     *time.Time      `bun:"expiration_date"`
	RedemptionQuantity *int64          `bun:"redemption_quantity"`
	RedeemedQuantity   int64           `bun:"redeemed_quantity"`
	PublishCount       int64           `bun:"publish_count"`
	Data               json.RawMessage `bun:"data"`
	Metadata           json.RawMessage `bun:"metadata"`
	CreatedAt          time.Time       `bun:"created_at"`
	UpdatedAt          *time.Time      `bun:"updated_at"`
	BinnedAt           *time.Time      `bun:"binned_at"`
	ReservedUntil      *time.Time      `bun:"reserved_until"` // the session reservations' latest expiry (migration 0017)

	Total int `bun:"total,scanonly"`
}

func (r *voucherRow) listTotal() int { return r.Total }

// voucherData is every field of a voucher that is not a column of its own.
type voucherData struct {
	Discount          *campaign.Discount          `json:"discount,omitempty"`
	Gift              *voucher.Gift               `json:"gift,omitempty"`
	LoyaltyCard       *voucher.LoyaltyCard        `json:"loyalty_card,omitempty"`
	ValidityTimeframe *campaign.ValidityTimeframe `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek []int                       `json:"validity_day_of_week,omitempty"`
	ValidityHours     *campaign.ValidityHours     `json:"validity_hours,omitempty"`
	AdditionalInfo    *string                     `json:"additional_info,omitempty"`
	// EmptyDays records a validity_day_of_week given empty (null and []
	// differ in responses).
	EmptyDays bool `json:"empty_days,omitempty"`
}

var voucherColumns = columns{
	"id":               {"id", promotype.FieldString},
	"code":             {"code", promotype.FieldString},
	"campaign_id":      {"campaign_id", promotype.FieldString},
	"category_id":      {"category_id", promotype.FieldString},
	"type":             {"type", promotype.FieldString},
	"holder_id":        {"holder_id", promotype.FieldString},
	"active":           {"active", promotype.FieldString},
	"is_referral_code": {"is_referral_code", promotype.FieldString},
	"created_at":       {"created_at", promotype.FieldTime},
	"updated_at":       {"updated_at", promotype.FieldTime},
	"start_date":       {"start_date", promotype.FieldTime},
	"expiration_date":  {"expiration_date", promotype.FieldTime},
}

// voucherShared encodes the fields a batch's vouchers share.
func voucherShared(v *voucher.Voucher) (data, meta json.RawMessage, err error) {
	d := voucherData{
		Discount: v.Discount, Gift: v.Gift, LoyaltyCard: v.LoyaltyCard,
		ValidityTimeframe: v.ValidityTimeframe, ValidityDayOfWeek: v.ValidityDayOfWeek,
		ValidityHours: v.ValidityHours, AdditionalInfo: v.AdditionalInfo,
		EmptyDays: v.ValidityDayOfWeek != nil && len(v.ValidityDayOfWeek) == 0,
	}
	if data, err = encodeJSON(d); err != nil {
		return nil, nil, err
	}
	if meta, err = encodeMetadata(v.Metadata); err != nil {
		return nil, nil, err
	}
	return data, meta, nil
}

func newVoucherRow(v *voucher.Voucher) (*voucherRow, error) {
	if err := checkText("voucher", str("id", v.ID), str("project_id", v.ProjectID), str("code", v.Code),
		text{"campaign_id", v.CampaignID}, text{"category_id", v.CategoryID}, text{"additional_info", v.AdditionalInfo},
		text{"holder_id", v.HolderID}, text{"referrer_id", v.ReferrerID}); err != nil {
		return nil, err
	}
	data, meta, err := voucherShared(v)
	if err != nil {
		return nil, err
	}
	return &voucherRow{
		ProjectID: v.ProjectID, ID: v.ID, Code: v.Code,
		CampaignID: promotype.ClonePtr(v.CampaignID), CategoryID: promotype.ClonePtr(v.CategoryID),
		Type: string(v.Type), Active: v.Field("active").Str, IsReferralCode: v.Field("is_referral_code").Str,
		HolderID: promotype.ClonePtr(v.HolderID), ReferrerID: promotype.ClonePtr(v.ReferrerID),
		StartDate: sqlTimePtr(v.StartDate), ExpirationDate: sqlTimePtr(v.ExpirationDate),
		RedemptionQuantity: promotype.ClonePtr(v.RedemptionQuantity), RedeemedQuantity: v.RedeemedQuantity,
		PublishCount: v.PublishCount, Data: data, Metadata: meta,
		CreatedAt: sqlTime(v.CreatedAt), UpdatedAt: sqlTimePtr(v.UpdatedAt), BinnedAt: sqlTimePtr(v.BinnedAt),
		ReservedUntil: sqlTimePtr(v.ReservedUntil),
	}, nil
}

func (r *voucherRow) domain() (*voucher.Voucher, error) {
	var d voucherData
	if err := decodeJSON(r.Data, &d); err != nil {
		return nil, err
	}
	v := &voucher.Voucher{
		ID: r.ID, ProjectID: r.ProjectID, Code: r.Code, CampaignID: r.CampaignID, CategoryID: r.CategoryID,
		Type: campaign.VoucherType(r.Type), Discount: d.Discount, Gift: d.Gift, LoyaltyCard: d.LoyaltyCard,
		Validity: campaign.Validity{
			StartDate: domainTimePtr(r.StartDate), ExpirationDate: domainTimePtr(r.ExpirationDate),
			ValidityTimeframe: d.ValidityTimeframe, ValidityDayOfWeek: d.ValidityDayOfWeek, ValidityHours: d.ValidityHours,
		},
		Active: r.Active == "true", AdditionalInfo: d.AdditionalInfo, IsReferralCode: r.IsReferralCode == "true",
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt),
		HolderID: r.HolderID, ReferrerID: r.ReferrerID, BinnedAt: domainTimePtr(r.BinnedAt),
		RedemptionQuantity: r.RedemptionQuantity, RedeemedQuantity: r.RedeemedQuantity, PublishCount: r.PublishCount,
		ReservedUntil: domainTimePtr(r.ReservedUntil),
	}
	if d.EmptyDays {
		v.ValidityDayOfWeek = []int{}
	}
	var err error
	if v.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	return v, nil
}

func voucherNotFound(id string) func() error {
	return func() error { return promotype.NotFound("voucher", id) }
}

// voucherKeys is the live-code uniqueness of promo_vouchers.
var voucherKeys = keyed{kind: "voucher", table: "promo_vouchers", alias: "v", column: "code", live: "binned_at IS NULL"}

// InsertVoucher implements voucher.Store.
func (s *Store) InsertVoucher(ctx context.Context, v *voucher.Voucher) error {
	row, err := newVoucherRow(v)
	if err != nil {
		return err
	}
	return voucherKeys.insert(ctx, s.db, row, v.ProjectID, v.ID, &v.Code)
}

// InsertVouchers implements voucher.Store with one multi-row INSERT ... ON
// CONFLICT DO NOTHING; the ids it returns tell which rows went in.
func (s *Store) InsertVouchers(ctx context.Context, vs []*voucher.Voucher) ([]int, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	rows := make([]*voucherRow, len(vs))
	for i, v := range vs {
		var err error
		if rows[i], err = newVoucherRow(v); err != nil {
			return nil, err
		}
	}
	// In a bulk transaction (imports) the rows go with COPY, unless a code
	// is taken (copyNew, imports.go).
	copied, err := copyNew(ctx, s.db, "promo_vouchers", voucherCopyColumns, len(rows), func(i int) []any {
		r := rows[i]
		return []any{r.ProjectID, r.ID, r.Code, nullable(r.CampaignID), nullable(r.CategoryID), r.Type, r.Active, r.IsReferralCode,
			nullable(r.HolderID), nullable(r.ReferrerID), nullable(r.StartDate), nullable(r.ExpirationDate), nullable(r.RedemptionQuantity),
			r.RedeemedQuantity, r.PublishCount, []byte(r.Data), []byte(r.Metadata), r.CreatedAt, nullable(r.UpdatedAt)}
	})
	if err != nil || copied {
		return nil, err
	}
	var ids []string
	err = s.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("id").Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("insert vouchers", err, nil)
	}
	return rejectedOf(len(vs), func(i int) string { return vs[i].ID }, ids), nil
}

// rejectedOf returns the indexes, among n rows, whose id is not in inserted.
func rejectedOf(n int, id func(int) string, inserted []string) []int {
	if len(inserted) == n {
		return nil
	}
	in := make(map[string]bool, len(inserted))
	for _, s := range inserted {
		in[s] = true
	}
	var out []int
	for i := range n {
		if !in[id(i)] {
			out = append(out, i)
		}
	}
	return out
}

// InsertBatch implements voucher.Store: in a bulk transaction (RunInBulkTx)
// with COPY, else with one INSERT ... SELECT over unnest of the ids and
// codes, every other column a constant.
func (s *Store) InsertBatch(ctx context.Context, b *voucher.Batch) ([]int, error) {
	if b.Len() == 0 {
		return nil, nil
	}
	t, err := newVoucherRow(b.Template)
	if err != nil {
		return nil, err
	}
	if ct, ok := s.db.(copyTx); ok {
		return s.copyBatch(ctx, ct, t, b)
	}
	return s.insertBatch(ctx, t, b)
}

// insertBatch writes b with INSERT ... ON CONFLICT DO NOTHING and returns
// the rows it could not store.
func (s *Store) insertBatch(ctx context.Context, t *voucherRow, b *voucher.Batch) ([]int, error) {
	ids, codes, err := batchArrays(b)
	if err != nil {
		return nil, err
	}
	var inserted []string
	err = s.db.NewRaw(`INSERT INTO promo_vouchers (project_id, id, code, campaign_id, category_id, type, active,
			is_referral_code, holder_id, referrer_id, start_date, expiration_date, redemption_quantity,
			redeemed_quantity, publish_count, data, metadata, created_at, updated_at)
		SELECT ?, u.id, u.code, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::bigint, ?, ?, ?::jsonb, ?::jsonb, ?, ?::timestamptz
		FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS u(id, code, n)
		ORDER BY u.n
		ON CONFLICT DO NOTHING
		RETURNING id`,
		t.ProjectID, t.CampaignID, t.CategoryID, t.Type, t.Active, t.IsReferralCode, t.HolderID, t.ReferrerID,
		t.StartDate, t.ExpirationDate, t.RedemptionQuantity, t.RedeemedQuantity, t.PublishCount,
		string(t.Data), string(t.Metadata), t.CreatedAt, t.UpdatedAt,
		pgdialect.Array(ids), pgdialect.Array(codes)).Scan(ctx, &inserted)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("insert voucher batch", err, nil)
	}
	return rejectedOf(b.Len(), func(i int) string { return string(b.ID(i)) }, inserted), nil
}

// batchArrays returns the ids and codes of b, in batch order (a generated
// chunk's ids count up, so the primary key takes them in one region),
// refusing text PostgreSQL cannot hold.
func batchArrays(b *voucher.Batch) (ids, codes []string, err error) {
	n := b.Len()
	ids, codes = make([]string, n), make([]string, n)
	for i := range n {
		ids[i], codes[i] = string(b.ID(i)), string(b.Code(i))
		if !storable(codes[i]) || !storable(ids[i]) {
			return nil, nil, promotype.InvalidPayload("Property .code of the voucher must be UTF-8 text without NUL characters")
		}
	}
	return ids, codes, nil
}

// LockVoucher implements voucher.Store with a row lock (SELECT ... FOR
// UPDATE): redemptions spend with an UPDATE of the same row, so they wait
// for the transaction that holds it, and it for them.
func (s *Store) LockVoucher(ctx context.Context, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return voucherNotFound(id)()
	}
	var n []int
	err := s.db.NewRaw(`SELECT 1 FROM promo_vouchers WHERE project_id = ? AND id = ? AND binned_at IS NULL FOR UPDATE`, projectID, id).Scan(ctx, &n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fail("lock voucher", err, nil)
	}
	if len(n) == 0 {
		return voucherNotFound(id)()
	}
	return nil
}

// UpdateVoucher implements voucher.Store.
func (s *Store) UpdateVoucher(ctx context.Context, v *voucher.Voucher) error {
	row, err := newVoucherRow(v)
	if err != nil {
		return rowErr(err, v.ProjectID, v.ID, voucherNotFound(v.ID))
	}
	row.BinnedAt = nil
	return voucherKeys.update(ctx, s.db, row, &v.Code, func() error {
		_, err := s.GetVoucher(ctx, v.ProjectID, v.ID)
		return err
	})
}

// GetVoucher implements voucher.Store.
func (s *Store) GetVoucher(ctx context.Context, projectID, id string) (*voucher.Voucher, error) {
	return getLive[voucherRow, *voucherRow, *voucher.Voucher](ctx, s.db, voucherKeys, "id", projectID, id, voucherNotFound(id))
}

// GetVoucherForUpdate implements voucher.Store: SELECT ... FOR UPDATE.
func (s *Store) GetVoucherForUpdate(ctx context.Context, projectID, id string) (*voucher.Voucher, error) {
	return getLiveForUpdate[voucherRow, *voucherRow, *voucher.Voucher](ctx, s.db, voucherKeys, "id", projectID, id, voucherNotFound(id))
}

// FindVoucherByCode implements voucher.Store.
func (s *Store) FindVoucherByCode(ctx context.Context, projectID, code string) (*voucher.Voucher, error) {
	return getLive[voucherRow, *voucherRow, *voucher.Voucher](ctx, s.db, voucherKeys, "code", projectID, code, voucherNotFound(code))
}

// ListVouchers implements voucher.Store.
func (s *Store) ListVouchers(ctx context.Context, projectID string, q promotype.Query) ([]*voucher.Voucher, int, error) {
	if !storable(projectID) {
		return []*voucher.Voucher{}, 0, nil
	}
	// The hidden status fields are expressions over start_date and
	// expiration_date, not columns: they are ANDed here.
	var must []promotype.Condition
	var extra []string
	var args []any
	for _, c := range q.Must {
		switch {
		case c.Field == voucher.FieldStartOrMin && c.Op == promotype.OpBefore:
			extra, args = append(extra, "coalesce(v.start_date, '-infinity') < ?"), append(args, sqlTime(c.At))
		case c.Field == voucher.FieldExpirationOrMax && c.Op == promotype.OpAfter:
			extra, args = append(extra, "coalesce(v.expiration_date, 'infinity') > ?"), append(args, sqlTime(c.At))
		default:
			must = append(must, c)
		}
	}
	q.Must = must
	var t *tally
	if len(extra) == 0 {
		t = voucherTally(projectID, q)
	}
	rows, total, err := list[voucherRow](ctx, s.db, voucherColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		sel = sel.Where("v.project_id = ? AND v.binned_at IS NULL", projectID)
		for i, e := range extra {
			sel = sel.Where(e, args[i])
		}
		return sel
	}, t)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*voucher.Voucher, len(rows))
	for i := range rows {
		if out[i], err = rows[i].domain(); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// voucherTally is the counter of the live vouchers q selects when there is
// one: the project's without conditions, a campaign's when the one
// condition is campaign_id $is (a campaign's voucher list); nil otherwise.
func voucherTally(projectID string, q promotype.Query) *tally {
	conds := append(q.Must[:len(q.Must):len(q.Must)], q.Filter.Conditions...)
	switch {
	case len(conds) == 0:
		return &tally{list: "vouchers", projectID: projectID}
	case len(conds) == 1 && conds[0].Field == "campaign_id" && conds[0].Op == promotype.OpIs && len(conds[0].Values) == 1:
		return &tally{list: "vouchers", projectID: projectID, scope: "campaign_id=" + conds[0].Values[0]}
	}
	return nil
}

// BinVoucher implements voucher.Store.
func (s *Store) BinVoucher(ctx context.Context, projectID, id string, at promotype.Time) error {
	return binByID[voucherRow](ctx, s.db, "bin voucher", "v", projectID, id, at, voucherNotFound(id))
}

// DeleteVoucher implements voucher.Store.
func (s *Store) DeleteVoucher(ctx context.Context, projectID, id string) error {
	return deleteByID[voucherRow](ctx, s.db, "delete voucher", "v", projectID, id, voucherNotFound(id))
}

// UpdateCampaignVouchers implements voucher.Store: the next limit live
// vouchers of the campaign in id order get f in one statement, the same
// change as CampaignFields.Apply.
func (s *Store) UpdateCampaignVouchers(ctx context.Context, projectID, campaignID string, f voucher.CampaignFields, afterID string, limit int) (int, string, error) {
	if !storableKeys(projectID, campaignID, afterID) {
		return 0, "", nil
	}
	if err := checkText("voucher", text{"category_id", f.CategoryID}); err != nil {
		return 0, "", err
	}
	validity, err := encodeJSON(voucherData{
		ValidityTimeframe: f.Validity.ValidityTimeframe, ValidityDayOfWeek: f.Validity.ValidityDayOfWeek,
		ValidityHours: f.Validity.ValidityHours,
		EmptyDays:     f.Validity.ValidityDayOfWeek != nil && len(f.Validity.ValidityDayOfWeek) == 0,
	})
	if err != nil {
		return 0, "", err
	}
	var discount *string
	if f.Discount != nil {
		b, err := encodeJSON(f.Discount)
		if err != nil {
			return 0, "", err
		}
		discount = promotype.Ptr(string(b))
	}
	var giftPatch *string
	if f.GiftAmount != nil {
		p := map[string]any{"amount": *f.GiftAmount}
		if f.GiftEffect != nil {
			p["effect"] = *f.GiftEffect
		}
		b, _ := json.Marshal(p)
		giftPatch = promotype.Ptr(string(b))
	}
	// The balance is JSON built from text, not jsonb_build_object (stable,
	// which Citus refuses inside the CASE of an UPDATE of a distributed table).
	const base = `((coalesce(v.data, '{}') - 'validity_timeframe' - 'validity_day_of_week' - 'validity_hours' - 'empty_days') || ?4::jsonb)`
	var res struct {
		N    int     `bun:"n"`
		Last *string `bun:"last"`
	}
	err = s.db.NewRaw(`WITH chunk AS (
			SELECT id FROM promo_vouchers
			WHERE project_id = ?0 AND campaign_id = ?1 AND binned_at IS NULL AND id > ?2
			ORDER BY id COLLATE "C"
			LIMIT ?3
		), upd AS (
			UPDATE promo_vouchers AS v SET
				category_id = ?5, start_date = ?6, expiration_date = ?7,
				data = CASE
					WHEN v.type = 'DISCOUNT_VOUCHER' AND ?8::jsonb IS NOT NULL THEN jsonb_set(`+base+`, '{discount}', ?8::jsonb)
					WHEN v.type = 'GIFT_VOUCHER' AND ?9::jsonb IS NOT NULL AND (`+base+`->'gift') IS NOT NULL THEN jsonb_set(`+base+`, '{gift}',
						((`+base+`->'gift') - 'effect') || ?9::jsonb || ('{"balance":' || coalesce(
							((?9::jsonb->>'amount')::bigint - coalesce((`+base+`->'gift'->>'subtracted_amount')::bigint, 0))::text, 'null') || '}')::jsonb)
					ELSE `+base+`
				END
			FROM chunk
			WHERE v.project_id = ?0 AND v.id = chunk.id AND v.publish_count = 0 AND v.redeemed_quantity = 0
			RETURNING v.id
		)
		SELECT (SELECT count(*) FROM upd) AS n, (SELECT max(id COLLATE "C") FROM chunk) AS last`,
		projectID, campaignID, afterID, limit, string(validity), f.CategoryID,
		sqlTimePtr(f.Validity.StartDate), sqlTimePtr(f.Validity.ExpirationDate), discount, giftPatch).Scan(ctx, &res)
	if err != nil {
		return 0, "", fail("update campaign vouchers", err, nil)
	}
	if res.Last == nil {
		return res.N, "", nil
	}
	return res.N, *res.Last, nil
}

// BinCampaignVouchers implements voucher.Store, limit vouchers a statement.
func (s *Store) BinCampaignVouchers(ctx context.Context, projectID, campaignID string, at promotype.Time, limit int) (int, error) {
	if !storableKeys(projectID, campaignID) {
		return 0, nil
	}
	if bulk, err := s.countsInBulk(ctx); err != nil {
		return 0, err
	} else if bulk {
		return s.binCampaignVouchersCounted(ctx, projectID, campaignID, at, limit)
	}
	res, err := s.db.NewRaw(`UPDATE promo_vouchers SET binned_at = ?
		WHERE project_id = ? AND id IN (
			SELECT id FROM promo_vouchers WHERE project_id = ? AND campaign_id = ? AND binned_at IS NULL LIMIT ?)`,
		sqlTime(at), projectID, projectID, campaignID, limit).Exec(ctx)
	if err != nil {
		return 0, fail("bin campaign vouchers", err, nil)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// countsInBulk reports whether a bulk statement of s may count its list
// changes itself (migration 0060): s runs in a transaction, where the
// setting that silences the per-row trigger lasts until the transaction
// ends, and not on Citus, whose workers (where the trigger fires) do not
// see the coordinator's setting.
func (s *Store) countsInBulk(ctx context.Context) (bool, error) {
	switch s.db.(type) {
	case bun.Tx, *bun.Tx, pendingTx, copyTx:
	default:
		return false, nil
	}
	citus, err := s.onCitus(ctx, s.db)
	if err != nil {
		return false, fail("bin campaign vouchers", err, nil)
	}
	return !citus, nil
}

// binCampaignVouchersCounted is BinCampaignVouchers counting the vouchers
// it bins out of the lists in the same statement, once per campaign,
// while promo.bulk_counts keeps the row trigger from counting them one by
// one (migration 0060).
func (s *Store) binCampaignVouchersCounted(ctx context.Context, projectID, campaignID string, at promotype.Time, limit int) (int, error) {
	if _, err := s.db.ExecContext(ctx, "SELECT set_config('promo.bulk_counts', 'on', true)"); err != nil {
		return 0, fail("bin campaign vouchers", err, nil)
	}
	var n int
	err := s.db.NewRaw(`WITH binned AS (
			UPDATE promo_vouchers SET binned_at = ?
			WHERE project_id = ? AND id IN (
				SELECT id FROM promo_vouchers WHERE project_id = ? AND campaign_id = ? AND binned_at IS NULL LIMIT ?)
			RETURNING project_id, campaign_id
		), counted AS (
			INSERT INTO promo_list_counts AS c (project_id, list, scope, stripe, n)
			SELECT b.project_id, 'vouchers', k.scope, (txid_current() % 64)::smallint, -count(*)
			FROM binned AS b CROSS JOIN LATERAL (VALUES (''), ('campaign_id=' || b.campaign_id)) AS k(scope)
			WHERE k.scope IS NOT NULL
			GROUP BY b.project_id, k.scope
			ORDER BY b.project_id, k.scope
			ON CONFLICT (project_id, list, scope, stripe) DO UPDATE SET n = c.n + excluded.n
		)
		SELECT count(*) FROM binned`,
		sqlTime(at), projectID, projectID, campaignID, limit).Scan(ctx, &n)
	if err != nil {
		return 0, fail("bin campaign vouchers", err, nil)
	}
	if _, err := s.db.ExecContext(ctx, "SELECT set_config('promo.bulk_counts', 'off', true)"); err != nil {
		return 0, fail("bin campaign vouchers", err, nil)
	}
	return n, nil
}

// DeleteCampaignVouchers implements voucher.Store, limit vouchers a statement.
func (s *Store) DeleteCampaignVouchers(ctx context.Context, projectID, campaignID string, limit int) (int, error) {
	if !storableKeys(projectID, campaignID) {
		return 0, nil
	}
	res, err := s.db.NewRaw(`DELETE FROM promo_vouchers
		WHERE project_id = ? AND id IN (
			SELECT id FROM promo_vouchers WHERE project_id = ? AND campaign_id = ? LIMIT ?)`,
		projectID, projectID, campaignID, limit).Exec(ctx)
	if err != nil {
		return 0, fail("delete campaign vouchers", err, nil)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
