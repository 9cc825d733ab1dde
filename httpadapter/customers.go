package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// customerRoutes are the customers endpoints (scope customers): an upsert,
// the list, and a read, update, delete (to the bin), activity log and
// permanent deletion of a customer by id or source id.
func (s *server) customerRoutes() []route {
	customers := s.engine.Customers()
	return []route{
		{http.MethodPost, "/v1/customers", appKey, withBody(func(c *call, in customer.Params) (*customer.Customer, error) {
			return customers.Upsert(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/customers", appKey, s.hostedList("customers", withoutBody(func(c *call) (*promotype.List[*customer.Customer], error) {
			p, err := customerListParams(c)
			if err != nil {
				return nil, err
			}
			return customers.List(c.ctx(), c.projectID, p)
		}))},
		{http.MethodGet, "/v1/customers/{customerId}", appKey, withoutBody(func(c *call) (*customer.Customer, error) {
			return customers.Get(c.ctx(), c.projectID, c.path("customerId"))
		})},
		{http.MethodPut, "/v1/customers/{customerId}", appKey, withBody(func(c *call, in customer.UpdateParams) (*customer.Customer, error) {
			return customers.Update(c.ctx(), c.projectID, c.path("customerId"), in)
		})},
		{http.MethodDelete, "/v1/customers/{customerId}", appKey, noContent(func(c *call) error {
			return customers.Delete(c.ctx(), c.projectID, c.path("customerId"))
		})},
		{http.MethodGet, "/v1/customers/{customerId}/activity", appKey, withoutBody(func(c *call) (*customer.ActivityList, error) {
			p, err := activityParams(c)
			if err != nil {
				return nil, err
			}
			return customers.Activities(c.ctx(), c.projectID, c.path("customerId"), p)
		})},
		{http.MethodPost, "/v1/customers/{customerId}/permanent-deletion", appKey, withBody(func(c *call, _ struct{}) (*customer.PermanentDeletion, error) {
			return customers.DeletePermanently(c.ctx(), c.projectID, c.path("customerId"))
		})},
	}
}

// customerListParams reads the query of GET /v1/customers.
func customerListParams(c *call) (customer.ListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return customer.ListParams{}, err
	}
	var p customer.ListParams
	if p.ListParams, err = listParams(q); err != nil {
		return p, err
	}
	if p.Page > 99 {
		return p, promotype.InvalidQueryParams("Property .page must be less than or equal to 99")
	}
	p.Email, p.City, p.Name, p.SegmentID = stringParam(q, "email"), stringParam(q, "city"), stringParam(q, "name"), stringParam(q, "segment_id")
	return p, timeParams(q, map[string]**promotype.Time{"created_at[before]": &p.CreatedBefore, "created_at[after]": &p.CreatedAfter,
		"updated_at[before]": &p.UpdatedBefore, "updated_at[after]": &p.UpdatedAfter, "starting_after": &p.StartingAfter})
}

// activityParams reads the query of GET /v1/customers/{customerId}/activity.
func activityParams(c *call) (customer.ActivityParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return customer.ActivityParams{}, err
	}
	p := customer.ActivityParams{Order: q.Get("order"), StartingAfterID: q.Get("starting_after_id"), CampaignID: q.Get("campaign_id"),
		CampaignType: q.Get("campaign_type"), Category: q.Get("category"), Type: q.Get("type")}
	if p.Limit, err = intParam(q, "limit"); err != nil {
		return p, err
	}
	if q.Has("limit") && p.Limit == 0 {
		return p, promotype.InvalidQueryParams("Property .limit must be between 1 and %d", promotype.MaxLimit)
	}
	return p, timeParams(q, map[string]**promotype.Time{"start_date": &p.StartDate, "end_date": &p.EndDate})
}
