package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

// hostedRoutes are operations of the hosted API served by other routes'
// services (issue 29): the orders export of POST /v1/orders/export (scope
// orders; the literal segment beside /v1/orders/{orderId}, as
// /v1/orders/import) and the metadata schemas read under /v1 (the JS and
// PHP SDKs' metadataSchemas.list and get).
func (s *server) hostedRoutes() []route {
	exports, ms := s.engine.Exports(), s.engine.MetadataSchemas()
	return []route{
		{http.MethodPost, "/v1/orders/export", appKey, withBody(func(c *call, in export.TransactionsParams) (*export.Export, error) {
			object := export.ObjectOrder
			return exports.Create(c.ctx(), c.projectID, export.CreateParams{ExportedObject: &object, Parameters: in.Parameters})
		})},
		{http.MethodGet, "/v1/metadata-schemas", appKey, s.hostedList("schemas", withoutBody(func(c *call) (*promotype.List[*project.MetadataSchema], error) {
			// Every schema of the project: the hosted operation takes no
			// paging (a project has one schema per related object).
			return ms.List(c.ctx(), c.projectID, promotype.ListParams{Limit: promotype.MaxLimit})
		}))},
		{http.MethodGet, "/v1/metadata-schemas/{resource}", appKey, withoutBody(func(c *call) (*project.MetadataSchema, error) {
			m, err := ms.Find(c.ctx(), c.projectID, c.path("resource"))
			if err == nil && m == nil {
				err = promotype.NotFound("metadata_schema", c.path("resource"))
			}
			return m, err
		})},
	}
}
