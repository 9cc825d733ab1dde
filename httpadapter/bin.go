package httpadapter

import (
	"net/http"
	"net/url"

	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/promotype"
)

// binRoutes are the bin's endpoints (scope trash-bin).
func (s *server) binRoutes() []route {
	b := s.engine.Bin()
	return []route{
		{http.MethodGet, "/v1/trash-bin", appKey, withoutBody(func(c *call) (*bin.List, error) {
			q, lp, err := c.cursorListParams()
			if err != nil {
				return nil, err
			}
			return b.List(c.ctx(), c.projectID, bin.ListParams{Limit: lp.Limit, Order: lp.Order,
				StartingAfterID: q.Get("starting_after_id"), Filter: lp.Filter})
		})},
		{http.MethodDelete, "/v1/trash-bin/{binEntryId}", appKey, noContent(func(c *call) error {
			return b.Delete(c.actx(), c.projectID, c.path("binEntryId"))
		})},
	}
}

// cursorListParams reads the query and the list parameters of a list paged
// by id: the query for starting_after_id and what else the list takes.
func (c *call) cursorListParams() (url.Values, promotype.ListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return nil, promotype.ListParams{}, err
	}
	lp, err := listParams(q)
	return q, lp, err
}
