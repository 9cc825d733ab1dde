package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/customer"
)

// customerRoutes are the customers endpoints (scope customers): an upsert
// by id or source id, and a read by id or source id.
func (s *server) customerRoutes() []route {
	customers := s.engine.Customers()
	return []route{
		{http.MethodPost, "/v1/customers", appKey, withBody(func(c *call, in customer.Params) (*customer.Customer, error) {
			return customers.Upsert(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/customers/{customerId}", appKey, withoutBody(func(c *call) (*customer.Customer, error) {
			return customers.Get(c.ctx(), c.projectID, c.path("customerId"))
		})},
	}
}
