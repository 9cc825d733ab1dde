package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
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
