package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// maxCampaignNameMatches bounds how many campaigns one campaign_name
// condition of GET /v1/redemptions may name.
const maxCampaignNameMatches = 1000

// noCampaign is a campaign id no campaign has (nor can be stored with).
const noCampaign = "\x00"

// negated maps a negative string operator to the positive one it negates.
var negated = map[promotype.Op]promotype.Op{
	promotype.OpIsNot: promotype.OpIs, promotype.OpNotIn: promotype.OpIn, promotype.OpNotContain: promotype.OpContains,
}

// campaignNameConditions replaces the conditions of f on campaign_name
// (the filter of GET /v1/redemptions) by conditions on the rows' campaign
// id: a positive one by "the campaign is one of those whose name matches",
// a negative one by "the campaign is none of those whose name does not"
// (a row without campaign has no name: it matches negative conditions
// only), $has_value and $is_unknown by the campaign's presence.
func (s *RedemptionService) campaignNameConditions(ctx context.Context, projectID string, f promotype.Filter) (promotype.Filter, error) {
	out := f
	out.Conditions = make([]promotype.Condition, 0, len(f.Conditions))
	for _, c := range f.Conditions {
		if c.Field != "campaign_name" {
			out.Conditions = append(out.Conditions, c)
			continue
		}
		c.Field = "related_object_parent_id"
		switch c.Op {
		case promotype.OpHasValue, promotype.OpIsUnknown:
			out.Conditions = append(out.Conditions, c)
			continue
		}
		op, negative := negated[c.Op]
		if !negative {
			op = c.Op
		}
		ids, err := s.campaignsNamed(ctx, projectID, promotype.Condition{Field: "name", Op: op, Values: c.Values})
		if err != nil {
			return promotype.Filter{}, err
		}
		c.Op, c.Values = promotype.OpIn, ids
		if negative {
			c.Op = promotype.OpNotIn
		}
		out.Conditions = append(out.Conditions, c)
	}
	return out, nil
}

// campaignsNamed returns the ids of the live campaigns whose name meets
// cond (at least one id: noCampaign when none does).
func (s *RedemptionService) campaignsNamed(ctx context.Context, projectID string, cond promotype.Condition) ([]string, error) {
	p := promotype.ListParams{Limit: promotype.MaxLimit, Filter: promotype.Filter{Conditions: []promotype.Condition{cond}}}
	q, err := p.Query(campaign.ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, promotype.InvalidQueryParams("Property .filters.campaign_name: %s", promotype.AsError(err).Details)
	}
	q.Limit = maxCampaignNameMatches + 1
	cs, _, err := s.store.ListCampaigns(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	if len(cs) > maxCampaignNameMatches {
		return nil, promotype.BadRequest("query_too_large", "Query too large", "Property .filters.campaign_name matches more than %d campaigns", maxCampaignNameMatches)
	}
	ids := []string{noCampaign}
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids, nil
}
