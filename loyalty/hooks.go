package loyalty

import (
	"context"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// RewardEffect is GiveReward as the redemption service calls it
// (redemption.RewardEffect): tx, the redemption's transaction, must have
// the loyalty ports.
func (s *Service) RewardEffect(ctx context.Context, tx redemption.RedeemStore, row *redemption.Redemption, card *voucher.Voucher) error {
	st, err := promotype.PortOf[ServiceStore](tx, "a reward redemption")
	if err != nil {
		return err
	}
	return s.GiveReward(ctx, st, row, card)
}

// PointsEffect is PointsChanged as the redemption service calls it
// (redemption.PointsEffect): tx, the change's transaction, must have the
// loyalty ports.
func (s *Service) PointsEffect(ctx context.Context, tx redemption.RedeemStore, card *voucher.Voucher, points int64, expiry redemption.Expiry) (bool, error) {
	st, err := promotype.PortOf[ServiceStore](tx, "a points change")
	if err != nil {
		return false, err
	}
	return s.PointsChanged(ctx, st, card, points, expiry)
}
