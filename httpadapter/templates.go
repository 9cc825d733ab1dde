package httpadapter

import (
	"net/http"
	"strconv"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// templateRoutes are the campaign templates' endpoints (scope templates)
// and their two management API copies.
func (s *server) templateRoutes() []route {
	ts := s.engine.CampaignTemplates()
	const one = "/v1/templates/campaigns/{campaignTemplateId}"
	return []route{
		{http.MethodPost, "/v1/templates/campaigns", appKey, withBody(func(c *call, in campaign.TemplateParams) (*campaign.Template, error) {
			return ts.CreateTemplate(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/templates/campaigns", appKey, withoutBody(s.listTemplates)},
		{http.MethodGet, one, appKey, withoutBody(func(c *call) (*campaign.Template, error) {
			return ts.GetTemplate(c.ctx(), c.projectID, c.path("campaignTemplateId"))
		})},
		{http.MethodPut, one, appKey, withBody(func(c *call, in campaign.TemplateUpdate) (*campaign.Template, error) {
			return ts.UpdateTemplate(c.ctx(), c.projectID, c.path("campaignTemplateId"), in)
		})},
		{http.MethodDelete, one, appKey, noContent(func(c *call) error {
			return ts.DeleteTemplate(c.ctx(), c.projectID, c.path("campaignTemplateId"))
		})},
		{http.MethodPost, one + "/campaign-setup", appKey, withBody(func(c *call, in campaign.TemplateCampaignParams) (*campaign.CampaignSetup, error) {
			return ts.CreateCampaign(c.actx(), c.projectID, c.path("campaignTemplateId"), in)
		})},
		{http.MethodPost, one + "/tier-setup", appKey, withBody(func(c *call, in campaign.TemplateTierParams) (*campaign.TierSetup, error) {
			return ts.CreateTier(c.ctx(), c.projectID, c.path("campaignTemplateId"), in)
		})},
		{http.MethodGet, "/management/v1/projects/{projectId}/templates/campaigns", managementKey, withoutBody(s.listTemplates)},
		{http.MethodPost, "/management/v1/projects/{projectId}/templates/campaigns/{campaignTemplateId}/copy", managementKey,
			withBody(func(c *call, in campaign.TemplateCopy) (*campaign.Template, error) {
				if in.DestinationProjectID != "" && !c.management.Grants(in.DestinationProjectID) {
					return nil, promotype.NotFound("project", in.DestinationProjectID)
				}
				return ts.CopyTemplate(c.ctx(), c.projectID, c.path("campaignTemplateId"), in)
			})},
	}
}

// listTemplates lists the templates of the call's project: limit, order,
// starting_after_id, include_total and filters.
func (s *server) listTemplates(c *call) (*campaign.TemplateList, error) {
	q, lp, err := c.cursorListParams()
	if err != nil {
		return nil, err
	}
	p := campaign.TemplateListParams{Limit: lp.Limit, Order: lp.Order, StartingAfterID: q.Get("starting_after_id"), Filter: lp.Filter}
	if q.Has("include_total") {
		if p.IncludeTotal, err = strconv.ParseBool(q.Get("include_total")); err != nil {
			return nil, promotype.InvalidQueryParams("Property .include_total must be boolean")
		}
	}
	return s.engine.CampaignTemplates().ListTemplates(c.ctx(), c.projectID, p)
}
