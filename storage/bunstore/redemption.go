package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

var stackingRulesKey = "stacking_rules"

var stackingRules = docTable[redemption.StackingRules]{
	table: "promo_stacking_rules", resource: "stacking_rules",
	keys: func(r *redemption.StackingRules) docRow {
		row := docRow{ProjectID: r.ProjectID, ID: r.ID, Key: &stackingRulesKey, UpdatedAt: sqlTimePtr(r.UpdatedAt)}
		if r.CreatedAt != nil {
			row.CreatedAt = sqlTime(*r.CreatedAt)
		}
		return row
	},
	fill: func(r *redemption.StackingRules, row *docRow) {
		created := domainTime(row.CreatedAt)
		r.ProjectID, r.CreatedAt, r.UpdatedAt = row.ProjectID, &created, domainTimePtr(row.UpdatedAt)
	},
	notFound: notFoundOf("stacking_rules"),
	dup: func(r *redemption.StackingRules) error {
		return promotype.Duplicate("stacking_rules", "Stacking rules exist for project %s", r.ProjectID)
	},
}

// InsertStackingRules implements redemption.Store.
func (s *Store) InsertStackingRules(ctx context.Context, r *redemption.StackingRules) error {
	return stackingRules.insert(ctx, s.db, r)
}

// UpdateStackingRules implements redemption.Store.
func (s *Store) UpdateStackingRules(ctx context.Context, r *redemption.StackingRules) error {
	return stackingRules.update(ctx, s.db, r)
}

// GetStackingRules implements redemption.Store.
func (s *Store) GetStackingRules(ctx context.Context, projectID string) (*redemption.StackingRules, error) {
	return stackingRules.get(ctx, s.db, projectID, "key", stackingRulesKey)
}

// DeleteStackingRules implements redemption.Store.
func (s *Store) DeleteStackingRules(ctx context.Context, projectID string) error {
	r, err := s.GetStackingRules(ctx, projectID)
	if err != nil {
		return err
	}
	return stackingRules.delete(ctx, s.db, projectID, r.ID)
}

// redemptionRow is a row of the ledger (migration 0012).
type redemptionRow struct {
	bun.BaseModel `bun:"table:promo_redemptions,alias:r"`

	ProjectID         string          `bun:"project_id,pk"`
	ID                string          `bun:"id,pk"`
	Object            string          `bun:"object"`
	ParentID          *string         `bun:"parent_id"`
	VoucherID         *string         `bun:"voucher_id"`
	VoucherCode       *string         `bun:"voucher_code"`
	CampaignID        *string         `bun:"campaign_id"`
	RelatedObjectType string          `bun:"related_object_type"`
	RelatedObjectID   string          `bun:"related_object_id"`
	CustomerID        *string         `bun:"customer_id"`
	OrderID           *string         `bun:"order_id"`
	TrackingID        *string         `bun:"tracking_id"`
	Result            string          `bun:"result"`
	Status            string          `bun:"status"`
	FailureCode       *string         `bun:"failure_code"`
	IdempotencyKey    *string         `bun:"idempotency_key"`
	CreatedAt         time.Time       `bun:"created_at"`
	Doc               json.RawMessage `bun:"doc,type:jsonb"`
	Ledger            json.RawMessage `bun:"ledger,type:jsonb"`
	// The amounts the campaign summary sums (migration 0058): the order
	// amount, the applied discount, the credits and the points of the
	// row's answer; NULL in rows written before them (read from doc).
	OrderAmount    *int64 `bun:"order_amount"`
	DiscountAmount *int64 `bun:"discount_amount"`
	Credits        *int64 `bun:"credits"`
	Points         *int64 `bun:"points"`

	Total int `bun:"total,scanonly"`
}

func (r *redemptionRow) listTotal() int { return r.Total }

var redemptionColumns = columns{
	"id":                       {"id", promotype.FieldString},
	"object":                   {"object", promotype.FieldString},
	"result":                   {"result", promotype.FieldString},
	"status":                   {"status", promotype.FieldString},
	"voucher_code":             {"voucher_code", promotype.FieldString},
	"voucher_id":               {"voucher_id", promotype.FieldString},
	"related_object_id":        {"related_object_id", promotype.FieldString},
	"related_object_type":      {"related_object_type", promotype.FieldString},
	"related_object_parent_id": {"campaign_id", promotype.FieldString},
	"parent_redemption_id":     {"parent_id", promotype.FieldString},
	"failure_code":             {"failure_code", promotype.FieldString},
	"customer_id":              {"customer_id", promotype.FieldString},
	"order_id":                 {"order_id", promotype.FieldString},
	"tracking_id":              {"tracking_id", promotype.FieldString},
	"created_at":               {"created_at", promotype.FieldTime},
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func newRedemptionRow(r *redemption.Redemption) (*redemptionRow, error) {
	l := &r.Ledger
	if err := checkText("redemption", str("id", r.ID), str("project_id", l.ProjectID), str("idempotency_key", l.IdempotencyKey)); err != nil {
		return nil, err
	}
	doc, err := encodeJSON(r)
	if err != nil {
		return nil, err
	}
	ledger, err := encodeJSON(l)
	if err != nil {
		return nil, err
	}
	var amount, discount, credits, points int64
	if r.Order != nil {
		amount, discount = r.Order.Amount, r.Order.TotalAppliedDiscountAmount
	}
	if r.Gift != nil {
		credits = r.Gift.Amount
	}
	if r.LoyaltyCard != nil {
		points = r.LoyaltyCard.Points
	}
	return &redemptionRow{
		ProjectID: l.ProjectID, ID: r.ID, Object: r.Object, ParentID: optional(l.ParentID),
		VoucherID: optional(l.VoucherID), VoucherCode: optional(l.VoucherCode), CampaignID: optional(l.CampaignID),
		RelatedObjectType: r.RelatedObjectType, RelatedObjectID: r.RelatedObjectID,
		CustomerID: r.CustomerID, OrderID: optional(l.OrderID), TrackingID: r.TrackingID,
		Result: r.Result, Status: r.Status, FailureCode: r.FailureCode, IdempotencyKey: optional(l.IdempotencyKey),
		CreatedAt: sqlTime(r.Date), Doc: doc, Ledger: ledger,
		OrderAmount: &amount, DiscountAmount: &discount, Credits: &credits, Points: &points,
	}, nil
}

func (row *redemptionRow) decode() (*redemption.Redemption, error) {
	r := new(redemption.Redemption)
	if err := decodeJSON(row.Doc, r); err != nil {
		return nil, err
	}
	if err := decodeJSON(row.Ledger, &r.Ledger); err != nil {
		return nil, err
	}
	r.Status = row.Status // the column is what MarkRolledBack changes
	return r, nil
}

// InsertRedemptions implements redemption.Store.
func (s *Store) InsertRedemptions(ctx context.Context, rs ...*redemption.Redemption) error {
	if len(rs) == 0 {
		return nil
	}
	rows := make([]*redemptionRow, len(rs))
	for i, r := range rs {
		var err error
		if rows[i], err = newRedemptionRow(r); err != nil {
			return err
		}
	}
	if p := s.held(); p != nil {
		p.redemptions = append(p.redemptions, rows...)
		return s.sendIfFull(ctx)
	}
	return insertAllNew(ctx, s.db, "insert redemptions", &rows, len(rows), func() error {
		return promotype.Duplicate("redemption", "Duplicated redemption exists")
	})
}

func (s *Store) getRedemption(ctx context.Context, projectID, where, arg string) (*redemption.Redemption, error) {
	notFound := func() error { return promotype.NotFound("redemption", arg) }
	if !storableKeys(projectID, arg) {
		return nil, notFound()
	}
	var row redemptionRow
	if err := s.db.NewSelect().Model(&row).Where("r.project_id = ? AND r."+where+" = ?", projectID, arg).Scan(ctx); err != nil {
		return nil, getErr("get redemption", err, notFound)
	}
	return row.decode()
}

// GetRedemption implements redemption.Store.
func (s *Store) GetRedemption(ctx context.Context, projectID, id string) (*redemption.Redemption, error) {
	return s.getRedemption(ctx, projectID, "id", id)
}

// FindRedemptionByIdempotencyKey implements redemption.Store.
func (s *Store) FindRedemptionByIdempotencyKey(ctx context.Context, projectID, key string) (*redemption.Redemption, error) {
	return s.getRedemption(ctx, projectID, "idempotency_key", key)
}

// ListRedemptions implements redemption.Store.
func (s *Store) ListRedemptions(ctx context.Context, projectID string, q promotype.Query) ([]*redemption.Redemption, int, error) {
	if !storable(projectID) {
		return []*redemption.Redemption{}, 0, nil
	}
	rows, total, err := list[redemptionRow](ctx, s.db, redemptionColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("r.project_id = ?", projectID)
	}, nil)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*redemption.Redemption, len(rows))
	for i := range rows {
		if out[i], err = rows[i].decode(); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// MarkRolledBack implements redemption.Store: one conditional update, so
// of two concurrent rollbacks exactly one finds the redemption SUCCEEDED.
func (s *Store) MarkRolledBack(ctx context.Context, projectID, id, rollbackID string, at promotype.Time) (bool, error) {
	if !storableKeys(projectID, id) {
		return false, promotype.NotFound("redemption", id)
	}
	res, err := s.db.NewUpdate().Model((*redemptionRow)(nil)).
		Set("status = ?", redemption.StatusRolledBack).
		Set("ledger = r.ledger || jsonb_build_object('rolled_back_by', ?::text, 'rolled_back_at', ?::timestamptz)", rollbackID, sqlTime(at)).
		Where("r.project_id = ? AND r.id = ? AND r.status = ?", projectID, id, redemption.StatusSucceeded).Exec(ctx)
	if err != nil {
		return false, fail("mark redemption rolled back", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil
	}
	_, err = s.GetRedemption(ctx, projectID, id)
	return false, err
}

// SpendVoucher implements redemption.Store: one UPDATE whose WHERE holds
// every limit, so PostgreSQL's row lock decides between concurrent spends
// (a waiting one re-checks the limits against the committed row).
func (s *Store) SpendVoucher(ctx context.Context, projectID, id string, sp redemption.Spend) (*voucher.Voucher, error) {
	if !storableKeys(projectID, id) {
		return nil, promotype.NotFound("voucher", id)
	}
	var rows []voucherRow
	err := selectPrepared(ctx, s.db, spendStatement, &rows, projectID, id, sp.Quantity, sp.Credits, sp.Points)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("spend voucher", err, nil)
	}
	if len(rows) == 1 {
		return rows[0].domain()
	}
	return nil, s.spendRefused(ctx, projectID, id, sp)
}

// spendRefused is the error of a spend of sp the conditional update
// refused: why, read from the voucher (which the refusal did not change).
func (s *Store) spendRefused(ctx context.Context, projectID, id string, sp redemption.Spend) error {
	v, err := s.GetVoucher(ctx, projectID, id)
	switch {
	case err != nil:
		return err
	case v.ReservedUntil != nil && (sp.Quantity > 0 || sp.Credits > 0 || sp.Points > 0):
		return redemption.ErrReserved
	case sp.Quantity > 0 && v.RedemptionQuantity != nil && v.RedeemedQuantity+sp.Quantity > *v.RedemptionQuantity:
		return &redemption.LimitError{Limit: redemption.LimitQuantity, Key: id}
	case sp.Credits > 0:
		return &redemption.LimitError{Limit: redemption.LimitGift, Key: id}
	}
	return &redemption.LimitError{Limit: redemption.LimitPoints, Key: id}
}

// spendBalances sets a spend's gift and loyalty balances (arguments:
// credits, points, credits, points); a spend of neither leaves data as it is.
// A number becomes JSON through text (::text::jsonb), not to_jsonb: Citus
// refuses a function that is not immutable (to_jsonb is stable) inside the
// CASE of an UPDATE of a distributed table.
const spendBalances = `data = CASE WHEN ?::bigint = 0 AND ?::bigint = 0 THEN v.data ELSE
	jsonb_set(jsonb_set(v.data,
		'{gift,balance}', (COALESCE((v.data->'gift'->>'balance')::bigint, 0) - ?::bigint)::text::jsonb, false),
		'{loyalty_card,balance}', (COALESCE((v.data->'loyalty_card'->>'balance')::bigint, 0) - ?::bigint)::text::jsonb, false) END`

// spendStatement is SpendVoucher's conditional update: $1 project, $2
// voucher id, $3 quantity, $4 credits, $5 points.
var spendStatement = newPrepared("promo_vouchers", func(db bun.IDB) string {
	return spendUpdate(db, placeholder(3), placeholder(4), placeholder(5)).
		Where("v.project_id = ? AND v.id = ? AND v.binned_at IS NULL", placeholder(1), placeholder(2)).
		Returning("v.*").String()
})

// spendUpdate is the conditional update of a spend of quantity q, credits
// c and points p (SQL expressions): the change, and the limits it must
// keep in its WHERE.
func spendUpdate(db bun.IDB, q, c, p bun.Safe) *bun.UpdateQuery {
	return db.NewUpdate().Model((*voucherRow)(nil)).
		Set("redeemed_quantity = v.redeemed_quantity + ?::bigint", q).
		Set(spendBalances, c, p, c, p).
		Where("(v.reserved_until IS NULL OR (?::bigint <= 0 AND ?::bigint <= 0 AND ?::bigint <= 0))", q, c, p).
		Where("(?::bigint <= 0 OR v.redemption_quantity IS NULL OR v.redeemed_quantity + ?::bigint <= v.redemption_quantity)", q, q).
		Where("(?::bigint <= 0 OR COALESCE((v.data->'gift'->>'balance')::bigint, 0) >= ?::bigint)", c, c).
		Where("(?::bigint <= 0 OR COALESCE((v.data->'loyalty_card'->>'balance')::bigint, 0) >= ?::bigint)", p, p)
}

// spendManyStatement is SpendVouchers' one statement: $1 project, $2
// voucher ids (sorted, distinct), $3 quantities, $4 credits, $5 points.
// The live vouchers are locked in id order first (byte order, as Go sorts
// them: the order every spend locks vouchers in), then each is updated
// as spendStatement would; a refused one is left as it is and not
// returned.
var spendManyStatement = newPrepared("promo_vouchers", func(db bun.IDB) string {
	return spendUpdate(db, "s.q", "s.c", "s.p").
		With("locked", db.NewRaw(`SELECT v.id FROM promo_vouchers AS v
			WHERE v.project_id = $1 AND v.id = ANY($2::text[]) AND v.binned_at IS NULL
			ORDER BY v.id COLLATE "C" FOR UPDATE`)).
		TableExpr("locked JOIN unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[]) AS s(id, q, c, p) ON s.id = locked.id").
		Where("v.project_id = $1 AND v.id = locked.id").
		Returning("v.*").String()
})

// SpendVouchers implements redemption.Store with one statement: the
// vouchers it does not return were refused, and the first of those (in
// the order of ss) answers why, as SpendVoucher would.
func (s *Store) SpendVouchers(ctx context.Context, projectID string, ss []redemption.VoucherSpend) ([]*voucher.Voucher, error) {
	if len(ss) < 2 {
		return redemption.SpendEach(ctx, s, projectID, ss)
	}
	ids := make([]string, len(ss))
	q, c, p := make([]int64, len(ss)), make([]int64, len(ss)), make([]int64, len(ss))
	for i, sp := range ss {
		if !storableKeys(projectID, sp.VoucherID) || i > 0 && sp.VoucherID <= ids[i-1] {
			return redemption.SpendEach(ctx, s, projectID, ss) // not sorted and distinct as the statement needs
		}
		ids[i], q[i], c[i], p[i] = sp.VoucherID, sp.Spend.Quantity, sp.Spend.Credits, sp.Spend.Points
	}
	var rows []voucherRow
	if err := selectPrepared(ctx, s.db, spendManyStatement, &rows, projectID, ids, q, c, p); err != nil {
		return nil, fail("spend vouchers", err, nil)
	}
	byID := make(map[string]*voucherRow, len(rows))
	for i := range rows {
		byID[rows[i].ID] = &rows[i]
	}
	spent := make([]*voucher.Voucher, 0, len(ss))
	for _, sp := range ss {
		r := byID[sp.VoucherID]
		if r == nil {
			return spent, s.spendRefused(ctx, projectID, sp.VoucherID, sp.Spend)
		}
		v, err := r.domain()
		if err != nil {
			return spent, err
		}
		spent = append(spent, v)
	}
	return spent, nil
}

// AddCounters implements redemption.Store. A delta with a Max is one
// upsert whose conflict branch checks the limit against the locked row;
// the deltas without one between two such are one multi-row upsert (their
// sums per key, in key order), so a redemption's many counters cost a few
// statements. Rows are locked in the order of ds (callers sort by key).
func (s *Store) AddCounters(ctx context.Context, projectID string, ds ...redemption.CounterDelta) error {
	return s.addCounters(ctx, projectID, ds, nil)
}

// AddCountersRead implements redemption.Store: the upserts return the
// values they leave (RETURNING), so the keys of read that ds changes cost
// no statement of their own.
func (s *Store) AddCountersRead(ctx context.Context, projectID string, read []string, ds ...redemption.CounterDelta) (map[string]int64, error) {
	after := make(map[string]int64, len(ds))
	if err := s.addCounters(ctx, projectID, ds, after); err != nil {
		return nil, err
	}
	return s.readBack(ctx, projectID, read, after)
}

// readBack returns the values of the keys of read: those after holds (the
// values an upsert left), the others read.
func (s *Store) readBack(ctx context.Context, projectID string, read []string, after map[string]int64) (map[string]int64, error) {
	out := make(map[string]int64, len(read))
	var rest []string
	for _, k := range read {
		if v, ok := after[k]; ok {
			out[k] = v
		} else {
			rest = append(rest, k)
		}
	}
	if len(rest) > 0 {
		more, err := s.Counters(ctx, projectID, rest...)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, more)
	}
	return out, nil
}

// addCounters applies ds; with after, it records the value each key is
// left with.
func (s *Store) addCounters(ctx context.Context, projectID string, ds []redemption.CounterDelta, after map[string]int64) error {
	if err := checkCounterKeys(projectID, ds); err != nil {
		return err
	}
	for i := 0; i < len(ds); {
		if ds[i].Max != nil && ds[i].Delta > 0 {
			if err := s.addCapped(ctx, projectID, ds[i], after); err != nil {
				return err
			}
			i++
			continue
		}
		j := i
		for j < len(ds) && (ds[j].Max == nil || ds[j].Delta <= 0) {
			j++
		}
		if err := s.addRun(ctx, projectID, ds[i:j], after); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// checkCounterKeys refuses deltas whose keys PostgreSQL cannot store.
func checkCounterKeys(projectID string, ds []redemption.CounterDelta) error {
	for _, d := range ds {
		if err := checkText("counter", str("key", d.Key), str("project_id", projectID)); err != nil {
			return err
		}
	}
	return nil
}

// addCapped adds one delta under its Max.
func (s *Store) addCapped(ctx context.Context, projectID string, d redemption.CounterDelta, after map[string]int64) error {
	if d.Delta > *d.Max {
		return &redemption.LimitError{Limit: redemption.LimitCounter, Key: d.Key}
	}
	added := false
	err := queryPrepared(ctx, s.db, addCappedStatement, []any{projectID, d.Key, d.Delta, *d.Max}, func(_ *bun.DB, rows *sql.Rows) error {
		if added = rows.Next(); added && after != nil {
			var v int64
			if err := rows.Scan(&v); err != nil {
				return err
			}
			after[d.Key] = v
		}
		return nil
	})
	if err != nil {
		return fail("add counter", err, nil)
	}
	if !added {
		return &redemption.LimitError{Limit: redemption.LimitCounter, Key: d.Key}
	}
	return nil
}

// countersTable holds the redemption counters (migration 0012).
const countersTable = "promo_redemption_counters"

var addCappedStatement = rawPrepared(countersTable, `INSERT INTO promo_redemption_counters AS c (project_id, key, value) VALUES ($1, $2, $3)
	ON CONFLICT (project_id, key) DO UPDATE SET value = c.value + EXCLUDED.value
	WHERE c.value + EXCLUDED.value <= $4::bigint
	RETURNING value`)

// runUpsert is the upsert of deltas without a limit into project $1: keys
// and deltas are the placeholders of the arrays runArgs makes (the rows
// are written, so locked, in the order of keys).
func runUpsert(keys, deltas string) string {
	return `INSERT INTO promo_redemption_counters AS c (project_id, key, value)
	SELECT $1, u.key, u.value FROM unnest(` + keys + `::text[], ` + deltas + `::bigint[]) WITH ORDINALITY AS u(key, value, n) ORDER BY u.n
	ON CONFLICT (project_id, key) DO UPDATE SET value = c.value + EXCLUDED.value`
}

var addRunStatement = rawPrepared(countersTable, runUpsert("$2", "$3"))

var addRunReturningStatement = rawPrepared(countersTable, runUpsert("$2", "$3")+" RETURNING key, value")

var countersStatement = rawPrepared(countersTable, `SELECT key, value FROM promo_redemption_counters WHERE project_id = $1 AND key = ANY($2::text[])`)

// runArgs are the arguments of an upsert of deltas without a limit: the
// keys, sorted, and their summed deltas (an upsert may touch a row once;
// rows are locked in key order).
func runArgs(ds []redemption.CounterDelta) ([]string, []int64) {
	sums := make(map[string]int64, len(ds))
	keys := make([]string, 0, len(ds))
	for _, d := range ds {
		if _, ok := sums[d.Key]; !ok {
			keys = append(keys, d.Key)
		}
		sums[d.Key] += d.Delta
	}
	slices.Sort(keys)
	vals := make([]int64, len(keys))
	for i, k := range keys {
		vals[i] = sums[k]
	}
	return keys, vals
}

// addRun adds deltas without a limit in one statement: summed per key
// (an upsert may touch a row once), applied in key order. Counter deltas
// are never held back (pending): a redemption locks its counter rows
// before its voucher's, and a held delta would lock them after it, the
// order that deadlocks with the other redemptions.
func (s *Store) addRun(ctx context.Context, projectID string, ds []redemption.CounterDelta, after map[string]int64) error {
	keys, vals := runArgs(ds)
	st := addRunStatement
	if after != nil {
		st = addRunReturningStatement
	}
	err := queryPrepared(ctx, s.db, st, []any{projectID, keys, vals}, func(_ *bun.DB, rows *sql.Rows) error {
		for after != nil && rows.Next() {
			var k string
			var v int64
			if err := rows.Scan(&k, &v); err != nil {
				return err
			}
			after[k] = v
		}
		return nil
	})
	if err != nil {
		return fail("add counters", err, nil)
	}
	return nil
}

// Counters implements redemption.Store.
func (s *Store) Counters(ctx context.Context, projectID string, keys ...string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	for _, k := range keys {
		out[k] = 0
	}
	if len(keys) == 0 || !storableKeys(append([]string{projectID}, keys...)...) {
		return out, nil
	}
	err := queryPrepared(ctx, s.db, countersStatement, []any{projectID, keys}, func(_ *bun.DB, rows *sql.Rows) error {
		for rows.Next() {
			var k string
			var v int64
			if err := rows.Scan(&k, &v); err != nil {
				return err
			}
			out[k] = v
		}
		return nil
	})
	if err != nil {
		return nil, fail("read counters", err, nil)
	}
	return out, nil
}

// LockOrder implements redemption.Store: a row lock held until the
// transaction ends.
func (s *Store) LockOrder(ctx context.Context, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return promotype.NotFound("order", id)
	}
	var ids []string
	if err := s.db.NewRaw("SELECT id FROM promo_orders WHERE project_id = ? AND id = ? FOR UPDATE", projectID, id).Scan(ctx, &ids); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fail("lock order", err, nil)
	}
	if len(ids) == 0 {
		return promotype.NotFound("order", id)
	}
	return nil
}

// sessionTx runs fn over a store bound to a read-committed transaction
// (inTx): its own, or the one s is bound to.
func (s *Store) sessionTx(ctx context.Context, fn func(ctx context.Context, st *Store) error) error {
	ctx, cancel := withDeadline(ctx, s.txTimeout)
	defer cancel()
	return s.inTx(ctx, func(ctx context.Context, db bun.IDB) error {
		return fn(ctx, &Store{db: db, txTimeout: s.txTimeout, listeners: s.listeners, pending: s.pending, cluster: s.cluster})
	})
}

// lockedVoucher is what a session-aware change reads of the voucher row it
// locks.
type lockedVoucher struct {
	Quantity *int64 `bun:"redemption_quantity"`
	Redeemed int64  `bun:"redeemed_quantity"`
	Gift     *int64 `bun:"gift"`
	Points   *int64 `bun:"points"`
}

// lockVoucherRow locks the live voucher's row (FOR UPDATE) and reads its
// limits: every reservation write holds this lock, so the reservations a
// later statement of the transaction reads are all that count.
func (s *Store) lockVoucherRow(ctx context.Context, projectID, id string) (*lockedVoucher, error) {
	var rows []lockedVoucher
	err := s.db.NewRaw(`SELECT redemption_quantity, redeemed_quantity,
			(data->'gift'->>'balance')::bigint AS gift, (data->'loyalty_card'->>'balance')::bigint AS points
		FROM promo_vouchers WHERE project_id = ? AND id = ? AND binned_at IS NULL FOR UPDATE`, projectID, id).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("lock voucher", err, nil)
	}
	if len(rows) == 0 {
		return nil, promotype.NotFound("voucher", id)
	}
	return &rows[0], nil
}

// sessionRow is a row of promo_voucher_sessions (migration 0017).
type sessionRow struct {
	Key       string    `bun:"key"`
	Quantity  int64     `bun:"quantity"`
	Credits   int64     `bun:"credits"`
	Points    int64     `bun:"points"`
	ExpiresAt time.Time `bun:"expires_at"`
}

func (s *Store) liveSessions(ctx context.Context, projectID, voucherID string, now promotype.Time) ([]*redemption.Reservation, error) {
	var rows []sessionRow
	err := s.db.NewRaw(`SELECT key, quantity, credits, points, expires_at FROM promo_voucher_sessions
		WHERE project_id = ? AND voucher_id = ? AND expires_at > ?`, projectID, voucherID, sqlTime(now)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("read sessions", err, nil)
	}
	out := make([]*redemption.Reservation, len(rows))
	for i, r := range rows {
		out[i] = &redemption.Reservation{ProjectID: projectID, VoucherID: voucherID, Key: r.Key,
			Spend: redemption.Spend{Quantity: r.Quantity, Credits: r.Credits, Points: r.Points}, ExpiresAt: domainTime(r.ExpiresAt)}
	}
	return out, nil
}

// checkLeft refuses s on the locked voucher v when the live reservations
// of keys other than key leave too little.
func (s *Store) checkLeft(ctx context.Context, projectID, voucherID, key string, v *lockedVoucher, sp redemption.Spend, now promotype.Time) error {
	if sp.Quantity <= 0 && sp.Credits <= 0 && sp.Points <= 0 {
		return nil
	}
	live, err := s.liveSessions(ctx, projectID, voucherID, now)
	if err != nil {
		return err
	}
	others := live[:0]
	for _, r := range live {
		if r.Key != key {
			others = append(others, r)
		}
	}
	if lim := redemption.Left(v.Quantity, v.Redeemed, v.Gift, v.Points, others, sp); lim != "" {
		return &redemption.LimitError{Limit: lim, Key: voucherID}
	}
	return nil
}

// settleSessions deletes the voucher's expired reservations and sets its
// reserved_until to the latest expiry left (NULL: none). The caller holds
// the voucher's row lock.
func (s *Store) settleSessions(ctx context.Context, projectID, voucherID string, now promotype.Time) error {
	if _, err := s.db.NewRaw(`DELETE FROM promo_voucher_sessions WHERE project_id = ? AND voucher_id = ? AND expires_at <= ?`,
		projectID, voucherID, sqlTime(now)).Exec(ctx); err != nil {
		return fail("drop expired sessions", err, nil)
	}
	_, err := s.db.NewRaw(`UPDATE promo_vouchers SET reserved_until =
			(SELECT max(expires_at) FROM promo_voucher_sessions WHERE project_id = ? AND voucher_id = ?)
		WHERE project_id = ? AND id = ?`, projectID, voucherID, projectID, voucherID).Exec(ctx)
	if err != nil {
		return fail("settle sessions", err, nil)
	}
	return nil
}

// ReserveSession implements redemption.Store: the vouchers' rows are
// locked in id order (no deadlock between sessions), each reservation is
// checked against the others under its voucher's lock and written with
// reserved_until, and the key's reservations on other vouchers go, all in
// one transaction.
func (s *Store) ReserveSession(ctx context.Context, projectID, key string, rs []*redemption.Reservation, now promotype.Time) error {
	if err := checkText("session", str("project_id", projectID), str("key", key)); err != nil {
		return err
	}
	sorted := slices.Clone(rs)
	slices.SortFunc(sorted, func(a, b *redemption.Reservation) int { return strings.Compare(a.VoucherID, b.VoucherID) })
	return s.sessionTx(ctx, func(ctx context.Context, st *Store) error {
		keep := []string{}
		for _, r := range sorted {
			if !storableKeys(r.VoucherID) {
				return promotype.NotFound("voucher", r.VoucherID)
			}
			v, err := st.lockVoucherRow(ctx, projectID, r.VoucherID)
			if err != nil {
				return err
			}
			if err := st.checkLeft(ctx, projectID, r.VoucherID, key, v, r.Spend, now); err != nil {
				return err
			}
			_, err = st.db.NewRaw(`INSERT INTO promo_voucher_sessions (project_id, voucher_id, key, quantity, credits, points, expires_at)
				VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, voucher_id, key) DO UPDATE SET
				quantity = EXCLUDED.quantity, credits = EXCLUDED.credits, points = EXCLUDED.points, expires_at = EXCLUDED.expires_at`,
				projectID, r.VoucherID, key, r.Spend.Quantity, r.Spend.Credits, r.Spend.Points, sqlTime(r.ExpiresAt)).Exec(ctx)
			if err != nil {
				return fail("reserve", err, nil)
			}
			if err := st.settleSessions(ctx, projectID, r.VoucherID, now); err != nil {
				return err
			}
			keep = append(keep, r.VoucherID)
		}
		// The key's reservations elsewhere go: a delete needs no voucher
		// lock (reserved_until only stays later than needed, which the
		// next locked write settles).
		q := st.db.NewDelete().TableExpr("promo_voucher_sessions").Where("project_id = ? AND key = ?", projectID, key)
		if len(keep) > 0 {
			q = q.Where("voucher_id NOT IN (?)", bun.List(keep))
		}
		if _, err := q.Exec(ctx); err != nil {
			return fail("replace session", err, nil)
		}
		return nil
	})
}

// Reservations implements redemption.Store.
func (s *Store) Reservations(ctx context.Context, projectID, voucherID string, now promotype.Time) ([]*redemption.Reservation, error) {
	if !storableKeys(projectID, voucherID) {
		return nil, nil
	}
	return s.liveSessions(ctx, projectID, voucherID, now)
}

// SpendReserved implements redemption.Store: under the voucher's row
// lock, the others' live reservations are read in a statement of their
// own (so every committed one is seen), then the spend is applied and the
// key's reservation consumed.
func (s *Store) SpendReserved(ctx context.Context, projectID, voucherID string, sp redemption.Spend, key string, now promotype.Time) error {
	if !storableKeys(projectID, voucherID, key) {
		return promotype.NotFound("voucher", voucherID)
	}
	return s.sessionTx(ctx, func(ctx context.Context, st *Store) error {
		v, err := st.lockVoucherRow(ctx, projectID, voucherID)
		if err != nil {
			return err
		}
		if err := st.checkLeft(ctx, projectID, voucherID, key, v, sp, now); err != nil {
			return err
		}
		_, err = st.db.NewUpdate().Model((*voucherRow)(nil)).
			Set("redeemed_quantity = v.redeemed_quantity + ?", sp.Quantity).
			Set(spendBalances, sp.Credits, sp.Points, sp.Credits, sp.Points).
			Where("v.project_id = ? AND v.id = ?", projectID, voucherID).Exec(ctx)
		if err != nil {
			return fail("spend voucher", err, nil)
		}
		if key != "" {
			if _, err := st.db.NewRaw(`DELETE FROM promo_voucher_sessions WHERE project_id = ? AND voucher_id = ? AND key = ?`,
				projectID, voucherID, key).Exec(ctx); err != nil {
				return fail("consume session", err, nil)
			}
		}
		return st.settleSessions(ctx, projectID, voucherID, now)
	})
}

// ReleaseReservation implements redemption.Store.
func (s *Store) ReleaseReservation(ctx context.Context, projectID, voucherID, key string, now promotype.Time) error {
	if !storableKeys(projectID, voucherID) {
		return promotype.NotFound("voucher", voucherID)
	}
	if !storableKeys(key) {
		return promotype.NotFound("session", key)
	}
	return s.sessionTx(ctx, func(ctx context.Context, st *Store) error {
		if _, err := st.lockVoucherRow(ctx, projectID, voucherID); err != nil {
			return err
		}
		var keys []string
		err := st.db.NewRaw(`DELETE FROM promo_voucher_sessions WHERE project_id = ? AND voucher_id = ? AND key = ? AND expires_at > ? RETURNING key`,
			projectID, voucherID, key, sqlTime(now)).Scan(ctx, &keys)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fail("release session", err, nil)
		}
		if len(keys) == 0 {
			return promotype.NotFound("session", key)
		}
		return st.settleSessions(ctx, projectID, voucherID, now)
	})
}

// Savepoint implements redemption.Store: SAVEPOINT before fn, ROLLBACK TO
// it when fn fails. A savepoint that succeeded is not released (one round
// trip less per call); it ends with the transaction. Callers keep the
// number per transaction small (the combiner's batches: at most
// maxBatch), well under PostgreSQL's 64 cached subtransactions.
//
// The rows the transaction holds back (pending) are written before the
// savepoint, and those fn held are written when it returns, inside the
// savepoint: a row that cannot be stored is fn's error, and rolling back
// to the savepoint undoes only what fn wrote.
func (s *Store) Savepoint(ctx context.Context, fn func(ctx context.Context) error) error {
	switch s.db.(type) {
	case bun.Tx, *bun.Tx, pendingTx:
	default:
		return fn(ctx)
	}
	if err := s.sendHeld(ctx); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "SAVEPOINT promo_sp"); err != nil {
		return fail("savepoint", err, nil)
	}
	err := fn(ctx)
	if err == nil && s.pending.blocks() {
		err = s.sendHeld(ctx)
	}
	if err != nil {
		if p := s.pending; p != nil {
			p.clear() // all of it held since the savepoint
			p.err = nil
		}
		if _, rerr := s.db.ExecContext(ctx, "ROLLBACK TO SAVEPOINT promo_sp"); rerr != nil {
			return errors.Join(err, fail("rollback to savepoint", rerr, nil))
		}
		return err
	}
	return nil
}

// transactionRow is a voucher transaction (migration 0018); seq is
// numbered by the database.
type transactionRow struct {
	bun.BaseModel `bun:"table:promo_voucher_transactions,alias:t"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	VoucherID  string          `bun:"voucher_id"`
	CampaignID *string         `bun:"campaign_id"`
	CreatedAt  time.Time       `bun:"created_at"`
	Doc        json.RawMessage `bun:"doc,type:jsonb"`
}

// domain decodes the transaction's document.
func (r *transactionRow) domain() (*redemption.Transaction, error) {
	t := new(redemption.Transaction)
	if err := decodeJSON(r.Doc, t); err != nil {
		return nil, err
	}
	t.ProjectID = r.ProjectID
	return t, nil
}

// InsertTransactions implements redemption.Store.
func (s *Store) InsertTransactions(ctx context.Context, ts ...*redemption.Transaction) error {
	if len(ts) == 0 {
		return nil
	}
	rows := make([]*transactionRow, len(ts))
	for i, t := range ts {
		if err := checkText("transaction", str("id", t.ID), str("project_id", t.ProjectID), str("voucher_id", t.VoucherID)); err != nil {
			return err
		}
		doc, err := encodeJSON(t)
		if err != nil {
			return err
		}
		rows[i] = &transactionRow{ProjectID: t.ProjectID, ID: t.ID, VoucherID: t.VoucherID, CampaignID: t.CampaignID, CreatedAt: sqlTime(t.CreatedAt), Doc: doc}
	}
	return insertAllNew(ctx, s.db, "insert transactions", &rows, len(rows), func() error {
		return promotype.Duplicate("transaction", "Duplicated transaction exists")
	})
}

// transactionColumns are the filterable fields of a transaction list
// (redemption.TransactionFields).
var transactionColumns = columns{
	"id":         {"t.id", promotype.FieldString},
	"voucher_id": {"t.voucher_id", promotype.FieldString},
}

// ListTransactions implements redemption.Store: a range of the index
// (project_id, voucher_id, seq) or (project_id, campaign_id, seq), the
// filter applied to the rows of the range.
func (s *Store) ListTransactions(ctx context.Context, projectID string, p redemption.TransactionPage) ([]*redemption.Transaction, error) {
	out := []*redemption.Transaction{}
	col, scope := "voucher_id", p.VoucherID
	if scope == "" {
		col, scope = "campaign_id", p.CampaignID
	}
	if !storableKeys(projectID, scope, p.AfterID) {
		if p.AfterID != "" {
			return nil, promotype.NotFound("transaction", p.AfterID)
		}
		return out, nil
	}
	sel := s.db.NewSelect().Model((*transactionRow)(nil)).Column("t.doc", "t.project_id").
		Where("t.project_id = ? AND t."+col+" = ?", projectID, scope)
	where, args, err := transactionColumns.where(promotype.Query{Filter: p.Filter})
	if err != nil {
		return nil, err
	}
	if where != "" {
		sel = sel.Where(where, args...)
	}
	dir, cmp := "ASC", ">"
	if p.Desc {
		dir, cmp = "DESC", "<"
	}
	if p.AfterID != "" {
		var seqs []int64
		err := s.db.NewRaw("SELECT seq FROM promo_voucher_transactions WHERE project_id = ? AND "+col+" = ? AND id = ?", projectID, scope, p.AfterID).Scan(ctx, &seqs)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fail("find transaction", err, nil)
		}
		if len(seqs) == 0 {
			return nil, promotype.NotFound("transaction", p.AfterID)
		}
		sel = sel.Where("t.seq "+cmp+" ?", seqs[0])
	}
	var rows []transactionRow
	if err := sel.OrderExpr("t.seq "+dir).Limit(int64(p.Limit)).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("list transactions", err, nil)
	}
	for i := range rows {
		t, err := rows[i].domain()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// HeldVouchers implements redemption.QualificationStore: the customer's
// wallet rows (promo_holders_customer_idx), lowest id first, then their
// live vouchers.
func (s *Store) HeldVouchers(ctx context.Context, projectID, customerID, after string, limit int) ([]*redemption.HeldVoucher, error) {
	out := []*redemption.HeldVoucher{}
	if !storableKeys(projectID, customerID) {
		return out, nil
	}
	var hs []holderRow
	if err := s.db.NewSelect().Model(&hs).Column("id", "redeemable_id", "holder_role").
		Where("project_id = ? AND customer_id = ? AND id > ?", projectID, customerID, after).
		Order("id").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fail("list wallet", err, nil)
	}
	if len(hs) == 0 {
		return out, nil
	}
	ids := make([]string, len(hs))
	for i := range hs {
		ids[i] = hs[i].RedeemableID
	}
	var rows []voucherRow
	if err := s.db.NewSelect().Model(&rows).Where("project_id = ? AND id IN (?) AND binned_at IS NULL", projectID, bun.List(ids)).
		Scan(ctx); err != nil {
		return nil, fail("list wallet vouchers", err, nil)
	}
	byID := make(map[string]*voucherRow, len(rows))
	for i := range rows {
		byID[rows[i].ID] = &rows[i]
	}
	for i := range hs {
		row := byID[hs[i].RedeemableID]
		if row == nil {
			continue
		}
		v, err := row.domain()
		if err != nil {
			return nil, err
		}
		out = append(out, &redemption.HeldVoucher{Key: hs[i].ID, Role: hs[i].HolderRole, Voucher: v})
	}
	return out, nil
}

// PublicVouchers implements redemption.QualificationStore: free vouchers
// under no campaign (promo_vouchers_public_idx, 0061, in the order read)
// and under each STANDALONE campaign (promo_campaigns_standalone_idx, then
// the campaign's live vouchers), newest first, then by code. Each table is
// filtered on the project itself, so Citus routes the statement to one
// shard.
func (s *Store) PublicVouchers(ctx context.Context, projectID string, after, until *redemption.OfferKey, limit int) ([]*voucher.Voucher, error) {
	out := []*voucher.Voucher{}
	if !storable(projectID) || limit < 1 {
		return out, nil
	}
	keyset, keyArgs := "", []any{}
	if after != nil {
		keyset = " AND (v.created_at < ? OR (v.created_at = ? AND v.code > ?))"
		keyArgs = append(keyArgs, sqlTime(after.CreatedAt), sqlTime(after.CreatedAt), after.ID)
	}
	if until != nil {
		keyset += " AND (v.created_at > ? OR (v.created_at = ? AND v.code < ?))"
		keyArgs = append(keyArgs, sqlTime(until.CreatedAt), sqlTime(until.CreatedAt), until.ID)
	}
	args := append([]any{projectID}, keyArgs...)
	args = append(args, limit, projectID)
	args = append(args, keyArgs...)
	args = append(args, limit, projectID, limit)
	var rows []voucherRow
	err := s.db.NewRaw(`SELECT * FROM (
		(SELECT v.* FROM promo_vouchers AS v
			WHERE v.project_id = ? AND v.campaign_id IS NULL AND v.binned_at IS NULL AND v.holder_id IS NULL AND v.active = 'true'`+keyset+`
			ORDER BY v.created_at DESC, v.code LIMIT ?)
		UNION ALL
		(SELECT v.* FROM promo_campaigns AS c
			JOIN LATERAL (SELECT v.* FROM promo_vouchers AS v
				WHERE v.project_id = ? AND v.campaign_id = c.id AND v.binned_at IS NULL AND v.holder_id IS NULL AND v.active = 'true'`+keyset+`
				ORDER BY v.created_at DESC, v.code LIMIT ?) AS v ON true
			WHERE c.project_id = ? AND c.type = 'STANDALONE' AND c.binned_at IS NULL)
		) AS v ORDER BY v.created_at DESC, v.code LIMIT ?`, args...).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("list public vouchers", err, nil)
	}
	return domains[voucherRow, *voucherRow](rows)
}

// CampaignsByID implements redemption.QualificationStore: one read by
// primary key.
func (s *Store) CampaignsByID(ctx context.Context, projectID string, ids []string) ([]*campaign.Campaign, error) {
	out := []*campaign.Campaign{}
	ids = storableList(ids)
	if !storable(projectID) || len(ids) == 0 {
		return out, nil
	}
	var rows []campaignRow
	if err := s.db.NewSelect().Model(&rows).Where("c.project_id = ? AND c.id IN (?) AND c.binned_at IS NULL", projectID, bun.List(ids)).
		Scan(ctx); err != nil {
		return nil, fail("get campaigns", err, nil)
	}
	return domains[campaignRow, *campaignRow](rows)
}

// CampaignOffers implements redemption.QualificationStore: the campaigns
// newest first (promo_campaigns_offer_idx, 0033), each joined to its free
// voucher of lowest id (promo_vouchers_free_idx, 0022), then the
// campaigns read by primary key.
func (s *Store) CampaignOffers(ctx context.Context, projectID string, after, until *redemption.OfferKey, limit int) ([]*redemption.CampaignOffer, error) {
	out := []*redemption.CampaignOffer{}
	if !storable(projectID) || limit < 1 {
		return out, nil
	}
	keyset, args := "", []any{projectID, projectID} // each table on the project itself: one shard on Citus
	if after != nil {
		keyset = "AND (c.created_at < ? OR (c.created_at = ? AND c.id > ?))"
		args = append(args, sqlTime(after.CreatedAt), sqlTime(after.CreatedAt), after.ID)
	}
	if until != nil {
		keyset += " AND (c.created_at > ? OR (c.created_at = ? AND c.id < ?))"
		args = append(args, sqlTime(until.CreatedAt), sqlTime(until.CreatedAt), until.ID)
	}
	args = append(args, limit)
	var rows []voucherRow
	err := s.db.NewRaw(`SELECT v.* FROM promo_campaigns AS c
		JOIN LATERAL (SELECT v.* FROM promo_vouchers AS v
			WHERE v.project_id = ? AND v.campaign_id = c.id AND v.binned_at IS NULL AND v.holder_id IS NULL AND v.active = 'true'
			ORDER BY v.id LIMIT 1) AS v ON true
		WHERE c.project_id = ? AND c.campaign_type IN ('DISCOUNT_COUPONS', 'GIFT_VOUCHERS') AND c.type <> 'STANDALONE'
			AND c.active = 'true' AND c.binned_at IS NULL `+keyset+`
		ORDER BY c.created_at DESC, c.id LIMIT ?`, args...).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("list campaign offers", err, nil)
	}
	vs, err := domains[voucherRow, *voucherRow](rows)
	if err != nil || len(vs) == 0 {
		return out, err
	}
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = *v.CampaignID
	}
	cs, err := s.CampaignsByID(ctx, projectID, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*campaign.Campaign, len(cs))
	for _, c := range cs {
		byID[c.ID] = c
	}
	for _, v := range vs {
		if c := byID[*v.CampaignID]; c != nil {
			out = append(out, &redemption.CampaignOffer{Campaign: c, Voucher: v})
		}
	}
	return out, nil
}

// voucherRulesRow is a voucher row with the rule assignments of the
// voucher and of its campaign, as JSON.
type voucherRulesRow struct {
	voucherRow  `bun:",extend"`
	Assignments json.RawMessage `bun:"assignments,scanonly"`
}

// assignmentJSON is an assignment as voucherRulesStatement aggregates it.
type assignmentJSON struct {
	ID                string    `json:"id"`
	RuleID            string    `json:"rule_id"`
	RelatedObjectID   string    `json:"related_object_id"`
	RelatedObjectType string    `json:"related_object_type"`
	CreatedAt         time.Time `json:"created_at"`
}

// voucherRulesStatement reads the live voucher $2 of project $1 and the
// assignments of it and of its campaign in AssignmentsOf's order. Every
// table is filtered on $1 itself (not on v.project_id): Citus then routes
// the whole statement to the project's shard.
var voucherRulesStatement = newPrepared(voucherKeys.table, func(db bun.IDB) string {
	return db.NewSelect().Model((*voucherRulesRow)(nil)).ColumnExpr("?TableColumns").
		ColumnExpr(`coalesce((SELECT json_agg(json_build_object('id', a.id, 'rule_id', a.rule_id, 'related_object_id', a.related_object_id,
			'related_object_type', a.related_object_type, 'created_at', a.created_at) ORDER BY a.created_at, a.id)
			FROM promo_rule_assignments AS a WHERE a.project_id = $1 AND (
				(a.related_object_type = ? AND a.related_object_id = v.id) OR
				(a.related_object_type = ? AND a.related_object_id = v.campaign_id))), '[]') AS assignments`,
			rule.RelatedVoucher, rule.RelatedCampaign).
		Where("v.project_id = ? AND v.code = ? AND v."+voucherKeys.live, placeholder(1), placeholder(2)).String()
})

// FindVoucherByCodeWithAssignments implements
// redemption.VoucherRulesReader with one prepared statement.
func (s *Store) FindVoucherByCodeWithAssignments(ctx context.Context, projectID, code string) (*voucher.Voucher, []*rule.Assignment, error) {
	if !storableKeys(projectID, code) {
		return nil, nil, voucherNotFound(code)()
	}
	var r voucherRulesRow
	if err := getPrepared(ctx, s.db, voucherRulesStatement, &r, projectID, code); err != nil {
		return nil, nil, getErr("get voucher", err, voucherNotFound(code))
	}
	return r.domain()
}

// domain is the voucher and its assignments.
func (r *voucherRulesRow) domain() (*voucher.Voucher, []*rule.Assignment, error) {
	v, err := r.voucherRow.domain()
	if err != nil {
		return nil, nil, err
	}
	var rows []assignmentJSON
	if err := json.Unmarshal(r.Assignments, &rows); err != nil {
		return nil, nil, err
	}
	as := make([]*rule.Assignment, len(rows))
	for i, a := range rows {
		as[i] = &rule.Assignment{ID: a.ID, ProjectID: r.ProjectID, RuleID: a.RuleID, RelatedObjectID: a.RelatedObjectID,
			RelatedObjectType: a.RelatedObjectType, CreatedAt: domainTime(a.CreatedAt.UTC())}
	}
	return v, as, nil
}

// voucherCustomerRow is what voucherCustomerStatement answers: the
// voucher with its assignments and the customer, each all NULL (zero)
// when missing.
type voucherCustomerRow struct {
	voucherRulesRow `bun:",extend"`
	Customer        customerRow `bun:"embed:c__"`
}

// voucherCustomerStatement reads the live voucher with code $2 of project
// $1 as voucherRulesStatement does, and the live customer $3 names: the
// one with id $3 when $4 (the ref is an engine id), else the one with
// source id $3; one row, whatever is missing.
var voucherCustomerStatement = newPrepared(voucherKeys.table, func(db bun.IDB) string {
	var cols []string
	for _, f := range db.Dialect().Tables().Get(reflect.TypeFor[customerRow]()).Fields {
		cols = append(cols, "c."+string(f.SQLName)+" AS c__"+f.Name)
	}
	customer := func(where string) string {
		return "(SELECT " + strings.Join(cols, ", ") + " FROM promo_customers AS c WHERE c.project_id = $1 AND " + where + " AND c." + customerKeys.live + ")"
	}
	return `SELECT v.*, c.* FROM (SELECT 1) AS one
		LEFT JOIN LATERAL (` + voucherRulesStatement.sql(db) + `) AS v ON true
		LEFT JOIN LATERAL (` + customer("c.id = $3 AND $4::boolean") + ` UNION ALL ` + customer("c.source_id = $3") + ` LIMIT 1) AS c ON true`
})

// The store reads a request's voucher and customer together (the
// conformance suite skips what a store lacks, so this says it has it).
var _ redemption.VoucherCustomerReader = (*Store)(nil)

// FindVoucherAndCustomer implements redemption.VoucherCustomerReader with
// one prepared statement.
func (s *Store) FindVoucherAndCustomer(ctx context.Context, projectID, code, customerRef string) (redemption.VoucherAndCustomer, error) {
	var out redemption.VoucherAndCustomer
	if !storableKeys(projectID, code, customerRef) { // nothing stored has them: the separate reads say so
		var err error
		if out.Voucher, out.Assignments, err = s.FindVoucherByCodeWithAssignments(ctx, projectID, code); err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return out, err
		}
		if out.Customer, err = customer.Resolve(ctx, s, projectID, customerRef); err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return out, err
		}
		return out, nil
	}
	var r voucherCustomerRow
	byID := strings.HasPrefix(customerRef, promotype.PrefixCustomer)
	if err := getPrepared(ctx, s.db, voucherCustomerStatement, &r, projectID, code, customerRef, byID); err != nil {
		return out, fail("get voucher and customer", err, nil)
	}
	if r.ID != "" {
		v, as, err := r.voucherRulesRow.domain()
		if err != nil {
			return out, err
		}
		out.Voucher, out.Assignments = v, as
	}
	if r.Customer.ID != "" {
		c, err := r.Customer.domain()
		if err != nil {
			return out, err
		}
		out.Customer = c
	}
	return out, nil
}

// countSpendRow is what countSpendStatement answers: the counters' values
// after the upsert, whether the spend applied, and the voucher it left
// (NULL columns when it did not).
type countSpendRow struct {
	Keys       []string `bun:"c_keys,array"`
	Values     []int64  `bun:"c_values,array"`
	Spent      bool     `bun:"spent"`
	voucherRow `bun:",extend"`
}

// countSpendStatement is AddCountersReadSpend's one statement: addRun's
// upsert ($1 project, $6 keys, $7 deltas), then spendStatement ($1 to $5)
// in that order (the counter rows are locked before the voucher's, as
// when they are two statements), answered as one row.
var countSpendStatement = newPrepared(countersTable, func(db bun.IDB) string {
	return `WITH counted AS (` + runUpsert("$6", "$7") + ` RETURNING key, value),
	after AS (SELECT coalesce(array_agg(key), '{}') AS c_keys, coalesce(array_agg(value), '{}') AS c_values FROM counted),
	spent AS (` + spendStatement.sql(db) + `)
	SELECT after.c_keys, after.c_values, spent.id IS NOT NULL AS spent, spent.* FROM after LEFT JOIN spent ON true`
})

// AddCountersReadSpend implements redemption.Store with one statement
// when no delta has a Max (AddCountersRead and SpendVoucher otherwise).
func (s *Store) AddCountersReadSpend(ctx context.Context, projectID string, read []string, ds []redemption.CounterDelta, voucherID string, sp redemption.Spend) (map[string]int64, *voucher.Voucher, error) {
	if redemption.Capped(ds) || !storableKeys(projectID, voucherID) {
		return redemption.CountThenSpend(ctx, s, projectID, read, ds, voucherID, sp)
	}
	if err := checkCounterKeys(projectID, ds); err != nil {
		return nil, nil, err
	}
	keys, vals := runArgs(ds)
	var row countSpendRow
	if err := getPrepared(ctx, s.db, countSpendStatement, &row, projectID, voucherID, sp.Quantity, sp.Credits, sp.Points, keys, vals); err != nil {
		return nil, nil, fail("add counters and spend voucher", err, nil)
	}
	after := make(map[string]int64, len(row.Keys))
	for i, k := range row.Keys {
		after[k] = row.Values[i]
	}
	now, err := s.readBack(ctx, projectID, read, after)
	if err != nil {
		return nil, nil, err
	}
	if !row.Spent {
		return now, nil, s.spendRefused(ctx, projectID, voucherID, sp)
	}
	v, err := row.voucherRow.domain()
	return now, v, err
}

// campaignTotalsRow is the one row of the campaign totals' aggregates.
type campaignTotalsRow struct {
	Redemptions          int64 `bun:"redemptions"`
	RedemptionsSucceeded int64 `bun:"redemptions_succeeded"`
	Rollbacks            int64 `bun:"rollbacks"`
	RollbacksSucceeded   int64 `bun:"rollbacks_succeeded"`
	OrdersAmount         int64 `bun:"orders_amount"`
	DiscountedAmount     int64 `bun:"discounted_amount"`
	GiftAmount           int64 `bun:"gift_amount"`
	Points               int64 `bun:"points"`
	OrdersRolledBack     int64 `bun:"orders_rolled_back"`
	DiscountedRolledBack int64 `bun:"discounted_rolled_back"`
	GiftRolledBack       int64 `bun:"gift_rolled_back"`
	PointsRolledBack     int64 `bun:"points_rolled_back"`
}

// campaignTotalsSQL sums a campaign's ledger rows in one pass over the
// index of migration 0055 (project, campaign, date); the amounts are the
// columns of migration 0058, read from the rows' documents (as the answers
// hold them) only in rows written before it.
const campaignTotalsSQL = `WITH r AS (
	SELECT object, result, status,
		coalesce(order_amount, (doc->'order'->>'amount')::bigint, 0) AS amount,
		coalesce(discount_amount, (doc->'order'->>'total_applied_discount_amount')::bigint, 0) AS discount,
		coalesce(credits, (doc->'gift'->>'amount')::bigint, 0) AS gift,
		coalesce(points, (doc->'loyalty_card'->>'points')::bigint, 0) AS points
	FROM promo_redemptions
	WHERE project_id = ? AND campaign_id = ? AND created_at >= coalesce(?::timestamptz, '-infinity') AND created_at <= coalesce(?::timestamptz, 'infinity'))
SELECT
	count(*) FILTER (WHERE object = 'redemption') AS redemptions,
	count(*) FILTER (WHERE object = 'redemption' AND result = 'SUCCESS') AS redemptions_succeeded,
	count(*) FILTER (WHERE object = 'redemption_rollback') AS rollbacks,
	count(*) FILTER (WHERE object = 'redemption_rollback' AND result = 'SUCCESS') AS rollbacks_succeeded,
	coalesce(sum(amount) FILTER (WHERE object = 'redemption' AND result = 'SUCCESS'), 0) AS orders_amount,
	coalesce(sum(discount) FILTER (WHERE object = 'redemption' AND result = 'SUCCESS'), 0) AS discounted_amount,
	coalesce(sum(gift) FILTER (WHERE object = 'redemption' AND result = 'SUCCESS'), 0) AS gift_amount,
	coalesce(sum(points) FILTER (WHERE object = 'redemption' AND result = 'SUCCESS'), 0) AS points,
	coalesce(sum(amount) FILTER (WHERE object = 'redemption' AND status = 'ROLLED_BACK'), 0) AS orders_rolled_back,
	coalesce(sum(discount) FILTER (WHERE object = 'redemption' AND status = 'ROLLED_BACK'), 0) AS discounted_rolled_back,
	coalesce(sum(gift) FILTER (WHERE object = 'redemption' AND status = 'ROLLED_BACK'), 0) AS gift_rolled_back,
	coalesce(sum(points) FILTER (WHERE object = 'redemption' AND status = 'ROLLED_BACK'), 0) AS points_rolled_back
FROM r`

// CampaignTotals implements redemption.Store: one aggregate over the
// campaign's ledger rows, one over its publications.
func (s *Store) CampaignTotals(ctx context.Context, projectID, campaignID string, from, to *promotype.Time) (redemption.CampaignTotals, error) {
	var out redemption.CampaignTotals
	if !storableKeys(projectID, campaignID) {
		return out, nil
	}
	var row campaignTotalsRow
	if err := s.db.NewRaw(campaignTotalsSQL, projectID, campaignID, sqlTimePtr(from), sqlTimePtr(to)).Scan(ctx, &row); err != nil {
		return out, fail("sum campaign redemptions", err, nil)
	}
	out = redemption.CampaignTotals{Redemptions: row.Redemptions, RedemptionsSucceeded: row.RedemptionsSucceeded,
		Rollbacks: row.Rollbacks, RollbacksSucceeded: row.RollbacksSucceeded,
		OrdersAmount: row.OrdersAmount, DiscountedAmount: row.DiscountedAmount, GiftAmount: row.GiftAmount, Points: row.Points,
		OrdersRolledBack: row.OrdersRolledBack, DiscountedRolledBack: row.DiscountedRolledBack,
		GiftRolledBack: row.GiftRolledBack, PointsRolledBack: row.PointsRolledBack}
	var pubs struct {
		N         int64 `bun:"n"`
		Succeeded int64 `bun:"succeeded"`
	}
	err := s.db.NewRaw(`SELECT count(*) AS n, count(*) FILTER (WHERE result = 'SUCCESS') AS succeeded FROM promo_publications
		WHERE project_id = ? AND campaign_id = ? AND created_at >= coalesce(?::timestamptz, '-infinity') AND created_at <= coalesce(?::timestamptz, 'infinity')`,
		projectID, campaignID, sqlTimePtr(from), sqlTimePtr(to)).Scan(ctx, &pubs)
	if err != nil {
		return out, fail("count campaign publications", err, nil)
	}
	out.Publications, out.PublicationsSucceeded = pubs.N, pubs.Succeeded
	return out, nil
}
