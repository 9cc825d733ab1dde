package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

// productRoutes are the products and SKUs endpoints (scope products; GET
// /v1/skus/{skuId}: skus). Products and SKUs are addressed by id or source id.
func (s *server) productRoutes() []route {
	cat := s.engine.Catalog()
	return []route{
		{http.MethodPost, "/v1/products", appKey, withBody(func(c *call, in catalog.ProductParams) (*catalog.Product, error) {
			return cat.CreateProduct(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/products", appKey, s.hostedList("products", listOf(cat.ListProducts))},
		{http.MethodGet, "/v1/products/{productId}", appKey, withoutBody(func(c *call) (*catalog.Product, error) {
			return cat.GetProduct(c.ctx(), c.projectID, c.path("productId"))
		})},
		{http.MethodPut, "/v1/products/{productId}", appKey, withBody(func(c *call, in catalog.ProductParams) (*catalog.Product, error) {
			return cat.UpdateProduct(c.ctx(), c.projectID, c.path("productId"), in)
		})},
		{http.MethodDelete, "/v1/products/{productId}", appKey, noContent(func(c *call) error {
			force, err := c.force()
			if err != nil {
				return err
			}
			return cat.DeleteProduct(c.ctx(), c.projectID, c.path("productId"), force)
		})},

		{http.MethodGet, "/v1/products/{productId}/skus", appKey, s.hostedList("skus", withoutBody(func(c *call) (*promotype.List[*catalog.SKU], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return cat.ListSKUs(c.ctx(), c.projectID, c.path("productId"), p)
		}))},
		{http.MethodPost, "/v1/products/{productId}/skus", appKey, withBody(func(c *call, in catalog.SKUParams) (*catalog.SKU, error) {
			return cat.CreateSKU(c.ctx(), c.projectID, c.path("productId"), in)
		})},
		{http.MethodPut, "/v1/products/{productId}/skus/{skuId}", appKey, withBody(func(c *call, in catalog.SKUParams) (*catalog.SKU, error) {
			return cat.UpdateSKU(c.ctx(), c.projectID, c.path("productId"), c.path("skuId"), in)
		})},
		{http.MethodDelete, "/v1/products/{productId}/skus/{skuId}", appKey, noContent(func(c *call) error {
			force, err := c.force()
			if err != nil {
				return err
			}
			return cat.DeleteSKU(c.ctx(), c.projectID, c.path("productId"), c.path("skuId"), force)
		})},
		{http.MethodGet, "/v1/skus/{skuId}", appKey, withoutBody(func(c *call) (*catalog.SKU, error) {
			return cat.GetSKU(c.ctx(), c.projectID, c.path("skuId"))
		})},
	}
}
