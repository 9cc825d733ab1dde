package project

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// SettingsStore is the storage port of the project settings kept through
// the management API: metadata schemas, custom event schemas, branding and
// the custom events received.
type SettingsStore interface {
	// InsertMetadataSchema returns a duplicate_found error when the project
	// has a schema for the same related_object.
	InsertMetadataSchema(ctx context.Context, s *MetadataSchema) error
	GetMetadataSchema(ctx context.Context, projectID, id string) (*MetadataSchema, error)
	// FindMetadataSchema returns the schema of a related object, or a not
	// found error.
	FindMetadataSchema(ctx context.Context, projectID, relatedObject string) (*MetadataSchema, error)
	ListMetadataSchemas(ctx context.Context, projectID string, q promotype.Query) ([]*MetadataSchema, int, error)
	UpdateMetadataSchema(ctx context.Context, s *MetadataSchema) error
	DeleteMetadataSchema(ctx context.Context, projectID, id string) error

	// InsertCustomEventSchema returns a duplicate_found error when the
	// project has a schema of the same name.
	InsertCustomEventSchema(ctx context.Context, s *CustomEventSchema) error
	GetCustomEventSchema(ctx context.Context, projectID, id string) (*CustomEventSchema, error)
	FindCustomEventSchema(ctx context.Context, projectID, name string) (*CustomEventSchema, error)
	ListCustomEventSchemas(ctx context.Context, projectID string, q promotype.Query) ([]*CustomEventSchema, int, error)
	UpdateCustomEventSchema(ctx context.Context, s *CustomEventSchema) error
	DeleteCustomEventSchema(ctx context.Context, projectID, id string) error

	// InsertBranding returns a branding_exist error when the project has
	// one already.
	InsertBranding(ctx context.Context, b *Branding) error
	GetBranding(ctx context.Context, projectID, id string) (*Branding, error)
	ListBrandings(ctx context.Context, projectID string, q promotype.Query) ([]*Branding, int, error)
	UpdateBranding(ctx context.Context, b *Branding) error
	DeleteBranding(ctx context.Context, projectID, id string) error

	InsertCustomEvent(ctx context.Context, e *CustomEvent) error
	ListCustomEvents(ctx context.Context, projectID string, q promotype.Query) ([]*CustomEvent, int, error)
}

// SettingsListSpec is what the settings lists accept: paging, created_at
// filters, and order by created_at (oldest first by default).
var SettingsListSpec = promotype.ListSpec{
	Orders:       []string{"created_at"},
	DefaultOrder: "created_at",
	Fields:       map[string]promotype.FieldKind{"created_at": promotype.FieldTime},
}
