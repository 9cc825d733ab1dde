package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// CampaignTotals are what a campaign's ledger rows and publications
// created within a window add up to (SummaryStore.CampaignTotals). Amounts
// are summed over successful redemptions (the rolled-back ones among them),
// the RolledBack sums over the redemptions since rolled back.
type CampaignTotals struct {
	Redemptions, RedemptionsSucceeded int64
	Rollbacks, RollbacksSucceeded     int64
	// OrdersAmount and DiscountedAmount sum each redemption's order amount
	// and the discount it applied; GiftAmount the credits, Points the
	// loyalty points it paid.
	OrdersAmount, DiscountedAmount, GiftAmount, Points int64
	// The same sums over the redemptions rolled back since.
	OrdersRolledBack, DiscountedRolledBack, GiftRolledBack, PointsRolledBack int64
	Publications, PublicationsSucceeded                                      int64
}

// SummaryStore is the read a campaign summary needs.
type SummaryStore interface {
	// CampaignTotals sums the project's ledger rows (object redemption or
	// redemption_rollback) and publications of campaign campaignID whose
	// date lies from from to to (both included; nil for no bound), in one
	// aggregate each on a database.
	CampaignTotals(ctx context.Context, projectID, campaignID string, from, to *promotype.Time) (CampaignTotals, error)
}

// CampaignSummary fills the counts of campaign c's summary within w;
// campaign.API.SetSummary takes it.
func (s *RedemptionService) CampaignSummary(ctx context.Context, c *campaign.Campaign, w campaign.SummaryWindow, out *campaign.Summary) error {
	t, err := s.store.CampaignTotals(ctx, c.ProjectID, c.ID, w.From, w.To)
	if err != nil {
		return err
	}
	out.Redemptions, out.RedemptionsSucceeded, out.RedemptionsFailed = t.Redemptions, t.RedemptionsSucceeded, t.Redemptions-t.RedemptionsSucceeded
	out.Rollbacks, out.RollbacksSucceeded, out.RollbacksFailed = t.Rollbacks, t.RollbacksSucceeded, t.Rollbacks-t.RollbacksSucceeded
	out.OrdersAmount, out.OrdersRolledBackAmount = t.OrdersAmount, t.OrdersRolledBack
	out.DiscountedAmount, out.RolledBackDiscountedAmount = t.DiscountedAmount, t.DiscountedRolledBack
	out.Publications, out.PublicationsSucceeded, out.PublicationsFailed = t.Publications, t.PublicationsSucceeded, t.Publications-t.PublicationsSucceeded
	out.AmountRedeemed, out.AmountRolledBack = &t.GiftAmount, &t.GiftRolledBack
	out.PointsRedeemed, out.PointsRolledBack = &t.Points, &t.PointsRolledBack
	return nil
}
