package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// campaignRoutes are the campaign, category, voucher and async action endpoints.
func (s *server) campaignRoutes() []route {
	return slices.Concat(s.campaignOnlyRoutes(), s.categoryRoutes(), s.voucherRoutes(), s.asyncActionRoutes())
}

// actx is the request's context carrying its request id, which the async
// actions a request starts record.
func (c *call) actx() context.Context {
	return async.WithRequestID(c.ctx(), requestIDOf(c.w))
}

// campaignOnlyRoutes are the campaigns endpoints (scope campaigns).
// Campaigns are addressed by id or name.
func (s *server) campaignOnlyRoutes() []route {
	cs := s.engine.Campaigns()
	return []route{
		{http.MethodPost, "/v1/campaigns", appKey, withBody(func(c *call, in campaign.Params) (*campaign.Campaign, error) {
			return cs.Create(c.actx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/campaigns", appKey, s.hostedList("campaigns", withoutBody(func(c *call) (*promotype.List[*campaign.Campaign], error) {
			p, err := campaignListParams(c)
			if err != nil {
				return nil, err
			}
			return cs.List(c.ctx(), c.projectID, p)
		}))},
		{http.MethodGet, "/v1/campaigns/{campaignId}", appKey, withoutBody(func(c *call) (*campaign.Campaign, error) {
			return cs.Get(c.ctx(), c.projectID, c.path("campaignId"))
		})},
		{http.MethodPut, "/v1/campaigns/{campaignId}", appKey, withBody(func(c *call, in campaign.UpdateParams) (*campaign.Campaign, error) {
			return cs.Update(c.actx(), c.projectID, c.path("campaignId"), in)
		})},
		{http.MethodDelete, "/v1/campaigns/{campaignId}", appKey, func(c *call) (int, any, error) {
			force, err := c.force()
			if err != nil {
				return 0, nil, err
			}
			ref, err := cs.Delete(c.actx(), c.projectID, c.path("campaignId"), force)
			return http.StatusAccepted, ref, err
		}},
		{http.MethodGet, "/v1/campaigns/{campaignId}/summary", appKey, withoutBody(func(c *call) (*campaign.Summary, error) {
			var from, to *promotype.Time
			if err := timeParams(c.r.URL.Query(), map[string]**promotype.Time{"start_date": &from, "end_date": &to}); err != nil {
				return nil, err
			}
			var p campaign.SummaryParams
			if from != nil {
				p.StartDate = *from
			}
			if to != nil {
				p.EndDate = *to
			}
			return cs.Summary(c.ctx(), c.projectID, c.path("campaignId"), p)
		})},
		{http.MethodPost, "/v1/campaigns/{campaignId}/enable", appKey, withBody(func(c *call, _ struct{}) (struct{}, error) {
			_, err := cs.Enable(c.ctx(), c.projectID, c.path("campaignId"))
			return struct{}{}, err
		})},
		{http.MethodPost, "/v1/campaigns/{campaignId}/disable", appKey, withBody(func(c *call, _ struct{}) (struct{}, error) {
			_, err := cs.Disable(c.ctx(), c.projectID, c.path("campaignId"))
			return struct{}{}, err
		})},
		{http.MethodPost, "/v1/campaigns/{campaignId}/vouchers", appKey, func(c *call) (int, any, error) {
			in, err := decodeAddVouchers(c)
			if err != nil {
				return 0, nil, err
			}
			if in.VouchersCount != nil && *in.VouchersCount > 1 {
				ref, err := s.engine.Vouchers().GenerateInCampaign(c.actx(), c.projectID, c.path("campaignId"), in)
				return http.StatusAccepted, ref, err
			}
			v, err := s.engine.Vouchers().CreateInCampaign(c.ctx(), c.projectID, c.path("campaignId"), in, nil)
			return http.StatusOK, v, err
		}},
		{http.MethodPost, "/v1/campaigns/{campaignId}/vouchers/{code}", appKey, withBody(func(c *call, in voucher.CampaignParams) (*voucher.Voucher, error) {
			code := c.path("code")
			in.VouchersCount = nil
			return s.engine.Vouchers().CreateInCampaign(c.ctx(), c.projectID, c.path("campaignId"), in, &code)
		})},
		{http.MethodPost, "/v1/campaigns/{campaignId}/import", appKey, func(c *call) (int, any, error) {
			var items []voucher.ImportItem
			if err := decodeArrayBody(c, &items); err != nil {
				return 0, nil, err
			}
			ref, err := s.engine.Vouchers().ImportToCampaign(c.actx(), c.projectID, c.path("campaignId"), items)
			return http.StatusAccepted, ref, err
		}},
	}
}

// categoryRoutes are the categories endpoints (scope categories). A
// category is addressed by id or name.
func (s *server) categoryRoutes() []route {
	cs := s.engine.Campaigns()
	return []route{
		{http.MethodPost, "/v1/categories", appKey, withBody(func(c *call, in campaign.CategoryParams) (*campaign.Category, error) {
			return cs.CreateCategory(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/categories", appKey, listOf(cs.ListCategories)},
		{http.MethodGet, "/v1/categories/{categoryId}", appKey, withoutBody(func(c *call) (*campaign.Category, error) {
			return cs.GetCategory(c.ctx(), c.projectID, c.path("categoryId"))
		})},
		{http.MethodPut, "/v1/categories/{categoryId}", appKey, withBody(func(c *call, in campaign.CategoryParams) (*campaign.Category, error) {
			return cs.UpdateCategory(c.ctx(), c.projectID, c.path("categoryId"), in)
		})},
		{http.MethodDelete, "/v1/categories/{categoryId}", appKey, noContent(func(c *call) error {
			return cs.DeleteCategory(c.ctx(), c.projectID, c.path("categoryId"))
		})},
	}
}

// campaignListParams reads the query of GET /v1/campaigns.
func campaignListParams(c *call) (campaign.ListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return campaign.ListParams{}, err
	}
	var p campaign.ListParams
	if p.ListParams, err = listParams(q); err != nil {
		return p, err
	}
	if v, ok, err := enumParam(q, "campaign_type", "DISCOUNT_COUPONS", "GIFT_VOUCHERS", "LOYALTY_PROGRAM", "PROMOTION", "REFERRAL_PROGRAM"); err != nil {
		return p, err
	} else if ok {
		p.CampaignType = promotype.Ptr(campaign.CampaignType(v))
	}
	if v, ok, err := enumParam(q, "campaign_status", "DONE", "IN_PROGRESS", "FAILED", "DRAFT", "MODIFYING"); err != nil {
		return p, err
	} else if ok {
		p.Status = promotype.Ptr(campaign.Status(v))
	}
	if q.Has("is_referral_code") {
		b, err := boolParam(q, "is_referral_code")
		if err != nil {
			return p, err
		}
		p.IsReferralCode = &b
	}
	for _, v := range q["expand"] {
		for part := range strings.SplitSeq(v, ",") {
			switch strings.TrimSpace(part) {
			case "category":
				p.ExpandCategory = true
			case "access_settings_assignments", "":
				// Areas and Stores (enterprise): nothing to expand.
			default:
				return p, promotype.InvalidQueryParams("Property .expand must be one of category, access_settings_assignments")
			}
		}
	}
	return p, nil
}

// enumParam reads a parameter that takes one of values.
func enumParam(q url.Values, name string, values ...string) (string, bool, error) {
	if !q.Has(name) {
		return "", false, nil
	}
	v := q.Get(name)
	if !slices.Contains(values, v) {
		return "", false, promotype.InvalidQueryParams("Property .%s must be one of %s", name, strings.Join(values, ", "))
	}
	return v, true, nil
}

// decodeAddVouchers reads the request of POST /v1/campaigns/{id}/vouchers.
// Besides the documented object body, it takes the count the way the
// official SDKs send it: in the query (?vouchers_count=3, the Python SDK) or
// as a bare JSON number body (3, the JS SDK). A count given twice must agree.
func decodeAddVouchers(c *call) (voucher.CampaignParams, error) {
	var in voucher.CampaignParams
	err := withRawBody(c.w, c.r, c.maxBody, func(data []byte) error {
		data = bytes.TrimSpace(data)
		if len(data) > 0 && (data[0] == '-' || data[0] >= '0' && data[0] <= '9') {
			var n int64
			if err := json.Unmarshal(data, &n); err != nil {
				return promotype.InvalidPayload("Payload must be an object or an integer number of vouchers")
			}
			in.VouchersCount = &n
			return nil
		}
		return unmarshalObject(data, &in)
	})
	if err != nil {
		return in, err
	}
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return in, err
	}
	if !q.Has("vouchers_count") {
		return in, nil
	}
	n, err := strconv.ParseInt(q.Get("vouchers_count"), 10, 64)
	if err != nil {
		return in, promotype.InvalidQueryParams("Property .vouchers_count must be integer")
	}
	if in.VouchersCount != nil && *in.VouchersCount != n {
		return in, promotype.InvalidQueryParams("Property .vouchers_count of the query (%d) differs from the body's (%d)", n, *in.VouchersCount)
	}
	in.VouchersCount = &n
	return in, nil
}
