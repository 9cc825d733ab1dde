package loyalty

import (
	"context"
	"slices"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// expiryBatch is how many due buckets one transaction of ExpireDue reads.
const expiryBatch = 5000

// ExpireDue expires the project's buckets due by now, in transactions of
// up to expiryBatch buckets, up to limit buckets in all, and reports how
// many it expired. Per card, what is left in its due buckets (never more
// than its balance) leaves the balance and joins expired_points, with one
// POINTS_EXPIRATION transaction and one voucher.loyalty_card.points_expired
// event, in the transaction that marks the buckets EXPIRED. Cards are
// locked first, skipping those another transaction holds (a redemption, or
// another engine expiring them): those are expired by a later round, so
// each bucket expires once however many engines run this.
func (s *Service) ExpireDue(ctx context.Context, projectID string, limit int) (int, error) {
	n := 0
	var after *voucher.PointsBucket
	for n < limit {
		due, err := s.store.DueBuckets(ctx, projectID, s.env.Clock.Now(), after, min(expiryBatch, limit-n))
		if err != nil || len(due) == 0 {
			return n, err
		}
		after = due[len(due)-1]
		var done int
		err = s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
			done, err = s.expire(ctx, st, projectID, due)
			return err
		})
		if err != nil {
			return n, err
		}
		n += done // buckets of cards another transaction held: a later round
	}
	return n, nil
}

// expire expires, in st's transaction, the due buckets of the cards due
// names that it can lock, and reports how many buckets it expired.
func (s *Service) expire(ctx context.Context, st ServiceStore, projectID string, due []*voucher.PointsBucket) (int, error) {
	now := s.env.Clock.Now()
	ids := make([]string, 0, len(due))
	for _, b := range due {
		ids = append(ids, b.VoucherID)
	}
	slices.Sort(ids)
	cards, err := st.LockCards(ctx, projectID, slices.Compact(ids))
	if err != nil || len(cards) == 0 {
		return 0, err
	}
	locked := make([]string, len(cards))
	for i, c := range cards {
		locked[i] = c.ID
	}
	buckets, err := st.CardBuckets(ctx, projectID, locked, now)
	if err != nil {
		return 0, err
	}
	byCard := map[string][]*voucher.PointsBucket{}
	for _, b := range buckets {
		byCard[b.VoucherID] = append(byCard[b.VoucherID], b)
	}
	var (
		expired []*voucher.PointsBucket
		changed []*voucher.Voucher
		txs     []*redemption.Transaction
		events  []*promotype.Event
	)
	for _, card := range cards {
		if card.LoyaltyCard == nil {
			continue
		}
		gone, points := expireCard(card.LoyaltyCard, byCard[card.ID], now)
		if len(gone) == 0 {
			continue
		}
		expired = append(expired, gone...)
		card.UpdatedAt = &now
		changed = append(changed, card)
		if points == 0 {
			continue
		}
		t, ev, err := s.expiryRecord(card, points, gone, now)
		if err != nil {
			return 0, err
		}
		txs, events = append(txs, t), append(events, ev)
	}
	if len(expired) == 0 {
		return 0, nil
	}
	if err := st.UpdateBuckets(ctx, expired...); err != nil {
		return 0, err
	}
	if err := st.SetLoyaltyCards(ctx, projectID, changed...); err != nil {
		return 0, err
	}
	if len(txs) > 0 {
		if err := st.InsertTransactions(ctx, txs...); err != nil {
			return 0, err
		}
		if err := st.AppendEvents(ctx, events...); err != nil {
			return 0, err
		}
	}
	for _, card := range changed {
		if err := s.retier(ctx, st, card, false); err != nil {
			return 0, err
		}
	}
	return len(expired), nil
}

// expireCard marks EXPIRED the buckets of bs (a card's ACTIVE buckets)
// due by now, takes what they held (never more than the balance) from
// card l's balance into its expired points, sets its next expiration from
// the buckets left, and returns the expired buckets and the points.
func expireCard(l *voucher.LoyaltyCard, bs []*voucher.PointsBucket, now promotype.Time) ([]*voucher.PointsBucket, int64) {
	var gone, left []*voucher.PointsBucket
	for _, b := range bs {
		if b.Due != nil && !b.Due.After(now.Time) {
			gone = append(gone, b)
		} else {
			left = append(left, b)
		}
	}
	slices.SortFunc(gone, voucher.SpendOrder)
	room := max(l.Balance, 0)
	var points int64
	for _, b := range gone {
		take := min(b.Bucket.TotalPoints, room-points)
		b.Bucket.TotalPoints = take // an EXPIRED bucket holds what expired
		b.Status, b.UpdatedAt = voucher.BucketExpired, &now
		points += take
	}
	l.Balance -= points
	l.ExpiredPoints = promotype.Ptr(deref64(l.ExpiredPoints) + points)
	setNext(l, left)
	return gone, points
}

// expiryRecord is the POINTS_EXPIRATION transaction and the points_expired
// event of points of card (as the expiry left it) gone with buckets.
func (s *Service) expiryRecord(card *voucher.Voucher, points int64, gone []*voucher.PointsBucket, now promotype.Time) (*redemption.Transaction, *promotype.Event, error) {
	bal := redemption.CardBalance(card)
	bal.Points, bal.OperationType = promotype.Ptr(-points), redemption.OperationAutomatic
	t := &redemption.Transaction{ID: s.env.IDs.NewID(redemption.PrefixTransaction), VoucherID: card.ID,
		CampaignID: promotype.ClonePtr(card.CampaignID), Source: promotype.Ptr(redemption.SourceAutomation),
		Type: redemption.TxPointsExpiration, Details: redemption.TransactionDetails{Balance: bal}, CreatedAt: now, ProjectID: card.ProjectID}
	ev, err := promotype.NewEvent(s.env, card.ProjectID, redemption.EventLoyaltyPointsExpired, card.ID,
		map[string]any{"voucher": card, "points": points, "buckets": gone, "transaction": t})
	return t, ev, err
}
