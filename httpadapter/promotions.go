package httpadapter

import (
	"net/http"
	"slices"
	"strings"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
)

// promotionRoutes are the promotion tier, validation and stack endpoints
// (scope promotions).
func (s *server) promotionRoutes() []route {
	pt := s.engine.PromotionTiers()
	ps := s.engine.PromotionStacks()
	list := func(c *call, campaignRef string) (*promotype.List[*campaign.PromotionTier], error) {
		return listTiers(c, pt, campaignRef)
	}
	return []route{
		{http.MethodPost, "/v1/promotions/validation", appKey, withBody(func(c *call, in promotion.ValidationParams) (*promotion.Validation, error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			var vq promotion.ValidationQuery
			if vq.AudienceRulesOnly, err = boolParam(q, "audienceRulesOnly"); err != nil {
				return nil, err
			}
			// filters[promotion_id] in any of its forms ([conditions][$in][0],
			// [conditions][$is], or bare) lists the tier ids to keep.
			for k, vs := range q {
				if strings.HasPrefix(k, "filters[promotion_id]") {
					vq.PromotionIDs = append(vq.PromotionIDs, vs...)
				}
			}
			slices.Sort(vq.PromotionIDs)
			return s.engine.Promotions().Validate(c.ctx(), c.projectID, in, vq)
		})},
		{http.MethodGet, "/v1/promotions/tiers", appKey, s.hostedList("tiers", withoutBody(func(c *call) (*promotype.List[*campaign.PromotionTier], error) {
			return list(c, "")
		}))},
		{http.MethodGet, "/v1/promotions/{campaignId}/tiers", appKey, s.hostedList("tiers", withoutBody(func(c *call) (*promotype.List[*campaign.PromotionTier], error) {
			return list(c, c.path("campaignId"))
		}))},
		{http.MethodPost, "/v1/promotions/{campaignId}/tiers", appKey, withBody(func(c *call, in campaign.TierParams) (*campaign.PromotionTier, error) {
			return pt.Create(c.ctx(), c.projectID, c.path("campaignId"), in)
		})},
		{http.MethodGet, "/v1/promotions/tiers/{tierId}", appKey, withoutBody(func(c *call) (*campaign.PromotionTier, error) {
			return pt.Get(c.ctx(), c.projectID, c.path("tierId"))
		})},
		{http.MethodPut, "/v1/promotions/tiers/{tierId}", appKey, withBody(func(c *call, in campaign.TierParams) (*campaign.PromotionTier, error) {
			return pt.Update(c.ctx(), c.projectID, c.path("tierId"), in)
		})},
		{http.MethodDelete, "/v1/promotions/tiers/{tierId}", appKey, noContent(func(c *call) error {
			return pt.Delete(c.ctx(), c.projectID, c.path("tierId"))
		})},
		{http.MethodPost, "/v1/promotions/tiers/{tierId}/enable", appKey, withoutBody(func(c *call) (*campaign.PromotionTier, error) {
			return pt.SetActive(c.ctx(), c.projectID, c.path("tierId"), true)
		})},
		{http.MethodPost, "/v1/promotions/tiers/{tierId}/disable", appKey, withoutBody(func(c *call) (*campaign.PromotionTier, error) {
			return pt.SetActive(c.ctx(), c.projectID, c.path("tierId"), false)
		})},
		{http.MethodGet, "/v1/promotions/stacks", appKey, withoutBody(func(c *call) (*promotype.List[*campaign.PromotionStack], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return ps.List(c.ctx(), c.projectID, "", p)
		})},
		{http.MethodGet, "/v1/promotions/{campaignId}/stacks", appKey, withoutBody(func(c *call) (*promotype.List[*campaign.PromotionStack], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return ps.List(c.ctx(), c.projectID, c.path("campaignId"), p)
		})},
		{http.MethodPost, "/v1/promotions/{campaignId}/stacks", appKey, withBody(func(c *call, in campaign.StackParams) (*campaign.PromotionStack, error) {
			return ps.Create(c.ctx(), c.projectID, c.path("campaignId"), in)
		})},
		{http.MethodGet, "/v1/promotions/{campaignId}/stacks/{stackId}", appKey, withoutBody(func(c *call) (*campaign.PromotionStack, error) {
			return ps.Get(c.ctx(), c.projectID, c.path("campaignId"), c.path("stackId"))
		})},
		{http.MethodPut, "/v1/promotions/{campaignId}/stacks/{stackId}", appKey, withBody(func(c *call, in campaign.StackParams) (*campaign.PromotionStack, error) {
			return ps.Update(c.ctx(), c.projectID, c.path("campaignId"), c.path("stackId"), in)
		})},
		{http.MethodDelete, "/v1/promotions/{campaignId}/stacks/{stackId}", appKey, noContent(func(c *call) error {
			return ps.Delete(c.ctx(), c.projectID, c.path("campaignId"), c.path("stackId"))
		})},
	}
}

// listTiers lists the promotion tiers of campaignRef ("" for every
// campaign) with the query's list parameters and is_available, for
// GET /v1/promotions/tiers, /v1/promotions/{campaignId}/tiers and
// /client/v1/promotions/tiers.
func listTiers(c *call, pt *campaign.TierService, campaignRef string) (*promotype.List[*campaign.PromotionTier], error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	lp, err := listParams(q)
	if err != nil {
		return nil, err
	}
	p := campaign.TierListParams{ListParams: lp}
	if q.Has("is_available") {
		b, err := boolParam(q, "is_available")
		if err != nil {
			return nil, err
		}
		p.IsAvailable = &b
	}
	return pt.List(c.ctx(), c.projectID, campaignRef, p)
}
