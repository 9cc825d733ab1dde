package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/referral"
)

// referralRoutes are the holders of referral codes (scope referrals),
// addressed by code alone or within their referral campaign.
func (s *server) referralRoutes() []route {
	refs := s.engine.Referrals()
	add := withBody(func(c *call, in referral.AddHoldersParams) (*referral.AddedHolders, error) {
		return refs.AddHolders(c.ctx(), c.projectID, c.path("campaignId"), c.path("memberId"), in)
	})
	list := withoutBody(func(c *call) (*referral.HolderList, error) {
		limit, order, after, err := idPageQuery(c)
		if err != nil {
			return nil, err
		}
		q, err := parseQuery(c.r.URL.RawQuery)
		if err != nil {
			return nil, err
		}
		f, err := parseFilters(q)
		if err != nil {
			return nil, err
		}
		return refs.Holders(c.ctx(), c.projectID, c.path("campaignId"), c.path("memberId"),
			referral.HolderListParams{Limit: limit, Order: order, StartingAfterID: after, Filter: f})
	})
	remove := noContent(func(c *call) error {
		return refs.RemoveHolder(c.ctx(), c.projectID, c.path("campaignId"), c.path("memberId"), c.path("holderId"))
	})
	return []route{
		{http.MethodPost, "/v1/referrals/{campaignId}/members/{memberId}/holders", appKey, add},
		{http.MethodGet, "/v1/referrals/{campaignId}/members/{memberId}/holders", appKey, list},
		{http.MethodDelete, "/v1/referrals/{campaignId}/members/{memberId}/holders/{holderId}", appKey, remove},
		{http.MethodPost, "/v1/referrals/members/{memberId}/holders", appKey, add},
		{http.MethodGet, "/v1/referrals/members/{memberId}/holders", appKey, list},
		{http.MethodDelete, "/v1/referrals/members/{memberId}/holders/{holderId}", appKey, remove},
	}
}
