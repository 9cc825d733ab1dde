package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/project"
)

// asyncActionRoutes are the async actions endpoints (scope async-actions).
func (s *server) asyncActionRoutes() []route {
	as := s.engine.AsyncActions()
	return []route{
		{http.MethodGet, "/v1/async-actions", appKey, s.hostedList("async_actions", listOf(as.List))},
		{http.MethodGet, "/v1/async-actions/{asyncActionId}", appKey, withoutBody(func(c *call) (*project.AsyncAction, error) {
			return as.Get(c.ctx(), c.projectID, c.path("asyncActionId"))
		})},
	}
}
