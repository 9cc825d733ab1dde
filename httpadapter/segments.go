package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/segment"
)

// segmentRoutes are the customer segments endpoints (scope segments) and
// the segments of a customer (scope customers).
func (s *server) segmentRoutes() []route {
	segs := s.engine.Segments()
	return []route{
		{http.MethodPost, "/v1/segments", appKey, withBody(func(c *call, in segment.Params) (*segment.Segment, error) {
			return segs.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/segments/{segmentId}", appKey, withoutBody(func(c *call) (*segment.Segment, error) {
			return segs.Get(c.ctx(), c.projectID, c.path("segmentId"))
		})},
		{http.MethodDelete, "/v1/segments/{segmentId}", appKey, noContent(func(c *call) error {
			return segs.Delete(c.ctx(), c.projectID, c.path("segmentId"))
		})},
		{http.MethodGet, "/v1/customers/{customerId}/segments", appKey, withoutBody(func(c *call) (*segment.CustomerList, error) {
			return segs.ForCustomer(c.ctx(), c.projectID, c.path("customerId"))
		})},
	}
}
