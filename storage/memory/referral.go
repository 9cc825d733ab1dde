package memory

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/referral"
)

// referralData holds referral conversions (key: campaign and referee) and
// the referees assigned to referral codes.
type referralData struct {
	conversions table[referral.Conversion]
	holders     table[referral.Holder]
	holderKeys  index // voucher + customer → holder id
}

func newReferralData() referralData {
	return referralData{conversions: newTable[referral.Conversion](), holders: newTable[referral.Holder](), holderKeys: index{}}
}

// ClaimConversion implements referral.Store.
func (s *Store) ClaimConversion(ctx context.Context, c *referral.Conversion) (claimed bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		key := c.CampaignID + "\x00" + c.RefereeID
		if _, taken := d.referrals.conversions.get(c.ProjectID, key); taken {
			return nil
		}
		cc := *c
		d.referrals.conversions.put(u, c.ProjectID, key, &cc)
		claimed = true
		return nil
	})
	return claimed, err
}

// conversionsWhere returns the conversions of a project that keep
// matches, oldest first.
func (s *Store) conversionsWhere(ctx context.Context, projectID string, keep func(c *referral.Conversion) bool) []*referral.Conversion {
	var out []*referral.Conversion
	s.read(ctx, func(d *data) {
		for _, c := range d.referrals.conversions.rows[projectID] {
			if keep(c) {
				cc := *c
				out = append(out, &cc)
			}
		}
	})
	slices.SortFunc(out, func(a, b *referral.Conversion) int {
		if c := a.CreatedAt.Compare(b.CreatedAt.Time); c != 0 {
			return c
		}
		return strings.Compare(a.CampaignID, b.CampaignID)
	})
	return out
}

// RefereeConversions implements referral.Store.
func (s *Store) RefereeConversions(ctx context.Context, projectID, customerID string) ([]*referral.Conversion, error) {
	return s.conversionsWhere(ctx, projectID, func(c *referral.Conversion) bool { return c.RefereeID == customerID }), nil
}

// ReferrerCounts implements referral.Store.
func (s *Store) ReferrerCounts(ctx context.Context, projectID, customerID string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, c := range s.conversionsWhere(ctx, projectID, func(c *referral.Conversion) bool { return c.ReferrerID == customerID }) {
		out[c.CampaignID]++
	}
	return out, nil
}

// InsertReferees implements referral.Store.
func (s *Store) InsertReferees(ctx context.Context, hs ...*referral.Holder) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, h := range hs {
			key := h.RedeemableID + "\x00" + h.CustomerID
			if _, taken := d.referrals.holderKeys[[2]string{h.ProjectID, key}]; taken {
				return promotype.Duplicate("redeemable_holder", "Customer %s is already assigned to %s", h.CustomerID, h.RedeemableID)
			}
			if _, taken := d.referrals.holders.get(h.ProjectID, h.ID); taken {
				return promotype.Duplicate("redeemable_holder", "Duplicated redeemable holder exists with id %s", h.ID)
			}
			d.referrals.holders.put(u, h.ProjectID, h.ID, h.Clone())
			d.referrals.holderKeys.set(u, h.ProjectID, key, h.ID)
		}
		return nil
	})
}

// ListReferees implements referral.Store.
func (s *Store) ListReferees(ctx context.Context, projectID, voucherID, afterID string, desc bool, limit int) ([]*referral.Holder, int, error) {
	out := []*referral.Holder{}
	total := 0
	s.read(ctx, func(d *data) {
		for _, h := range d.referrals.holders.rows[projectID] {
			if h.RedeemableID != voucherID {
				continue
			}
			total++
			if afterID == "" || (!desc && h.ID > afterID) || (desc && h.ID < afterID) {
				out = append(out, h.Clone())
			}
		}
	})
	slices.SortFunc(out, func(a, b *referral.Holder) int {
		if desc {
			return strings.Compare(b.ID, a.ID)
		}
		return strings.Compare(a.ID, b.ID)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, total, nil
}

// DeleteReferee implements referral.Store.
func (s *Store) DeleteReferee(ctx context.Context, projectID, voucherID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		h, ok := d.referrals.holders.get(projectID, id)
		if !ok || h.RedeemableID != voucherID {
			return promotype.NotFound("redeemable_holder", id)
		}
		d.referrals.holders.del(u, projectID, id)
		d.referrals.holderKeys.unset(u, projectID, h.RedeemableID+"\x00"+h.CustomerID)
		return nil
	})
}
