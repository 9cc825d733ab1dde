package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Expiry says when points a loyalty card is credited with expire: Never,
// or On a date (YYYY-MM-DD, the last day they can be spent, in the
// project's time zone), or, when neither is set, as the card's program
// says.
type Expiry struct {
	Never bool
	On    string
}

// PointsEffect keeps, in st's transaction, what a change of a loyalty
// card's points means beyond the card's row: points > 0 were credited
// (expiring as expiry says), points < 0 spent or removed. card is the card
// as the change left it, its row locked by the transaction; the effect may
// set its next expiration fields and reports whether it did. The loyalty
// service's expiry buckets are such an effect (the wiring sets it).
type PointsEffect func(ctx context.Context, st RedeemStore, card *voucher.Voucher, points int64, expiry Expiry) (changed bool, err error)

// SetPointsEffect sets what a change of a loyalty card's points keeps
// besides the card's row.
func (s *RedemptionService) SetPointsEffect(f PointsEffect) { s.points = f }

// pointsChanged runs the points effect for card (a loyalty card whose
// points changed by points) and, when persist, writes the next expiration
// fields it changed to the card's row (whose other fields another
// statement changed already).
func (s *RedemptionService) pointsChanged(ctx context.Context, st RedeemStore, card *voucher.Voucher, points int64, expiry Expiry, persist bool) error {
	if s.points == nil || points == 0 || card.Type != campaign.LoyaltyCard || card.LoyaltyCard == nil {
		return nil
	}
	changed, err := s.points(ctx, st, card, points, expiry)
	if err != nil || !changed || !persist {
		return err
	}
	stored, err := st.GetVoucher(ctx, card.ProjectID, card.ID)
	if err != nil {
		return err
	}
	if stored.LoyaltyCard == nil {
		return nil
	}
	stored.LoyaltyCard.NextExpirationDate = promotype.ClonePtr(card.LoyaltyCard.NextExpirationDate)
	stored.LoyaltyCard.NextExpirationPoints = promotype.ClonePtr(card.LoyaltyCard.NextExpirationPoints)
	return st.UpdateVoucher(ctx, stored)
}
