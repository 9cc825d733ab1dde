package bunstore

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/referral"
)

type conversionRow struct {
	ProjectID         string    `bun:"project_id"`
	CampaignID        string    `bun:"campaign_id"`
	RefereeID         string    `bun:"referee_id"`
	ReferrerID        string    `bun:"referrer_id"`
	VoucherID         string    `bun:"voucher_id"`
	RelatedObjectType string    `bun:"related_object_type"`
	RelatedObjectID   string    `bun:"related_object_id"`
	CreatedAt         time.Time `bun:"created_at"`
}

// ClaimConversion implements referral.Store: INSERT ... ON CONFLICT DO
// NOTHING on the (project, campaign, referee) key, which waits for a
// concurrent claim of the same referee and then finds it.
func (s *Store) ClaimConversion(ctx context.Context, c *referral.Conversion) (bool, error) {
	if !storableKeys(c.ProjectID, c.CampaignID, c.RefereeID, c.ReferrerID, c.VoucherID, c.RelatedObjectType, c.RelatedObjectID) {
		return false, promotype.InvalidPayload("The ids of a referral must be UTF-8 text without NUL characters")
	}
	res, err := s.db.NewRaw(`INSERT INTO promo_referral_conversions (project_id, campaign_id, referee_id, referrer_id, voucher_id,
		related_object_type, related_object_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		c.ProjectID, c.CampaignID, c.RefereeID, c.ReferrerID, c.VoucherID, c.RelatedObjectType, c.RelatedObjectID,
		sqlTime(c.CreatedAt)).Exec(ctx)
	if err != nil {
		return false, fail("claim conversion", err, nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RefereeConversions implements referral.Store.
func (s *Store) RefereeConversions(ctx context.Context, projectID, customerID string) ([]*referral.Conversion, error) {
	if !storableKeys(projectID, customerID) {
		return nil, nil
	}
	var rows []conversionRow
	if err := s.db.NewRaw(`SELECT project_id, campaign_id, referee_id, referrer_id, voucher_id, related_object_type, related_object_id, created_at
		FROM promo_referral_conversions WHERE project_id = ? AND referee_id = ? ORDER BY created_at, campaign_id`,
		projectID, customerID).Scan(ctx, &rows); err != nil {
		return nil, fail("referee conversions", err, nil)
	}
	out := make([]*referral.Conversion, 0, len(rows))
	for _, r := range rows {
		out = append(out, &referral.Conversion{ProjectID: r.ProjectID, CampaignID: r.CampaignID, RefereeID: r.RefereeID,
			ReferrerID: r.ReferrerID, VoucherID: r.VoucherID, RelatedObjectType: r.RelatedObjectType,
			RelatedObjectID: r.RelatedObjectID, CreatedAt: promotype.NewTime(r.CreatedAt)})
	}
	return out, nil
}

// ReferrerCounts implements referral.Store.
func (s *Store) ReferrerCounts(ctx context.Context, projectID, customerID string) (map[string]int64, error) {
	out := map[string]int64{}
	if !storableKeys(projectID, customerID) {
		return out, nil
	}
	var rows []struct {
		CampaignID string `bun:"campaign_id"`
		N          int64  `bun:"n"`
	}
	if err := s.db.NewRaw(`SELECT campaign_id, count(*) AS n FROM promo_referral_conversions
		WHERE project_id = ? AND referrer_id = ? GROUP BY campaign_id`, projectID, customerID).Scan(ctx, &rows); err != nil {
		return nil, fail("referrer counts", err, nil)
	}
	for _, r := range rows {
		out[r.CampaignID] = r.N
	}
	return out, nil
}

// InsertReferees implements referral.Store: one INSERT of every row, so a
// duplicate stores none of them.
func (s *Store) InsertReferees(ctx context.Context, hs ...*referral.Holder) error {
	if len(hs) == 0 {
		return nil
	}
	values := make([]string, 0, len(hs))
	args := make([]any, 0, 6*len(hs))
	for _, h := range hs {
		if err := checkText("redeemable_holder", str("id", h.ID), str("project_id", h.ProjectID),
			str("redeemable_id", h.RedeemableID), str("customer_id", h.CustomerID)); err != nil {
			return err
		}
		doc, err := encodeJSON(h)
		if err != nil {
			return err
		}
		values = append(values, "(?, ?, ?, ?, ?, ?)")
		args = append(args, h.ProjectID, h.ID, h.RedeemableID, h.CustomerID, sqlTime(h.CreatedAt), doc)
	}
	_, err := s.db.NewRaw(`INSERT INTO promo_referral_holders (project_id, id, voucher_id, customer_id, created_at, doc) VALUES `+
		strings.Join(values, ", "), args...).Exec(ctx)
	if err != nil {
		return fail("insert referral holders", err, func() error {
			return promotype.Duplicate("redeemable_holder", "A customer is already assigned to the referral code")
		})
	}
	return nil
}

// ListReferees implements referral.Store.
func (s *Store) ListReferees(ctx context.Context, projectID, voucherID, afterID string, desc bool, limit int) ([]*referral.Holder, int, error) {
	out := []*referral.Holder{}
	if !storableKeys(projectID, voucherID, afterID) {
		return out, 0, nil
	}
	var total int
	if err := s.db.NewRaw(`SELECT count(*) FROM promo_referral_holders WHERE project_id = ? AND voucher_id = ?`,
		projectID, voucherID).Scan(ctx, &total); err != nil {
		return nil, 0, fail("count referral holders", err, nil)
	}
	cmp, order := ">", "ASC"
	if desc {
		cmp, order = "<", "DESC"
	}
	var docs []json.RawMessage
	q := `SELECT doc FROM promo_referral_holders WHERE project_id = ? AND voucher_id = ?`
	args := []any{projectID, voucherID}
	if afterID != "" {
		q += ` AND id ` + cmp + ` ?`
		args = append(args, afterID)
	}
	q += ` ORDER BY id ` + order + ` LIMIT ?`
	args = append(args, limit)
	if err := s.db.NewRaw(q, args...).Scan(ctx, &docs); err != nil {
		return nil, 0, fail("list referral holders", err, nil)
	}
	for _, d := range docs {
		var h referral.Holder
		if err := decodeJSON(d, &h); err != nil {
			return nil, 0, err
		}
		h.ProjectID = projectID
		out = append(out, &h)
	}
	return out, total, nil
}

// DeleteReferee implements referral.Store.
func (s *Store) DeleteReferee(ctx context.Context, projectID, voucherID, id string) error {
	if !storableKeys(projectID, voucherID, id) {
		return promotype.NotFound("redeemable_holder", id)
	}
	res, err := s.db.NewRaw(`DELETE FROM promo_referral_holders WHERE project_id = ? AND voucher_id = ? AND id = ?`,
		projectID, voucherID, id).Exec(ctx)
	if err != nil {
		return fail("delete referral holder", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return promotype.NotFound("redeemable_holder", id)
	}
	return nil
}
