package referral

import (
	"context"
	"errors"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// CustomerReferrals is a customer's referrals summary: the programs it
// converted in as a referee (customer.SetReferralSummary).
func (s *Service) CustomerReferrals(ctx context.Context, projectID, customerID string) (customer.ReferralSummary, error) {
	out := customer.ReferralSummary{Campaigns: []customer.ReferralCampaign{}}
	cs, err := s.store.RefereeConversions(ctx, projectID, customerID)
	if err != nil {
		return out, err
	}
	for _, c := range cs {
		out.Campaigns = append(out.Campaigns, customer.ReferralCampaign{CampaignID: c.CampaignID, ReferrerID: c.ReferrerID,
			RelatedObjectID: c.RelatedObjectID, RelatedObjectType: c.RelatedObjectType, Date: c.CreatedAt})
	}
	out.Total = int64(len(cs))
	return out, nil
}

// WithReferred returns loyalty with the customers each customer referred
// added: loyalty.referred_customers, and referred_customers of each
// referral program's entry of loyalty.campaigns (keyed by name, as
// loyalty keys its programs).
func (s *Service) WithReferred(loyalty customer.LoyaltySummaryFunc) customer.LoyaltySummaryFunc {
	return func(ctx context.Context, projectID, customerID string) (customer.LoyaltySummary, error) {
		out, err := loyalty(ctx, projectID, customerID)
		if err != nil {
			return out, err
		}
		counts, err := s.store.ReferrerCounts(ctx, projectID, customerID)
		if err != nil || len(counts) == 0 {
			return out, err
		}
		if out.Campaigns == nil {
			out.Campaigns = map[string]any{}
		}
		for id, n := range counts {
			out.ReferredCustomers += n
			c, err := s.store.GetCampaign(ctx, projectID, id)
			if errors.Is(err, promotype.ErrNotFound) {
				continue
			}
			if err != nil {
				return out, err
			}
			e, _ := out.Campaigns[c.Name].(voucher.CampaignLoyalty)
			e.ReferredCustomers += n
			out.Campaigns[c.Name] = e
		}
		return out, nil
	}
}
