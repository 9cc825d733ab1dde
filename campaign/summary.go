package campaign

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Summary is a campaign's analytics (GET /v1/campaigns/{id}/summary):
// what its redemptions, rollbacks and publications counted within a
// window. A count promo does not record (validations, vouchers created
// and deleted, points earned) is left out rather than answered 0; the
// gift amounts are present for a GIFT_VOUCHERS campaign only, the points
// for a LOYALTY_PROGRAM only.
type Summary struct {
	Object                     string    `json:"object"`
	Campaign                   SummaryOf `json:"campaign"`
	Redemptions                int64     `json:"redemptions"`
	RedemptionsSucceeded       int64     `json:"redemptions_succeeded"`
	RedemptionsFailed          int64     `json:"redemptions_failed"`
	Rollbacks                  int64     `json:"rollbacks"`
	RollbacksSucceeded         int64     `json:"rollbacks_succeeded"`
	RollbacksFailed            int64     `json:"rollbacks_failed"`
	OrdersAmount               int64     `json:"orders_amount"`
	OrdersRolledBackAmount     int64     `json:"orders_rolledback_amount"`
	DiscountedAmount           int64     `json:"discounted_amount"`
	RolledBackDiscountedAmount int64     `json:"rolledback_discounted_amount"`
	Publications               int64     `json:"publications"`
	PublicationsSucceeded      int64     `json:"publications_succeeded"`
	PublicationsFailed         int64     `json:"publications_failed"`
	AmountRedeemed             *int64    `json:"amount_redeemed,omitempty"`
	AmountRolledBack           *int64    `json:"amount_rolledback,omitempty"`
	PointsRedeemed             *int64    `json:"points_redeemed,omitempty"`
	PointsRolledBack           *int64    `json:"points_rolledback,omitempty"`
}

// SummaryOf is the campaign a summary is of (the OpenAPI's CampaignBase,
// its identity and type).
type SummaryOf struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Description  *string      `json:"description"`
	CampaignType CampaignType `json:"campaign_type"`
	Type         string       `json:"type"`
}

// SummaryParams narrows a summary to a window: the rows created from
// StartDate to EndDate, both included. A zero value means no bound; a
// date without a time (promotype.ParseTime) is the whole day in the
// project's time zone.
type SummaryParams struct {
	StartDate promotype.Time
	EndDate   promotype.Time
}

// SummaryWindow is a resolved window: From and To are the first and last
// instants counted, nil for no bound.
type SummaryWindow struct {
	From, To *promotype.Time
}

// SummaryFunc fills the counts of campaign c's summary within w; the
// engine wires it to the redemption ledger and the publications.
type SummaryFunc func(ctx context.Context, c *Campaign, w SummaryWindow, out *Summary) error

// SetSummary sets how Summary counts; without it every count is 0.
func (s *API) SetSummary(f SummaryFunc) { s.summary = f }

// Summary returns the summary of the campaign with id or name ref (404
// not_found for a missing or binned one, another project's among them). An
// end before the start is 400 invalid_query_params.
func (s *API) Summary(ctx context.Context, projectID, ref string, p SummaryParams) (*Summary, error) {
	c, err := s.campaigns.Get(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	loc, err := s.env.ProjectLocation(ctx, projectID)
	if err != nil {
		return nil, err
	}
	var w SummaryWindow
	if !p.StartDate.IsZero() {
		w.From = promotype.DayStart(p.StartDate, loc).Ptr()
	}
	if !p.EndDate.IsZero() {
		w.To = promotype.DayEnd(p.EndDate, loc).Ptr()
	}
	if w.From != nil && w.To != nil && w.To.Before(w.From.Time) {
		return nil, promotype.InvalidQueryParams("end_date is before start_date")
	}
	out := &Summary{Object: "campaign_summary", Campaign: SummaryOf{ID: c.ID, Name: c.Name, Description: c.Description,
		CampaignType: c.CampaignType, Type: string(c.Type)}}
	if s.summary != nil {
		if err := s.summary(ctx, c, w, out); err != nil {
			return nil, err
		}
	}
	switch c.CampaignType {
	case GiftVouchers:
		out.AmountRedeemed, out.AmountRolledBack = zeroIfNil(out.AmountRedeemed), zeroIfNil(out.AmountRolledBack)
		out.PointsRedeemed, out.PointsRolledBack = nil, nil
	case LoyaltyProgram:
		out.PointsRedeemed, out.PointsRolledBack = zeroIfNil(out.PointsRedeemed), zeroIfNil(out.PointsRolledBack)
		out.AmountRedeemed, out.AmountRolledBack = nil, nil
	default:
		out.AmountRedeemed, out.AmountRolledBack, out.PointsRedeemed, out.PointsRolledBack = nil, nil, nil, nil
	}
	return out, nil
}

func zeroIfNil(p *int64) *int64 {
	if p == nil {
		return new(int64)
	}
	return p
}
