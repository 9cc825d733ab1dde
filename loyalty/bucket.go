package loyalty

import (
	"context"
	"slices"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// PointsChanged keeps a loyalty card's expiry buckets as a change of its
// points (redemption.PointsEffect) implies, in st's transaction, the
// card's row locked: a credit (points > 0) opens a bucket expiring as
// expiry says (the zero value: by the card's program's expiration_rules,
// from today in the project's time zone); a debit takes its points from
// the ACTIVE buckets that expire first (never-expiring ones last). It sets
// the card's next_expiration_date and next_expiration_points and reports
// whether they changed. Then it computes the tier the card holds (retier).
func (s *Service) PointsChanged(ctx context.Context, st ServiceStore, card *voucher.Voucher, points int64, expiry redemption.Expiry) (bool, error) {
	now := s.env.Clock.Now()
	if points > 0 {
		b, err := s.newBucket(ctx, st, card, points, expiry, now)
		if err != nil {
			return false, err
		}
		if err := st.InsertBuckets(ctx, b); err != nil {
			return false, err
		}
		return credited(card.LoyaltyCard, b), s.retier(ctx, st, card, false)
	}
	bs, err := st.CardBuckets(ctx, card.ProjectID, []string{card.ID}, promotype.Time{})
	if err != nil {
		return false, err
	}
	if changed := consume(bs, -points, now); len(changed) > 0 {
		if err := st.UpdateBuckets(ctx, changed...); err != nil {
			return false, err
		}
	}
	return setNext(card.LoyaltyCard, bs), s.retier(ctx, st, card, false)
}

// newBucket is the bucket of points credited to card now.
func (s *Service) newBucket(ctx context.Context, st ServiceStore, card *voucher.Voucher, points int64, expiry redemption.Expiry, now promotype.Time) (*voucher.PointsBucket, error) {
	b := &voucher.PointsBucket{ID: s.env.IDs.NewID(voucher.PrefixBucket), ProjectID: card.ProjectID, VoucherID: card.ID,
		CampaignID: deref(card.CampaignID), Bucket: voucher.BucketPoints{TotalPoints: points}, Points: points,
		Status: voucher.BucketActive, CreatedAt: now, UpdatedAt: &now, Object: "loyalty_points_bucket"}
	on := expiry.On
	if !expiry.Never && on == "" && b.CampaignID != "" {
		c, err := st.GetCampaign(ctx, card.ProjectID, b.CampaignID)
		if err != nil {
			return nil, err
		}
		if rules := programRules(c); rules != nil {
			loc, err := s.location(ctx, st, card.ProjectID)
			if err != nil {
				return nil, err
			}
			on = ExpiresOn(rules, now.In(loc))
		}
	}
	if on == "" {
		return b, nil
	}
	loc, err := s.location(ctx, st, card.ProjectID)
	if err != nil {
		return nil, err
	}
	due, err := dueAfter(on, loc)
	if err != nil {
		return nil, err
	}
	b.ExpiresAt, b.Due = &on, &due
	return b, nil
}

// programRules are the expiration rules of program c's cards (nil: none).
func programRules(c *campaign.Campaign) *campaign.ExpirationRules {
	if c == nil || c.Voucher == nil || c.Voucher.LoyaltyCard == nil {
		return nil
	}
	return c.Voucher.LoyaltyCard.ExpirationRules
}

// location reads the project's time zone.
func (s *Service) location(ctx context.Context, st ServiceStore, projectID string) (*time.Location, error) {
	p, err := st.GetProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return p.Location(), nil
}

// dueAfter is the instant points whose last day is on (YYYY-MM-DD) are
// gone: the start of the next day in loc.
func dueAfter(on string, loc *time.Location) (promotype.Time, error) {
	d, err := time.ParseInLocation(dateLayout, on, loc)
	if err != nil {
		return promotype.Time{}, promotype.InvalidPayload("Property .expiration_date cannot be recognized as a ISO-8601 compliant date")
	}
	return promotype.Time{Time: time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc).UTC()}, nil
}

// consume takes points from buckets bs (a card's ACTIVE buckets with
// points left) in spending order and returns the buckets it changed.
func consume(bs []*voucher.PointsBucket, points int64, now promotype.Time) []*voucher.PointsBucket {
	slices.SortFunc(bs, voucher.SpendOrder)
	var changed []*voucher.PointsBucket
	for _, b := range bs {
		if points <= 0 {
			break
		}
		take := min(points, b.Bucket.TotalPoints)
		if take <= 0 {
			continue
		}
		b.Bucket.TotalPoints -= take
		b.UpdatedAt = &now
		points -= take
		changed = append(changed, b)
	}
	return changed
}

// setNext sets card l's next expiration from its ACTIVE buckets bs: the
// earliest expiry date of those with points left and the points that
// expire then (nil both when nothing expires). It reports whether they
// changed.
func setNext(l *voucher.LoyaltyCard, bs []*voucher.PointsBucket) bool {
	var date *string
	var points int64
	for _, b := range bs {
		if b.Status != voucher.BucketActive || b.ExpiresAt == nil || b.Bucket.TotalPoints <= 0 {
			continue
		}
		switch {
		case date == nil || *b.ExpiresAt < *date:
			date, points = b.ExpiresAt, b.Bucket.TotalPoints
		case *b.ExpiresAt == *date:
			points += b.Bucket.TotalPoints
		}
	}
	var next *int64
	if date != nil {
		next = &points
	}
	return setCardNext(l, promotype.ClonePtr(date), next)
}

// credited updates card l's next expiration for a new bucket b, without
// reading the card's other buckets, and reports whether it changed.
func credited(l *voucher.LoyaltyCard, b *voucher.PointsBucket) bool {
	if b.ExpiresAt == nil {
		return false
	}
	on := *b.ExpiresAt
	switch {
	case l.NextExpirationDate == nil || on < *l.NextExpirationDate:
		return setCardNext(l, &on, promotype.Ptr(b.Bucket.TotalPoints))
	case on == *l.NextExpirationDate:
		return setCardNext(l, &on, promotype.Ptr(deref64(l.NextExpirationPoints)+b.Bucket.TotalPoints))
	}
	return false
}

// setCardNext sets l's next expiration and reports whether it changed.
func setCardNext(l *voucher.LoyaltyCard, date *string, points *int64) bool {
	same := equalPtr(l.NextExpirationDate, date) && equalPtr(l.NextExpirationPoints, points)
	l.NextExpirationDate, l.NextExpirationPoints = date, points
	return !same
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// BucketListParams pick a page of a member's points buckets: Limit 1–100
// (0: 10), Page 1–100 (0: 1).
type BucketListParams struct {
	Limit, Page int
}

// Buckets lists the ACTIVE points buckets of the card member (code or id)
// of the program ref ("" for any), in the order spending takes them (GET
// .../members/{memberId}/points-expiration): the earliest expiry first,
// never-expiring last. Expired buckets are not listed.
func (s *Service) Buckets(ctx context.Context, projectID, ref, member string, in BucketListParams) (*promotype.List[*voucher.PointsBucket], error) {
	limit, page := in.Limit, in.Page
	if limit == 0 {
		limit = 10
	}
	if page == 0 {
		page = 1
	}
	if limit < 1 || limit > 100 {
		return nil, promotype.InvalidQueryParams("Query parameter limit must be between 1 and 100")
	}
	if page < 1 || page > 100 {
		return nil, promotype.InvalidQueryParams("Query parameter page must be between 1 and 100")
	}
	campaignID, err := s.programID(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	card, err := s.card(ctx, projectID, campaignID, member)
	if err != nil {
		return nil, err
	}
	q := promotype.Query{Limit: limit, Offset: (page - 1) * limit}
	items, total, err := s.store.ListBuckets(ctx, projectID, card.ID, q.Limit, q.Offset)
	if err != nil {
		return nil, err
	}
	return promotype.NewList(items, total, q), nil
}
