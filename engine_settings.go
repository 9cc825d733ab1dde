package promo

import (
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/webhook"
)

// settingsServices are the project settings of the management API.
type settingsServices struct {
	webhooks        *webhook.Service
	metadataSchemas *project.MetadataSchemaService
	eventSchemas    *project.CustomEventSchemaService
	branding        *project.BrandingService
	events          *project.CustomEventService
}

// Webhooks is the webhook configurations API.
func (e *Engine) Webhooks() *webhook.Service { return e.settings.webhooks }

// MetadataSchemas is the metadata schemas API.
func (e *Engine) MetadataSchemas() *project.MetadataSchemaService { return e.settings.metadataSchemas }

// CustomEventSchemas is the custom event schemas API.
func (e *Engine) CustomEventSchemas() *project.CustomEventSchemaService {
	return e.settings.eventSchemas
}

// Branding is the brand configuration API.
func (e *Engine) Branding() *project.BrandingService { return e.settings.branding }

// CustomEvents is the custom events API (POST /v1/events).
func (e *Engine) CustomEvents() *project.CustomEventService { return e.settings.events }
