package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/bin"
)

// binRoutes are the bin's endpoints (scope trash-bin).
func (s *server) binRoutes() []route {
	b := s.engine.Bin()
	return []route{
		{http.MethodGet, "/v1/trash-bin", appKey, withoutBody(func(c *call) (*bin.List, error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			lp, err := listParams(q)
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
