package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
)

// TierSummaries are the summaries of tiers, read from the counters the
// ledger keeps: each redemption of a tier adds one redemption, the order's
// amount and the discount it applied; its rollback takes them back
// (a stacked child counts; a parent redemption counts nothing).
// campaign.TierService.SetSummary takes it.
func (s *RedemptionService) TierSummaries(ctx context.Context, projectID string, tierIDs []string) (map[string]campaign.TierSummary, error) {
	names := []string{"total_redeemed", "orders_total_amount", "orders_total_discount_amount"}
	keys := make([]string, 0, len(names)*len(tierIDs))
	for _, id := range tierIDs {
		for _, n := range names {
			keys = append(keys, tierKey(id, n))
		}
	}
	got, err := s.store.Counters(ctx, projectID, keys...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]campaign.TierSummary, len(tierIDs))
	for _, id := range tierIDs {
		var sum campaign.TierSummary
		sum.Redemptions.TotalRedeemed = got[tierKey(id, "total_redeemed")]
		sum.Orders.TotalAmount = got[tierKey(id, "orders_total_amount")]
		sum.Orders.TotalDiscountAmount = got[tierKey(id, "orders_total_discount_amount")]
		out[id] = sum
	}
	return out, nil
}
