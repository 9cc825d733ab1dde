package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

type earningRuleRow struct {
	bun.BaseModel `bun:"table:promo_earning_rules,alias:er"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	CampaignID string          `bun:"campaign_id"`
	Event      string          `bun:"event"`
	Active     bool            `bun:"active"`
	CreatedAt  time.Time       `bun:"created_at"`
	UpdatedAt  *time.Time      `bun:"updated_at"`
	Doc        json.RawMessage `bun:"doc"`

	Total int `bun:"total,scanonly"`
}

func (r *earningRuleRow) listTotal() int { return r.Total }

var earningRuleColumns = columns{
	"campaign_id": {"campaign_id", promotype.FieldString},
	"event":       {"event", promotype.FieldString},
	"active":      {"active", promotype.FieldString},
	"created_at":  {"created_at", promotype.FieldTime},
	"updated_at":  {"updated_at", promotype.FieldTime},
}

func (r *earningRuleRow) domain() (*loyalty.EarningRule, error) {
	var e loyalty.EarningRule
	if err := decodeJSON(r.Doc, &e); err != nil {
		return nil, err
	}
	e.ProjectID = r.ProjectID
	return &e, nil
}

func newEarningRuleRow(r *loyalty.EarningRule) (*earningRuleRow, error) {
	if err := checkText("earning rule", str("id", r.ID), str("project_id", r.ProjectID), str("campaign_id", r.CampaignID()),
		str("event", r.Event)); err != nil {
		return nil, err
	}
	doc, err := encodeJSON(r)
	if err != nil {
		return nil, err
	}
	return &earningRuleRow{ProjectID: r.ProjectID, ID: r.ID, CampaignID: r.CampaignID(), Event: r.Event, Active: r.Active,
		CreatedAt: sqlTime(r.CreatedAt), UpdatedAt: sqlTimePtr(r.UpdatedAt), Doc: doc}, nil
}

func earningRuleNotFound(id string) func() error {
	return func() error { return promotype.NotFound("earning_rule", id) }
}

// InsertEarningRules implements loyalty.Store.
func (s *Store) InsertEarningRules(ctx context.Context, rules ...*loyalty.EarningRule) error {
	if len(rules) == 0 {
		return nil
	}
	rows := make([]*earningRuleRow, len(rules))
	for i, r := range rules {
		var err error
		if rows[i], err = newEarningRuleRow(r); err != nil {
			return err
		}
	}
	return insertAllNew(ctx, s.db, "insert earning rules", &rows, len(rows), func() error {
		return promotype.Duplicate("earning_rule", "Duplicated earning_rule exists")
	})
}

// UpdateEarningRule implements loyalty.Store.
func (s *Store) UpdateEarningRule(ctx context.Context, r *loyalty.EarningRule) error {
	row, err := newEarningRuleRow(r)
	if err != nil {
		return rowErr(err, r.ProjectID, r.ID, earningRuleNotFound(r.ID))
	}
	return replaceRow(ctx, s.db, "update earning rule", row, earningRuleNotFound(r.ID))
}

// GetEarningRule implements loyalty.Store.
func (s *Store) GetEarningRule(ctx context.Context, projectID, id string) (*loyalty.EarningRule, error) {
	return getByID[earningRuleRow, *earningRuleRow, *loyalty.EarningRule](ctx, s.db, "get earning rule", "er", projectID, id, earningRuleNotFound(id))
}

// ListEarningRules implements loyalty.Store.
func (s *Store) ListEarningRules(ctx context.Context, projectID string, q promotype.Query) ([]*loyalty.EarningRule, int, error) {
	return listProject[earningRuleRow, *earningRuleRow, *loyalty.EarningRule](ctx, s.db, earningRuleColumns, "er", "", projectID, q)
}

// DeleteEarningRule implements loyalty.Store.
func (s *Store) DeleteEarningRule(ctx context.Context, projectID, id string) error {
	return deleteByID[earningRuleRow](ctx, s.db, "delete earning rule", "er", projectID, id, earningRuleNotFound(id))
}

// LockEarningRules implements loyalty.Store: it locks the project's row of
// promo_earning_rule_locks, made on first use.
func (s *Store) LockEarningRules(ctx context.Context, projectID string) error {
	if !storable(projectID) {
		return nil
	}
	_, err := s.db.NewRaw(`INSERT INTO promo_earning_rule_locks AS l (project_id) VALUES (?)
		ON CONFLICT (project_id) DO UPDATE SET project_id = l.project_id`, projectID).Exec(ctx)
	if err != nil {
		return fail("lock earning rules", err, nil)
	}
	return nil
}

// ClaimEarning implements loyalty.Store.
func (s *Store) ClaimEarning(ctx context.Context, c *loyalty.Claim) (bool, error) {
	if !storableKeys(c.ProjectID, c.EarningRuleID, c.OrderID, c.CustomerID) {
		return false, promotype.InvalidPayload("The ids of an earning must be UTF-8 text without NUL characters")
	}
	res, err := s.db.NewRaw(`INSERT INTO promo_earning_claims (project_id, earning_rule_id, order_id, customer_id, points, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		c.ProjectID, c.EarningRuleID, c.OrderID, c.CustomerID, c.Points, sqlTime(c.CreatedAt)).Exec(ctx)
	if err != nil {
		return false, fail("claim earning", err, nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// TakeRewardStock implements loyalty.Store: one conditional update, so
// concurrent takes never pass the stock.
func (s *Store) TakeRewardStock(ctx context.Context, projectID, id string) (bool, error) {
	if !storableKeys(projectID, id) {
		return false, promotype.NotFound("reward", id)
	}
	res, err := s.db.NewRaw(`UPDATE promo_rewards SET redeemed = coalesce(redeemed, 0) + 1
		WHERE project_id = ? AND id = ? AND (stock IS NULL OR coalesce(redeemed, 0) < stock)`, projectID, id).Exec(ctx)
	if err != nil {
		return false, fail("take reward stock", err, nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

type loyaltyTierRow struct {
	bun.BaseModel `bun:"table:promo_loyalty_tiers,alias:lt"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	CampaignID string          `bun:"campaign_id"`
	CreatedAt  time.Time       `bun:"created_at"`
	UpdatedAt  *time.Time      `bun:"updated_at"`
	Doc        json.RawMessage `bun:"doc"`

	Total int `bun:"total,scanonly"`
}

func (r *loyaltyTierRow) listTotal() int { return r.Total }

var loyaltyTierColumns = columns{
	"campaign_id": {"campaign_id", promotype.FieldString},
	"created_at":  {"created_at", promotype.FieldTime},
	"updated_at":  {"updated_at", promotype.FieldTime},
}

func (r *loyaltyTierRow) domain() (*loyalty.Tier, error) {
	var t loyalty.Tier
	if err := decodeJSON(r.Doc, &t); err != nil {
		return nil, err
	}
	t.ProjectID = r.ProjectID
	return &t, nil
}

// InsertTiers implements loyalty.Store.
func (s *Store) InsertTiers(ctx context.Context, tiers ...*loyalty.Tier) error {
	if len(tiers) == 0 {
		return nil
	}
	rows := make([]*loyaltyTierRow, len(tiers))
	for i, t := range tiers {
		if err := checkText("loyalty tier", str("id", t.ID), str("project_id", t.ProjectID), str("name", t.Name)); err != nil {
			return err
		}
		doc, err := encodeJSON(t)
		if err != nil {
			return err
		}
		rows[i] = &loyaltyTierRow{ProjectID: t.ProjectID, ID: t.ID, CampaignID: t.CampaignID, CreatedAt: sqlTime(t.CreatedAt), UpdatedAt: sqlTimePtr(t.UpdatedAt), Doc: doc}
	}
	return insertAllNew(ctx, s.db, "insert loyalty tiers", &rows, len(rows), func() error {
		return promotype.Duplicate("loyalty_tier", "Duplicated loyalty_tier exists")
	})
}

// GetTier implements loyalty.Store.
func (s *Store) GetTier(ctx context.Context, projectID, id string) (*loyalty.Tier, error) {
	return getByID[loyaltyTierRow, *loyaltyTierRow, *loyalty.Tier](ctx, s.db, "get loyalty tier", "lt", projectID, id, func() error { return promotype.NotFound("loyalty_tier", id) })
}

// ListTiers implements loyalty.Store.
func (s *Store) ListTiers(ctx context.Context, projectID string, q promotype.Query) ([]*loyalty.Tier, int, error) {
	return listProject[loyaltyTierRow, *loyaltyTierRow, *loyalty.Tier](ctx, s.db, loyaltyTierColumns, "lt", "", projectID, q)
}

type pendingRow struct {
	bun.BaseModel `bun:"table:promo_loyalty_pending,alias:lp"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	VoucherID  string          `bun:"voucher_id"`
	CampaignID string          `bun:"campaign_id"`
	Status     string          `bun:"status"`
	Due        time.Time       `bun:"due"`
	Doc        json.RawMessage `bun:"doc"`
}

// pendingDoc is what the doc column keeps of an entry: the entry and its
// fields that JSON answers leave out.
type pendingDoc struct {
	*loyalty.PendingPoints
	Status string         `json:"status"`
	Due    promotype.Time `json:"due"`
}

func newPendingRow(p *loyalty.PendingPoints) (*pendingRow, error) {
	if err := checkText("pending points", str("id", p.ID), str("project_id", p.ProjectID), str("voucher_id", p.VoucherID)); err != nil {
		return nil, err
	}
	doc, err := encodeJSON(pendingDoc{PendingPoints: p, Status: p.Status, Due: p.Due})
	if err != nil {
		return nil, err
	}
	return &pendingRow{ProjectID: p.ProjectID, ID: p.ID, VoucherID: p.VoucherID, CampaignID: p.CampaignID, Status: p.Status,
		Due: sqlTime(p.Due), Doc: doc}, nil
}

func (r *pendingRow) domain() (*loyalty.PendingPoints, error) {
	d := pendingDoc{PendingPoints: &loyalty.PendingPoints{}}
	if err := decodeJSON(r.Doc, &d); err != nil {
		return nil, err
	}
	p := d.PendingPoints
	p.ProjectID, p.Status, p.Due = r.ProjectID, d.Status, d.Due
	return p, nil
}

func pendingNotFound(id string) func() error {
	return func() error { return promotype.NotFound("pending_points", id) }
}

// InsertPendingPoints implements loyalty.Store.
func (s *Store) InsertPendingPoints(ctx context.Context, p *loyalty.PendingPoints) error {
	row, err := newPendingRow(p)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert pending points", row, func() error {
		return promotype.Duplicate("pending_points", "Duplicated pending_points exists with id %s", p.ID)
	})
}

// UpdatePendingPoints implements loyalty.Store.
func (s *Store) UpdatePendingPoints(ctx context.Context, p *loyalty.PendingPoints) error {
	row, err := newPendingRow(p)
	if err != nil {
		return rowErr(err, p.ProjectID, p.ID, pendingNotFound(p.ID))
	}
	return replaceRow(ctx, s.db, "update pending points", row, pendingNotFound(p.ID))
}

// GetPendingPoints implements loyalty.Store.
func (s *Store) GetPendingPoints(ctx context.Context, projectID, id string) (*loyalty.PendingPoints, error) {
	return getByID[pendingRow, *pendingRow, *loyalty.PendingPoints](ctx, s.db, "get pending points", "lp", projectID, id, pendingNotFound(id))
}

// ListPendingPoints implements loyalty.Store.
func (s *Store) ListPendingPoints(ctx context.Context, projectID string, q loyalty.PendingQuery) ([]*loyalty.PendingPoints, error) {
	if !storableKeys(projectID, q.CampaignID, q.VoucherID, q.AfterID) {
		return []*loyalty.PendingPoints{}, nil
	}
	var rows []pendingRow
	sel := s.db.NewSelect().Model(&rows).Where("lp.project_id = ? AND lp.status = ?", projectID, loyalty.PendingState)
	if q.CampaignID != "" {
		sel = sel.Where("lp.campaign_id = ?", q.CampaignID)
	}
	if q.VoucherID != "" {
		sel = sel.Where("lp.voucher_id = ?", q.VoucherID)
	}
	order, after := "lp.id ASC", "lp.id > ?"
	if q.Desc {
		order, after = "lp.id DESC", "lp.id < ?"
	}
	if q.AfterID != "" {
		sel = sel.Where(after, q.AfterID)
	}
	if err := sel.OrderExpr(order).Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, fail("list pending points", err, nil)
	}
	return domains[pendingRow, *pendingRow](rows)
}

// DuePendingPoints implements loyalty.Store.
func (s *Store) DuePendingPoints(ctx context.Context, projectID string, at promotype.Time, limit int) ([]*loyalty.PendingPoints, error) {
	if !storable(projectID) {
		return []*loyalty.PendingPoints{}, nil
	}
	var rows []pendingRow
	err := s.db.NewSelect().Model(&rows).Where("lp.project_id = ? AND lp.status = ? AND lp.due <= ?", projectID, loyalty.PendingState, sqlTime(at)).
		OrderExpr("lp.due, lp.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fail("list due pending points", err, nil)
	}
	return domains[pendingRow, *pendingRow](rows)
}

// ProjectsWithDuePending implements loyalty.Store.
func (s *Store) ProjectsWithDuePending(ctx context.Context, at promotype.Time, limit int) ([]string, error) {
	return s.projectsWhere(ctx, "promo_loyalty_pending", "list projects with due pending points", limit, "status = ? AND due <= ?", loyalty.PendingState, sqlTime(at))
}

type bucketRow struct {
	bun.BaseModel `bun:"table:promo_loyalty_buckets,alias:lb"`

	ProjectID  string     `bun:"project_id,pk"`
	ID         string     `bun:"id,pk"`
	VoucherID  string     `bun:"voucher_id"`
	CampaignID string     `bun:"campaign_id"`
	Points     int64      `bun:"points"`
	LeftPoints int64      `bun:"left_points"`
	Status     string     `bun:"status"`
	ExpiresOn  *string    `bun:"expires_on"`
	Due        *time.Time `bun:"due"`
	CreatedAt  time.Time  `bun:"created_at"`
	UpdatedAt  *time.Time `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *bucketRow) domain() (*voucher.PointsBucket, error) {
	return &voucher.PointsBucket{ID: r.ID, ProjectID: r.ProjectID, VoucherID: r.VoucherID, CampaignID: r.CampaignID,
		Points: r.Points, Bucket: voucher.BucketPoints{TotalPoints: r.LeftPoints}, Status: r.Status, ExpiresAt: r.ExpiresOn,
		Due: domainTimePtr(r.Due), CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt),
		Object: "loyalty_points_bucket"}, nil
}

// InsertBuckets implements loyalty.Store.
func (s *Store) InsertBuckets(ctx context.Context, bs ...*voucher.PointsBucket) error {
	if len(bs) == 0 {
		return nil
	}
	rows := make([]bucketRow, len(bs))
	for i, b := range bs {
		if err := checkText("loyalty points bucket", str("id", b.ID), str("project_id", b.ProjectID), str("voucher_id", b.VoucherID)); err != nil {
			return err
		}
		rows[i] = bucketRow{ProjectID: b.ProjectID, ID: b.ID, VoucherID: b.VoucherID, CampaignID: b.CampaignID, Points: b.Points,
			LeftPoints: b.Bucket.TotalPoints, Status: b.Status, ExpiresOn: b.ExpiresAt, Due: sqlTimePtr(b.Due),
			CreatedAt: sqlTime(b.CreatedAt), UpdatedAt: sqlTimePtr(b.UpdatedAt)}
	}
	if _, err := s.db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fail("insert loyalty points buckets", err, func() error {
			return promotype.Duplicate("loyalty_points_bucket", "Duplicated loyalty_points_bucket exists")
		})
	}
	return nil
}

// UpdateBuckets implements loyalty.Store: one statement for all of them.
func (s *Store) UpdateBuckets(ctx context.Context, bs ...*voucher.PointsBucket) error {
	if len(bs) == 0 {
		return nil
	}
	projectID := bs[0].ProjectID
	ids, left, status := make([]string, len(bs)), make([]int64, len(bs)), make([]string, len(bs))
	at := make([]time.Time, len(bs))
	for i, b := range bs {
		ids[i], left[i], status[i] = b.ID, b.Bucket.TotalPoints, b.Status
		if b.UpdatedAt != nil {
			at[i] = sqlTime(*b.UpdatedAt)
		}
	}
	_, err := s.db.NewRaw(`UPDATE promo_loyalty_buckets AS lb SET left_points = u.left_points, status = u.status, updated_at = u.at
		FROM unnest(?::text[], ?::bigint[], ?::text[], ?::timestamptz[]) AS u(id, left_points, status, at)
		WHERE lb.project_id = ? AND lb.id = u.id`,
		pgdialect.Array(ids), pgdialect.Array(left), pgdialect.Array(status), pgdialect.Array(at), projectID).Exec(ctx)
	if err != nil {
		return fail("update loyalty points buckets", err, nil)
	}
	return nil
}

// CardBuckets implements loyalty.Store.
func (s *Store) CardBuckets(ctx context.Context, projectID string, ids []string, dueBy promotype.Time) ([]*voucher.PointsBucket, error) {
	var rows []bucketRow
	err := s.db.NewSelect().Model(&rows).
		Where("lb.project_id = ? AND lb.voucher_id = ANY(?) AND lb.status = ?", projectID, pgdialect.Array(ids), voucher.BucketActive).
		Where("(lb.left_points > 0 OR lb.due <= ?)", sqlTime(dueBy)).Scan(ctx)
	if err != nil {
		return nil, fail("read card buckets", err, nil)
	}
	return domains[bucketRow, *bucketRow](rows)
}

// ListBuckets implements loyalty.Store.
func (s *Store) ListBuckets(ctx context.Context, projectID, voucherID string, limit, offset int) ([]*voucher.PointsBucket, int, error) {
	if !storableKeys(projectID, voucherID) {
		return []*voucher.PointsBucket{}, 0, nil
	}
	var rows []bucketRow
	err := s.db.NewSelect().Model(&rows).ColumnExpr("lb.*, count(*) OVER () AS total").
		Where("lb.project_id = ? AND lb.voucher_id = ? AND lb.status = ?", projectID, voucherID, voucher.BucketActive).
		OrderExpr("lb.due ASC NULLS LAST, lb.created_at, lb.id").Limit(int64(limit)).Offset(int64(offset)).Scan(ctx)
	if err != nil {
		return nil, 0, fail("list card buckets", err, nil)
	}
	out, err := domains[bucketRow, *bucketRow](rows)
	if err != nil || len(rows) > 0 || offset == 0 {
		total := 0
		if len(rows) > 0 {
			total = rows[0].Total
		}
		return out, total, err
	}
	total, err := s.db.NewSelect().Model((*bucketRow)(nil)).
		Where("lb.project_id = ? AND lb.voucher_id = ? AND lb.status = ?", projectID, voucherID, voucher.BucketActive).Count(ctx)
	if err != nil {
		return nil, 0, fail("count card buckets", err, nil)
	}
	return out, int(total), nil
}

// DueBuckets implements loyalty.Store.
func (s *Store) DueBuckets(ctx context.Context, projectID string, at promotype.Time, after *voucher.PointsBucket, limit int) ([]*voucher.PointsBucket, error) {
	if !storable(projectID) {
		return []*voucher.PointsBucket{}, nil
	}
	var rows []bucketRow
	sel := s.db.NewSelect().Model(&rows).
		Where("lb.project_id = ? AND lb.status = ? AND lb.due IS NOT NULL AND lb.due <= ?", projectID, voucher.BucketActive, sqlTime(at))
	if after != nil && after.Due != nil {
		sel = sel.Where("(lb.due, lb.id) > (?, ?)", sqlTime(*after.Due), after.ID)
	}
	err := sel.OrderExpr("lb.due, lb.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fail("list due buckets", err, nil)
	}
	return domains[bucketRow, *bucketRow](rows)
}

// ProjectsWithDueBuckets implements loyalty.Store.
func (s *Store) ProjectsWithDueBuckets(ctx context.Context, at promotype.Time, limit int) ([]string, error) {
	return s.projectsWhere(ctx, "promo_loyalty_buckets", "list projects with due buckets", limit, "status = ? AND due IS NOT NULL AND due <= ?", voucher.BucketActive, sqlTime(at))
}

// LockCards implements loyalty.Store: FOR UPDATE SKIP LOCKED, in id order.
func (s *Store) LockCards(ctx context.Context, projectID string, ids []string) ([]*voucher.Voucher, error) {
	var rows []voucherRow
	err := s.db.NewRaw(`SELECT v.* FROM promo_vouchers AS v
		WHERE v.project_id = ? AND v.id = ANY(?::text[]) AND v.binned_at IS NULL
		ORDER BY v.id COLLATE "C" FOR UPDATE SKIP LOCKED`, projectID, pgdialect.Array(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, fail("lock loyalty cards", err, nil)
	}
	return domains[voucherRow, *voucherRow](rows)
}

// SetLoyaltyCards implements loyalty.Store: one statement for all of them.
func (s *Store) SetLoyaltyCards(ctx context.Context, projectID string, vs ...*voucher.Voucher) error {
	if len(vs) == 0 {
		return nil
	}
	ids, cards := make([]string, len(vs)), make([]string, len(vs))
	at := make([]time.Time, len(vs))
	for i, v := range vs {
		card, err := json.Marshal(v.LoyaltyCard)
		if err != nil {
			return err
		}
		ids[i], cards[i] = v.ID, string(card)
		if v.UpdatedAt != nil {
			at[i] = sqlTime(*v.UpdatedAt)
		}
	}
	_, err := s.db.NewRaw(`UPDATE promo_vouchers AS v SET data = jsonb_set(v.data, '{loyalty_card}', u.card::jsonb), updated_at = u.at
		FROM unnest(?::text[], ?::text[], ?::timestamptz[]) AS u(id, card, at)
		WHERE v.project_id = ? AND v.id = u.id`,
		pgdialect.Array(ids), pgdialect.Array(cards), pgdialect.Array(at), projectID).Exec(ctx)
	if err != nil {
		return fail("set loyalty cards", err, nil)
	}
	return nil
}

type tierHoldRow struct {
	bun.BaseModel `bun:"table:promo_loyalty_tier_holds,alias:th"`

	ProjectID      string     `bun:"project_id,pk"`
	VoucherID      string     `bun:"voucher_id,pk"`
	CampaignID     string     `bun:"campaign_id"`
	CustomerID     string     `bun:"customer_id"`
	TierID         string     `bun:"tier_id"`
	StartDate      string     `bun:"start_date"`
	ExpirationDate *string    `bun:"expiration_date"`
	Due            *time.Time `bun:"due"`
	CreatedAt      time.Time  `bun:"created_at"`
	UpdatedAt      time.Time  `bun:"updated_at"`
}

func (r *tierHoldRow) domain() (*loyalty.TierHold, error) {
	return &loyalty.TierHold{ProjectID: r.ProjectID, VoucherID: r.VoucherID, CampaignID: r.CampaignID, CustomerID: r.CustomerID,
		TierID: r.TierID, StartDate: r.StartDate, ExpirationDate: r.ExpirationDate, Due: domainTimePtr(r.Due),
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTime(r.UpdatedAt)}, nil
}

// GetTierHold implements loyalty.Store.
func (s *Store) GetTierHold(ctx context.Context, projectID, voucherID string) (*loyalty.TierHold, error) {
	if !storableKeys(projectID, voucherID) {
		return nil, nil
	}
	var rows []tierHoldRow
	if err := s.db.NewSelect().Model(&rows).Where("th.project_id = ? AND th.voucher_id = ?", projectID, voucherID).Scan(ctx); err != nil {
		return nil, fail("get tier hold", err, nil)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return rows[0].domain()
}

// PutTierHold implements loyalty.Store.
func (s *Store) PutTierHold(ctx context.Context, h *loyalty.TierHold) error {
	row := &tierHoldRow{ProjectID: h.ProjectID, VoucherID: h.VoucherID, CampaignID: h.CampaignID, CustomerID: h.CustomerID,
		TierID: h.TierID, StartDate: h.StartDate, ExpirationDate: h.ExpirationDate, Due: sqlTimePtr(h.Due),
		CreatedAt: sqlTime(h.CreatedAt), UpdatedAt: sqlTime(h.UpdatedAt)}
	_, err := s.db.NewInsert().Model(row).On("CONFLICT (project_id, voucher_id) DO UPDATE").
		Set("campaign_id = EXCLUDED.campaign_id, customer_id = EXCLUDED.customer_id, tier_id = EXCLUDED.tier_id").
		Set("start_date = EXCLUDED.start_date, expiration_date = EXCLUDED.expiration_date, due = EXCLUDED.due, updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	if err != nil {
		return fail("put tier hold", err, nil)
	}
	return nil
}

// DeleteTierHold implements loyalty.Store.
func (s *Store) DeleteTierHold(ctx context.Context, projectID, voucherID string) error {
	if _, err := s.db.NewDelete().Model((*tierHoldRow)(nil)).Where("project_id = ? AND voucher_id = ?", projectID, voucherID).Exec(ctx); err != nil {
		return fail("delete tier hold", err, nil)
	}
	return nil
}

// DueTierHolds implements loyalty.Store.
func (s *Store) DueTierHolds(ctx context.Context, projectID string, at promotype.Time, limit int) ([]*loyalty.TierHold, error) {
	if !storable(projectID) {
		return []*loyalty.TierHold{}, nil
	}
	var rows []tierHoldRow
	err := s.db.NewSelect().Model(&rows).Where("th.project_id = ? AND th.due IS NOT NULL AND th.due <= ?", projectID, sqlTime(at)).
		OrderExpr("th.due, th.voucher_id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fail("list due tier holds", err, nil)
	}
	return domains[tierHoldRow, *tierHoldRow](rows)
}

// ProjectsWithDueTierHolds implements loyalty.Store.
func (s *Store) ProjectsWithDueTierHolds(ctx context.Context, at promotype.Time, limit int) ([]string, error) {
	return s.projectsWhere(ctx, "promo_loyalty_tier_holds", "list projects with due tier holds", limit, "due IS NOT NULL AND due <= ?", sqlTime(at))
}

// CollectedPoints implements loyalty.Store (the collected index).
func (s *Store) CollectedPoints(ctx context.Context, projectID, voucherID string, since promotype.Time) (int64, error) {
	var sum int64
	err := s.db.NewSelect().Table("promo_loyalty_buckets").ColumnExpr("coalesce(sum(points), 0)").
		Where("project_id = ? AND voucher_id = ? AND created_at >= ?", projectID, voucherID, sqlTime(since)).Scan(ctx, &sum)
	if err != nil {
		return 0, fail("sum collected points", err, nil)
	}
	return sum, nil
}

type tierChangeRow struct {
	bun.BaseModel `bun:"table:promo_loyalty_tier_changes,alias:tc"`

	ProjectID  string    `bun:"project_id,pk"`
	ID         string    `bun:"id,pk"`
	VoucherID  string    `bun:"voucher_id"`
	CustomerID string    `bun:"customer_id"`
	CampaignID string    `bun:"campaign_id"`
	TierID     string    `bun:"tier_id"`
	Event      string    `bun:"event"`
	CreatedAt  time.Time `bun:"created_at"`
}

func (r *tierChangeRow) domain() (*loyalty.TierChange, error) {
	return &loyalty.TierChange{ProjectID: r.ProjectID, ID: r.ID, VoucherID: r.VoucherID, CustomerID: r.CustomerID,
		CampaignID: r.CampaignID, TierID: r.TierID, Event: r.Event, CreatedAt: domainTime(r.CreatedAt)}, nil
}

// InsertTierChanges implements loyalty.Store.
func (s *Store) InsertTierChanges(ctx context.Context, cs ...*loyalty.TierChange) error {
	if len(cs) == 0 {
		return nil
	}
	rows := make([]tierChangeRow, len(cs))
	for i, c := range cs {
		rows[i] = tierChangeRow{ProjectID: c.ProjectID, ID: c.ID, VoucherID: c.VoucherID, CustomerID: c.CustomerID,
			CampaignID: c.CampaignID, TierID: c.TierID, Event: c.Event, CreatedAt: sqlTime(c.CreatedAt)}
	}
	if _, err := s.db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fail("insert tier changes", err, func() error {
			return promotype.Duplicate("loyalty_tier_change", "Duplicated loyalty_tier_change exists with id %s", cs[0].ID)
		})
	}
	return nil
}

// TierChanges implements loyalty.Store.
func (s *Store) TierChanges(ctx context.Context, projectID string, limit int) ([]*loyalty.TierChange, error) {
	if !storable(projectID) {
		return []*loyalty.TierChange{}, nil
	}
	var rows []tierChangeRow
	err := s.db.NewSelect().Model(&rows).Where("tc.project_id = ?", projectID).OrderExpr("tc.created_at, tc.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fail("list tier changes", err, nil)
	}
	return domains[tierChangeRow, *tierChangeRow](rows)
}

// DeleteTierChange implements loyalty.Store.
func (s *Store) DeleteTierChange(ctx context.Context, projectID, id string) (bool, error) {
	res, err := s.db.NewDelete().Model((*tierChangeRow)(nil)).Where("project_id = ? AND id = ?", projectID, id).Exec(ctx)
	if err != nil {
		return false, fail("delete tier change", err, nil)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fail("delete tier change", err, nil)
	}
	return n == 1, nil
}

// ProjectsWithTierChanges implements loyalty.Store.
func (s *Store) ProjectsWithTierChanges(ctx context.Context, limit int) ([]string, error) {
	return s.projectsWhere(ctx, "promo_loyalty_tier_changes", "list projects with tier changes", limit, "TRUE")
}

// projectsWhere returns, in order, up to limit ids of the projects with
// rows of table where holds (the scheduler's one read across projects);
// op names the read in an error.
func (s *Store) projectsWhere(ctx context.Context, table, op string, limit int, where string, args ...any) ([]string, error) {
	var ids []string
	err := s.db.NewSelect().Table(table).ColumnExpr("DISTINCT project_id").Where(where, args...).
		OrderExpr("project_id").Limit(int64(limit)).Scan(ctx, &ids)
	if err != nil {
		return nil, fail(op, err, nil)
	}
	return ids, nil
}
