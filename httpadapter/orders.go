package httpadapter

import (
	"net/http"
	"slices"

	"github.com/promoengine/promo/order"
)

// salesRoutes are the order and customer endpoints.
func (s *server) salesRoutes() []route {
	return slices.Concat(s.orderRoutes(), s.customerRoutes())
}

// orderRoutes are the orders endpoints (scope orders). Orders are addressed
// by id or source id.
func (s *server) orderRoutes() []route {
	orders := s.engine.Orders()
	return []route{
		{http.MethodPost, "/v1/orders", appKey, withBody(func(c *call, in order.Params) (*order.Order, error) {
			return orders.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/orders", appKey, s.hostedList("orders", listOf(orders.List))},
		{http.MethodGet, "/v1/orders/{orderId}", appKey, withoutBody(func(c *call) (*order.Order, error) {
			return orders.Get(c.ctx(), c.projectID, c.path("orderId"))
		})},
		{http.MethodPut, "/v1/orders/{orderId}", appKey, withBody(func(c *call, in order.Params) (*order.Order, error) {
			return orders.Update(c.ctx(), c.projectID, c.path("orderId"), in)
		})},
	}
}
