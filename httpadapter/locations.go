package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/location"
)

// locationRoutes are the locations endpoints (scope locations). POST and
// DELETE are extensions: the hosted service draws locations in its
// dashboard only.
func (s *server) locationRoutes() []route {
	loc := s.engine.Locations()
	return []route{
		{http.MethodPost, "/v1/locations", appKey, withBody(func(c *call, in location.Params) (*location.Location, error) {
			return loc.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/locations", appKey, listOf(loc.List)},
		{http.MethodGet, "/v1/locations/{locationId}", appKey, withoutBody(func(c *call) (*location.Location, error) {
			return loc.Get(c.ctx(), c.projectID, c.path("locationId"))
		})},
		{http.MethodDelete, "/v1/locations/{locationId}", appKey, noContent(func(c *call) error {
			return loc.Delete(c.ctx(), c.projectID, c.path("locationId"))
		})},
	}
}
