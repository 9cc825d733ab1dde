package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/async"
)

// asyncActionRoutes are the async actions endpoints (scope async-actions).
func (s *server) asyncActionRoutes() []route {
	as := s.engine.AsyncActions()
	return []route{
		{http.MethodGet, "/v1/async-actions", appKey, listOf(as.List)},
		{http.MethodGet, "/v1/async-actions/{asyncActionId}", appKey, withoutBody(func(c *call) (*async.Action, error) {
			return as.Get(c.ctx(), c.projectID, c.path("asyncActionId"))
		})},
	}
}
