package memory

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// loyaltyData holds earning rules and the claims that make each earn once
// per order (keyed by rule id and order id).
type loyaltyData struct {
	rules   table[loyalty.EarningRule]
	claims  table[loyalty.Claim]
	tiers   table[loyalty.Tier]
	pending table[loyalty.PendingPoints]
	buckets table[voucher.PointsBucket]
	holds   table[loyalty.TierHold]   // by card id
	changes table[loyalty.TierChange] // tier changes rules have yet to earn on
	// cardBuckets lists each card's bucket ids (project id, voucher id).
	cardBuckets map[[2]string][]string
}

func newLoyaltyData() loyaltyData {
	return loyaltyData{rules: newTable[loyalty.EarningRule](), claims: newTable[loyalty.Claim](), tiers: newTable[loyalty.Tier](),
		pending: newTable[loyalty.PendingPoints](), buckets: newTable[voucher.PointsBucket](), holds: newTable[loyalty.TierHold](), changes: newTable[loyalty.TierChange](), cardBuckets: map[[2]string][]string{}}
}

func earningRuleField(r *loyalty.EarningRule, name string) promotype.Value {
	switch name {
	case "campaign_id":
		return promotype.Value{Str: r.CampaignID()}
	case "event":
		return promotype.Value{Str: r.Event}
	case "active":
		return promotype.Value{Str: strconv.FormatBool(r.Active)}
	case "created_at":
		return tm(r.CreatedAt)
	case "updated_at":
		return tmPtr(r.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func earningRuleID(r *loyalty.EarningRule) string { return r.ID }

// InsertEarningRules implements loyalty.Store.
func (s *Store) InsertEarningRules(ctx context.Context, rules ...*loyalty.EarningRule) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, r := range rules {
			if err := insertNew(&d.loyalty.rules, u, r.ProjectID, r.ID, "earning_rule", r.Clone()); err != nil {
				return err
			}
		}
		return nil
	})
}

// UpdateEarningRule implements loyalty.Store.
func (s *Store) UpdateEarningRule(ctx context.Context, r *loyalty.EarningRule) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.loyalty.rules, u, r.ProjectID, r.ID, "earning_rule", r.Clone())
	})
}

// GetEarningRule implements loyalty.Store.
func (s *Store) GetEarningRule(ctx context.Context, projectID, id string) (out *loyalty.EarningRule, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.loyalty.rules, projectID, id, "earning_rule", (*loyalty.EarningRule).Clone)
	})
	return out, err
}

// ListEarningRules implements loyalty.Store.
func (s *Store) ListEarningRules(ctx context.Context, projectID string, q promotype.Query) (out []*loyalty.EarningRule, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.loyalty.rules.rows[projectID], q, earningRuleField, earningRuleID, nil, (*loyalty.EarningRule).Clone)
	})
	return out, total, nil
}

// DeleteEarningRule implements loyalty.Store.
func (s *Store) DeleteEarningRule(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.loyalty.rules, u, projectID, id, "earning_rule") })
}

// LockEarningRules implements loyalty.Store: a transaction of this store
// runs alone.
func (s *Store) LockEarningRules(ctx context.Context, projectID string) error { return ctx.Err() }

// ClaimEarning implements loyalty.Store.
func (s *Store) ClaimEarning(ctx context.Context, c *loyalty.Claim) (claimed bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		key := c.EarningRuleID + "\x00" + c.OrderID
		if _, taken := d.loyalty.claims.get(c.ProjectID, key); taken {
			return nil
		}
		cc := *c
		d.loyalty.claims.put(u, c.ProjectID, key, &cc)
		claimed = true
		return nil
	})
	return claimed, err
}

// TakeRewardStock implements loyalty.Store.
func (s *Store) TakeRewardStock(ctx context.Context, projectID, id string) (taken bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		r, ok := d.rewards.get(projectID, id)
		if !ok {
			return promotype.NotFound("reward", id)
		}
		redeemed := int64(0)
		if r.Redeemed != nil {
			redeemed = *r.Redeemed
		}
		if r.Stock != nil && redeemed >= *r.Stock {
			return nil
		}
		c := r.Clone()
		c.Redeemed = promotype.Ptr(redeemed + 1)
		d.rewards.put(u, projectID, id, c)
		taken = true
		return nil
	})
	return taken, err
}

func loyaltyTierField(t *loyalty.Tier, name string) promotype.Value {
	switch name {
	case "campaign_id":
		return promotype.Value{Str: t.CampaignID}
	case "created_at":
		return tm(t.CreatedAt)
	case "updated_at":
		return tmPtr(t.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func loyaltyTierID(t *loyalty.Tier) string { return t.ID }

// InsertTiers implements loyalty.Store.
func (s *Store) InsertTiers(ctx context.Context, tiers ...*loyalty.Tier) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, t := range tiers {
			if err := insertNew(&d.loyalty.tiers, u, t.ProjectID, t.ID, "loyalty_tier", t.Clone()); err != nil {
				return err
			}
		}
		return nil
	})
}

// GetTier implements loyalty.Store.
func (s *Store) GetTier(ctx context.Context, projectID, id string) (out *loyalty.Tier, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.loyalty.tiers, projectID, id, "loyalty_tier", (*loyalty.Tier).Clone)
	})
	return out, err
}

// ListTiers implements loyalty.Store.
func (s *Store) ListTiers(ctx context.Context, projectID string, q promotype.Query) (out []*loyalty.Tier, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.loyalty.tiers.rows[projectID], q, loyaltyTierField, loyaltyTierID, nil, (*loyalty.Tier).Clone)
	})
	return out, total, nil
}

// InsertPendingPoints implements loyalty.Store.
func (s *Store) InsertPendingPoints(ctx context.Context, p *loyalty.PendingPoints) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.loyalty.pending, u, p.ProjectID, p.ID, "pending_points", p.Clone())
	})
}

// UpdatePendingPoints implements loyalty.Store.
func (s *Store) UpdatePendingPoints(ctx context.Context, p *loyalty.PendingPoints) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.loyalty.pending, u, p.ProjectID, p.ID, "pending_points", p.Clone())
	})
}

// GetPendingPoints implements loyalty.Store.
func (s *Store) GetPendingPoints(ctx context.Context, projectID, id string) (out *loyalty.PendingPoints, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.loyalty.pending, projectID, id, "pending_points", (*loyalty.PendingPoints).Clone)
	})
	return out, err
}

// ListPendingPoints implements loyalty.Store.
func (s *Store) ListPendingPoints(ctx context.Context, projectID string, q loyalty.PendingQuery) (out []*loyalty.PendingPoints, err error) {
	s.read(ctx, func(d *data) {
		out = []*loyalty.PendingPoints{}
		for _, p := range d.loyalty.pending.rows[projectID] {
			after := q.AfterID == "" || (p.ID > q.AfterID) != q.Desc
			if p.Status == loyalty.PendingState && after && (q.CampaignID == "" || p.CampaignID == q.CampaignID) &&
				(q.VoucherID == "" || p.VoucherID == q.VoucherID) && p.ID != q.AfterID {
				out = append(out, p.Clone())
			}
		}
		slices.SortFunc(out, func(a, b *loyalty.PendingPoints) int {
			if q.Desc {
				return strings.Compare(b.ID, a.ID)
			}
			return strings.Compare(a.ID, b.ID)
		})
		if len(out) > q.Limit {
			out = out[:q.Limit]
		}
	})
	return out, nil
}

// DuePendingPoints implements loyalty.Store.
func (s *Store) DuePendingPoints(ctx context.Context, projectID string, at promotype.Time, limit int) (out []*loyalty.PendingPoints, err error) {
	s.read(ctx, func(d *data) {
		out = []*loyalty.PendingPoints{}
		for _, p := range d.loyalty.pending.rows[projectID] {
			if p.Status == loyalty.PendingState && !p.Due.After(at.Time) {
				out = append(out, p.Clone())
			}
		}
		slices.SortFunc(out, func(a, b *loyalty.PendingPoints) int {
			if c := a.Due.Compare(b.Due.Time); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		if len(out) > limit {
			out = out[:limit]
		}
	})
	return out, nil
}

// ProjectsWithDuePending implements loyalty.Store.
func (s *Store) ProjectsWithDuePending(ctx context.Context, at promotype.Time, limit int) (out []string, err error) {
	s.read(ctx, func(d *data) {
		out = projectsWith(d.loyalty.pending.rows, limit, func(project string) bool {
			for _, p := range d.loyalty.pending.rows[project] {
				if p.Status == loyalty.PendingState && !p.Due.After(at.Time) {
					return true
				}
			}
			return false
		})
	})
	return out, nil
}

// InsertBuckets implements loyalty.Store.
func (s *Store) InsertBuckets(ctx context.Context, bs ...*voucher.PointsBucket) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, b := range bs {
			if err := insertNew(&d.loyalty.buckets, u, b.ProjectID, b.ID, "loyalty_points_bucket", b.Clone()); err != nil {
				return err
			}
			k := [2]string{b.ProjectID, b.VoucherID}
			ids := d.loyalty.cardBuckets[k]
			d.loyalty.cardBuckets[k] = append(ids, b.ID)
			u.push(func() { d.loyalty.cardBuckets[k] = ids })
		}
		return nil
	})
}

// UpdateBuckets implements loyalty.Store.
func (s *Store) UpdateBuckets(ctx context.Context, bs ...*voucher.PointsBucket) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, b := range bs {
			old, ok := d.loyalty.buckets.get(b.ProjectID, b.ID)
			if !ok {
				return promotype.NotFound("loyalty_points_bucket", b.ID)
			}
			c := old.Clone()
			c.Bucket, c.Status, c.UpdatedAt = b.Bucket, b.Status, promotype.ClonePtr(b.UpdatedAt)
			d.loyalty.buckets.put(u, b.ProjectID, b.ID, c)
		}
		return nil
	})
}

// cardBucketsOf returns the stored buckets of card voucherID that keep.
func (d *data) cardBucketsOf(projectID, voucherID string, keep func(*voucher.PointsBucket) bool) []*voucher.PointsBucket {
	var out []*voucher.PointsBucket
	for _, id := range d.loyalty.cardBuckets[[2]string{projectID, voucherID}] {
		if b, ok := d.loyalty.buckets.get(projectID, id); ok && keep(b) {
			out = append(out, b.Clone())
		}
	}
	return out
}

// CardBuckets implements loyalty.Store.
func (s *Store) CardBuckets(ctx context.Context, projectID string, ids []string, dueBy promotype.Time) (out []*voucher.PointsBucket, err error) {
	s.read(ctx, func(d *data) {
		out = []*voucher.PointsBucket{}
		for _, id := range ids {
			out = append(out, d.cardBucketsOf(projectID, id, func(b *voucher.PointsBucket) bool {
				return b.Status == voucher.BucketActive && (b.Bucket.TotalPoints > 0 || (b.Due != nil && !b.Due.After(dueBy.Time)))
			})...)
		}
	})
	return out, nil
}

// ListBuckets implements loyalty.Store.
func (s *Store) ListBuckets(ctx context.Context, projectID, voucherID string, limit, offset int) (out []*voucher.PointsBucket, total int, err error) {
	s.read(ctx, func(d *data) {
		out = d.cardBucketsOf(projectID, voucherID, func(b *voucher.PointsBucket) bool { return b.Status == voucher.BucketActive })
		slices.SortFunc(out, voucher.SpendOrder)
		total = len(out)
		out = out[min(offset, total):min(offset+limit, total)]
	})
	return out, total, nil
}

// dueBuckets returns the project's ACTIVE buckets due at or before at.
func (d *data) dueBuckets(projectID string, at promotype.Time) []*voucher.PointsBucket {
	var out []*voucher.PointsBucket
	for _, b := range d.loyalty.buckets.rows[projectID] {
		if b.Status == voucher.BucketActive && b.Due != nil && !b.Due.After(at.Time) {
			out = append(out, b)
		}
	}
	return out
}

// DueBuckets implements loyalty.Store.
func (s *Store) DueBuckets(ctx context.Context, projectID string, at promotype.Time, after *voucher.PointsBucket, limit int) (out []*voucher.PointsBucket, err error) {
	s.read(ctx, func(d *data) {
		out = slices.DeleteFunc(d.dueBuckets(projectID, at), func(b *voucher.PointsBucket) bool {
			return after != nil && dueOrder(b, after) <= 0
		})
		slices.SortFunc(out, dueOrder)
		out = out[:min(limit, len(out))]
		for i, b := range out {
			out[i] = b.Clone()
		}
	})
	return out, nil
}

// dueOrder orders due buckets by due time, then id.
func dueOrder(a, b *voucher.PointsBucket) int {
	if c := a.Due.Compare(b.Due.Time); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// ProjectsWithDueBuckets implements loyalty.Store.
func (s *Store) ProjectsWithDueBuckets(ctx context.Context, at promotype.Time, limit int) (out []string, err error) {
	s.read(ctx, func(d *data) {
		out = projectsWith(d.loyalty.buckets.rows, limit, func(project string) bool { return len(d.dueBuckets(project, at)) > 0 })
	})
	return out, nil
}

// LockCards implements loyalty.Store: a memory transaction runs alone, so
// every live voucher is locked.
func (s *Store) LockCards(ctx context.Context, projectID string, ids []string) ([]*voucher.Voucher, error) {
	out := []*voucher.Voucher{}
	for _, id := range slices.Sorted(slices.Values(ids)) {
		v, err := s.GetVoucher(ctx, projectID, id)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			continue
		case err != nil:
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// SetLoyaltyCards implements loyalty.Store.
func (s *Store) SetLoyaltyCards(ctx context.Context, projectID string, vs ...*voucher.Voucher) error {
	for _, v := range vs {
		stored, err := s.GetVoucher(ctx, projectID, v.ID)
		if err != nil {
			return err
		}
		stored.LoyaltyCard, stored.UpdatedAt = v.Clone().LoyaltyCard, promotype.ClonePtr(v.UpdatedAt)
		if err := s.UpdateVoucher(ctx, stored); err != nil {
			return err
		}
	}
	return nil
}

// GetTierHold implements loyalty.Store.
func (s *Store) GetTierHold(ctx context.Context, projectID, voucherID string) (out *loyalty.TierHold, err error) {
	s.read(ctx, func(d *data) {
		if h, ok := d.loyalty.holds.get(projectID, voucherID); ok {
			out = h.Clone()
		}
	})
	return out, nil
}

// PutTierHold implements loyalty.Store.
func (s *Store) PutTierHold(ctx context.Context, h *loyalty.TierHold) error {
	return s.write(ctx, func(d *data, u *undo) error {
		d.loyalty.holds.put(u, h.ProjectID, h.VoucherID, h.Clone())
		return nil
	})
}

// DeleteTierHold implements loyalty.Store.
func (s *Store) DeleteTierHold(ctx context.Context, projectID, voucherID string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		d.loyalty.holds.del(u, projectID, voucherID)
		return nil
	})
}

// dueHolds returns the project's holds that end at or before at.
func (d *data) dueHolds(projectID string, at promotype.Time) []*loyalty.TierHold {
	var out []*loyalty.TierHold
	for _, h := range d.loyalty.holds.rows[projectID] {
		if h.Due != nil && !h.Due.After(at.Time) {
			out = append(out, h)
		}
	}
	return out
}

// DueTierHolds implements loyalty.Store.
func (s *Store) DueTierHolds(ctx context.Context, projectID string, at promotype.Time, limit int) (out []*loyalty.TierHold, err error) {
	s.read(ctx, func(d *data) {
		out = d.dueHolds(projectID, at)
		slices.SortFunc(out, func(a, b *loyalty.TierHold) int {
			if c := a.Due.Compare(b.Due.Time); c != 0 {
				return c
			}
			return strings.Compare(a.VoucherID, b.VoucherID)
		})
		out = out[:min(limit, len(out))]
		for i, h := range out {
			out[i] = h.Clone()
		}
	})
	return out, nil
}

// ProjectsWithDueTierHolds implements loyalty.Store.
func (s *Store) ProjectsWithDueTierHolds(ctx context.Context, at promotype.Time, limit int) (out []string, err error) {
	s.read(ctx, func(d *data) {
		out = projectsWith(d.loyalty.holds.rows, limit, func(project string) bool { return len(d.dueHolds(project, at)) > 0 })
	})
	return out, nil
}

// CollectedPoints implements loyalty.Store.
func (s *Store) CollectedPoints(ctx context.Context, projectID, voucherID string, since promotype.Time) (sum int64, err error) {
	s.read(ctx, func(d *data) {
		for _, b := range d.cardBucketsOf(projectID, voucherID, func(b *voucher.PointsBucket) bool { return !b.CreatedAt.Before(since.Time) }) {
			sum += b.Points
		}
	})
	return sum, nil
}

// InsertTierChanges implements loyalty.Store.
func (s *Store) InsertTierChanges(ctx context.Context, cs ...*loyalty.TierChange) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, c := range cs {
			if err := insertNew(&d.loyalty.changes, u, c.ProjectID, c.ID, "loyalty_tier_change", promotype.ClonePtr(c)); err != nil {
				return err
			}
		}
		return nil
	})
}

// TierChanges implements loyalty.Store.
func (s *Store) TierChanges(ctx context.Context, projectID string, limit int) (out []*loyalty.TierChange, err error) {
	s.read(ctx, func(d *data) {
		out = []*loyalty.TierChange{}
		for _, c := range d.loyalty.changes.rows[projectID] {
			out = append(out, promotype.ClonePtr(c))
		}
		slices.SortFunc(out, func(a, b *loyalty.TierChange) int {
			if c := a.CreatedAt.Compare(b.CreatedAt.Time); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		out = out[:min(limit, len(out))]
	})
	return out, nil
}

// DeleteTierChange implements loyalty.Store.
func (s *Store) DeleteTierChange(ctx context.Context, projectID, id string) (taken bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		_, taken = d.loyalty.changes.get(projectID, id)
		d.loyalty.changes.del(u, projectID, id)
		return nil
	})
	return taken, err
}

// ProjectsWithTierChanges implements loyalty.Store.
func (s *Store) ProjectsWithTierChanges(ctx context.Context, limit int) (out []string, err error) {
	s.read(ctx, func(d *data) {
		out = projectsWith(d.loyalty.changes.rows, limit, func(project string) bool { return len(d.loyalty.changes.rows[project]) > 0 })
	})
	return out, nil
}

// projectsWith returns, in order, up to limit of the projects of rows
// for which has holds (the scheduler's one read across projects).
func projectsWith[V any](rows map[string]map[string]*V, limit int, has func(project string) bool) []string {
	out := []string{}
	for project := range rows {
		if has(project) {
			out = append(out, project)
		}
	}
	slices.Sort(out)
	return out[:min(limit, len(out))]
}
