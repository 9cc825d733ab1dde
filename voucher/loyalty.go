package voucher

import (
	"context"
	"errors"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// CampaignLoyalty is one entry of a customer's loyalty.campaigns, keyed
// by the campaign's name: the points left on the customer's cards of it.
// ReferredCustomers counts, for a referral program, the customers the
// customer referred (filled by the referral service).
type CampaignLoyalty struct {
	Points            int64 `json:"points"`
	ReferredCustomers int64 `json:"referred_customers"`
}

// CustomerLoyalty sums the loyalty cards customerID holds (live vouchers of
// type LOYALTY_CARD whose holder it is): points is the sum of their
// balances, per campaign in campaigns. It reads the cards 100 at a time.
func (s *Service) CustomerLoyalty(ctx context.Context, projectID, customerID string) (customer.LoyaltySummary, error) {
	out := customer.LoyaltySummary{Campaigns: map[string]any{}}
	is := func(field, v string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
	}
	q := promotype.Query{Limit: 100, OrderBy: "created_at",
		Must: []promotype.Condition{is("holder_id", customerID), is("type", string(campaign.LoyaltyCard))}}
	names := map[string]string{} // campaign id → name
	for {
		cards, total, err := s.store.ListVouchers(ctx, projectID, q)
		if err != nil {
			return out, err
		}
		for _, v := range cards {
			if v.LoyaltyCard == nil {
				continue
			}
			out.Points += v.LoyaltyCard.Balance
			if v.CampaignID == nil {
				continue
			}
			name, ok := names[*v.CampaignID]
			if !ok {
				c, err := s.campaigns.Resolve(ctx, s.store, projectID, *v.CampaignID)
				if errors.Is(err, promotype.ErrNotFound) {
					continue
				}
				if err != nil {
					return out, err
				}
				name, names[*v.CampaignID] = c.Name, c.Name
			}
			e, _ := out.Campaigns[name].(CampaignLoyalty)
			e.Points += v.LoyaltyCard.Balance
			out.Campaigns[name] = e
		}
		q.Offset += len(cards)
		if len(cards) == 0 || q.Offset >= total {
			return out, nil
		}
	}
}
