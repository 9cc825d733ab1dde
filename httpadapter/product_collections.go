package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

// collectionRoutes are the product collections endpoints (scope
// product-collections). A collection is addressed by id or name.
func (s *server) collectionRoutes() []route {
	cs := s.engine.Catalog()
	return []route{
		{http.MethodPost, "/v1/product-collections", appKey, withBody(func(c *call, in catalog.CollectionParams) (*catalog.Collection, error) {
			return cs.CreateCollection(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/product-collections", appKey, listOf(cs.ListCollections)},
		{http.MethodGet, "/v1/product-collections/{productCollectionId}", appKey, withoutBody(func(c *call) (*catalog.Collection, error) {
			return cs.GetCollection(c.ctx(), c.projectID, c.path("productCollectionId"))
		})},
		{http.MethodDelete, "/v1/product-collections/{productCollectionId}", appKey, noContent(func(c *call) error {
			return cs.DeleteCollection(c.ctx(), c.projectID, c.path("productCollectionId"))
		})},
		{http.MethodGet, "/v1/product-collections/{productCollectionId}/products", appKey, withoutBody(func(c *call) (*promotype.List[catalog.CollectionMember], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return cs.ListCollectionMembers(c.ctx(), c.projectID, c.path("productCollectionId"), p)
		})},
	}
}
