package customer

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Summary is a customer's activity as the hosted service answers it with a
// customer: its redemption counters and its orders.
type Summary struct {
	Redemptions RedemptionSummary `json:"redemptions"`
	Orders      OrderSummary      `json:"orders"`
}

// RedemptionSummary counts a customer's redemptions.
type RedemptionSummary struct {
	TotalRedeemed          int64 `json:"total_redeemed"`
	TotalFailed            int64 `json:"total_failed"`
	TotalSucceeded         int64 `json:"total_succeeded"`
	TotalRolledBack        int64 `json:"total_rolled_back"`
	TotalRollbackFailed    int64 `json:"total_rollback_failed"`
	TotalRollbackSucceeded int64 `json:"total_rollback_succeeded"`
	Gift                   struct {
		RedeemedAmount int64 `json:"redeemed_amount"`
		AmountToGo     int64 `json:"amount_to_go"`
	} `json:"gift"`
	LoyaltyCard struct {
		RedeemedPoints int64 `json:"redeemed_points"`
		PointsToGo     int64 `json:"points_to_go"`
	} `json:"loyalty_card"`
}

// OrderSummary sums a customer's orders (amounts in minor units; the
// average rounds half up). LastOrderDate is omitted without orders.
type OrderSummary struct {
	TotalAmount     int64           `json:"total_amount"`
	TotalCount      int64           `json:"total_count"`
	AverageAmount   int64           `json:"average_amount"`
	LastOrderAmount int64           `json:"last_order_amount"`
	LastOrderDate   *promotype.Time `json:"last_order_date,omitempty"`
}

// LoyaltySummary is a customer's loyalty standing: the points left on the
// loyalty cards it holds, in all and per campaign name (filled through
// SetLoyaltySummary; zero without it), and the customers it referred
// through referral programs (ReferredCustomers).
type LoyaltySummary struct {
	Points            int64          `json:"points"`
	ReferredCustomers int64          `json:"referred_customers"`
	Campaigns         map[string]any `json:"campaigns"`
}

// ReferralSummary counts the times a customer was referred: once per
// referral program it converted in, with the referrer and what converted
// it (filled through SetReferralSummary; none without it).
type ReferralSummary struct {
	Total     int64              `json:"total"`
	Campaigns []ReferralCampaign `json:"campaigns"`
}

// ReferralCampaign is one referral of a customer: the program, the
// referrer, the redemption or custom event that converted it and when.
type ReferralCampaign struct {
	CampaignID        string         `json:"campaign_id"`
	ReferrerID        string         `json:"referrer_id"`
	RelatedObjectID   string         `json:"related_object_id"`
	RelatedObjectType string         `json:"related_object_type"`
	Date              promotype.Time `json:"date"`
}

// ReferralSummaryFunc computes the referral summary of a customer.
type ReferralSummaryFunc func(ctx context.Context, projectID, customerID string) (ReferralSummary, error)

// SetReferralSummary sets how answers compute a customer's referrals (the
// engine wires it to the referral conversions).
func (s *Service) SetReferralSummary(f ReferralSummaryFunc) { s.referralSummary = f }

// OrderSummaryFunc computes the order summary of a customer.
type OrderSummaryFunc func(ctx context.Context, projectID, customerID string) (OrderSummary, error)

// SetOrderSummary sets how answers compute a customer's order summary (the
// engine wires it to the order store; without it the summary counts none).
func (s *Service) SetOrderSummary(f OrderSummaryFunc) { s.orderSummary = f }

// RedemptionSummaryFunc computes the redemption summary of a customer.
type RedemptionSummaryFunc func(ctx context.Context, projectID, customerID string) (RedemptionSummary, error)

// SetRedemptionSummary sets how answers compute a customer's redemption
// summary (the engine wires it to the redemption counters; without it the
// summary counts none).
func (s *Service) SetRedemptionSummary(f RedemptionSummaryFunc) { s.redemptionSummary = f }

// LoyaltySummaryFunc computes the loyalty summary of a customer.
type LoyaltySummaryFunc func(ctx context.Context, projectID, customerID string) (LoyaltySummary, error)

// SetLoyaltySummary sets how answers compute a customer's loyalty (the
// engine wires it to the loyalty cards the customer holds).
func (s *Service) SetLoyaltySummary(f LoyaltySummaryFunc) { s.loyaltySummary = f }

// present fills the derived parts of a customer answer: summary, loyalty,
// referrals and system_metadata.
func (s *Service) present(ctx context.Context, c *Customer) (*Customer, error) {
	var orders OrderSummary
	if s.orderSummary != nil {
		var err error
		if orders, err = s.orderSummary(ctx, c.ProjectID, c.ID); err != nil {
			return nil, err
		}
	}
	var redemptions RedemptionSummary
	if s.redemptionSummary != nil {
		var err error
		if redemptions, err = s.redemptionSummary(ctx, c.ProjectID, c.ID); err != nil {
			return nil, err
		}
	}
	c.Summary = &Summary{Orders: orders, Redemptions: redemptions}
	loyalty := LoyaltySummary{Campaigns: map[string]any{}}
	if s.loyaltySummary != nil {
		var err error
		if loyalty, err = s.loyaltySummary(ctx, c.ProjectID, c.ID); err != nil {
			return nil, err
		}
	}
	c.Loyalty = &loyalty
	referrals := ReferralSummary{Campaigns: []ReferralCampaign{}}
	if s.referralSummary != nil {
		var err error
		if referrals, err = s.referralSummary(ctx, c.ProjectID, c.ID); err != nil {
			return nil, err
		}
	}
	c.Referrals = &referrals
	c.SystemMetadata = map[string]any{}
	c.Assets = true
	return c, nil
}

// SummarizeOrders sums amounts (of orders oldest first, each with its
// creation time) into an order summary.
func SummarizeOrders(amounts []int64, created []promotype.Time) OrderSummary {
	var s OrderSummary
	for i, a := range amounts {
		s.TotalAmount += a
		s.TotalCount++
		s.LastOrderAmount = a
		at := created[i]
		s.LastOrderDate = &at
	}
	if s.TotalCount > 0 {
		s.AverageAmount = (2*s.TotalAmount + s.TotalCount) / (2 * s.TotalCount)
	}
	return s
}
