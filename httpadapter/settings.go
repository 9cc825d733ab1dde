package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/webhook"
)

// settingsRoutes are the project settings of the management API: webhook
// configurations, metadata schemas, custom event schemas and branding.
func (s *server) settingsRoutes() []route {
	const mp = "/management/v1/projects/{projectId}"
	wh, ms, es, br := s.engine.Webhooks(), s.engine.MetadataSchemas(), s.engine.CustomEventSchemas(), s.engine.Branding()
	return []route{
		// Custom events (scope events).
		{http.MethodPost, "/v1/events", appKey, withBody(func(c *call, in project.TrackParams) (*project.Tracked, error) {
			return s.engine.CustomEvents().Track(c.ctx(), c.projectID, in)
		})},

		{http.MethodPost, mp + "/webhooks", managementKey, withBody(func(c *call, in webhook.Params) (*webhook.Webhook, error) {
			return wh.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, mp + "/webhooks", managementKey, listOf(wh.List)},
		{http.MethodGet, mp + "/webhooks/{webhookId}", managementKey, withoutBody(func(c *call) (*webhook.Webhook, error) {
			return wh.Get(c.ctx(), c.projectID, c.path("webhookId"))
		})},
		{http.MethodPut, mp + "/webhooks/{webhookId}", managementKey, withBody(func(c *call, in webhook.Params) (*webhook.Webhook, error) {
			return wh.Update(c.ctx(), c.projectID, c.path("webhookId"), in)
		})},
		{http.MethodDelete, mp + "/webhooks/{webhookId}", managementKey, noContent(func(c *call) error {
			return wh.Delete(c.ctx(), c.projectID, c.path("webhookId"))
		})},

		{http.MethodPost, mp + "/metadata-schemas", managementKey, withBody(func(c *call, in project.MetadataSchemaParams) (*project.MetadataSchema, error) {
			return ms.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, mp + "/metadata-schemas", managementKey, listOf(ms.List)},
		{http.MethodGet, mp + "/metadata-schemas/{metadataSchemaId}", managementKey, withoutBody(func(c *call) (*project.MetadataSchema, error) {
			return ms.Get(c.ctx(), c.projectID, c.path("metadataSchemaId"))
		})},
		{http.MethodPut, mp + "/metadata-schemas/{metadataSchemaId}", managementKey, withBody(func(c *call, in project.MetadataSchemaUpdate) (*project.MetadataSchema, error) {
			return ms.Update(c.ctx(), c.projectID, c.path("metadataSchemaId"), in)
		})},
		{http.MethodDelete, mp + "/metadata-schemas/{metadataSchemaId}", managementKey, noContent(func(c *call) error {
			return ms.Delete(c.ctx(), c.projectID, c.path("metadataSchemaId"))
		})},

		{http.MethodPost, mp + "/custom-event-schemas", managementKey, withBody(func(c *call, in project.CustomEventSchemaParams) (*project.CustomEventSchema, error) {
			return es.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, mp + "/custom-event-schemas", managementKey, listOf(es.List)},
		{http.MethodGet, mp + "/custom-event-schemas/{customEventSchemaId}", managementKey, withoutBody(func(c *call) (*project.CustomEventSchema, error) {
			return es.Get(c.ctx(), c.projectID, c.path("customEventSchemaId"))
		})},
		{http.MethodPut, mp + "/custom-event-schemas/{customEventSchemaId}", managementKey, withBody(func(c *call, in project.CustomEventSchemaParams) (*project.CustomEventSchema, error) {
			return es.Update(c.ctx(), c.projectID, c.path("customEventSchemaId"), in)
		})},
		{http.MethodDelete, mp + "/custom-event-schemas/{customEventSchemaId}", managementKey, noContent(func(c *call) error {
			return es.Delete(c.ctx(), c.projectID, c.path("customEventSchemaId"))
		})},

		{http.MethodPost, mp + "/branding", managementKey, withBody(func(c *call, in project.BrandingParams) (*project.Branding, error) {
			return br.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, mp + "/branding", managementKey, listOf(br.List)},
		{http.MethodGet, mp + "/branding/{brandingId}", managementKey, withoutBody(func(c *call) (*project.Branding, error) {
			return br.Get(c.ctx(), c.projectID, c.path("brandingId"))
		})},
		{http.MethodPut, mp + "/branding/{brandingId}", managementKey, withBody(func(c *call, in project.BrandingParams) (*project.Branding, error) {
			return br.Update(c.ctx(), c.projectID, c.path("brandingId"), in)
		})},
		{http.MethodDelete, mp + "/branding/{brandingId}", managementKey, noContent(func(c *call) error {
			return br.Delete(c.ctx(), c.projectID, c.path("brandingId"))
		})},
	}
}
