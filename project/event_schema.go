package project

import (
	"context"
	"maps"
	"slices"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// EventProperty is one property of a custom event schema.
type EventProperty struct {
	Type     string `json:"type" validate:"required,oneof=string number date datetime boolean"`
	Optional bool   `json:"optional"`
	Deleted  bool   `json:"deleted,omitempty"`
}

// EventSchemaBody is the schema of a custom event: its properties (the
// metadata an event of that name may carry).
type EventSchemaBody struct {
	Properties map[string]EventProperty `json:"properties" validate:"required,max=100,dive,keys,min=1,max=100,endkeys"`
}

// CustomEventSchema defines a custom event name (object
// "custom-event-schema").
type CustomEventSchema struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Schema    EventSchemaBody `json:"schema"`
	CreatedAt promotype.Time  `json:"created_at"`
	UpdatedAt *promotype.Time `json:"updated_at"`
	Object    string          `json:"object"`
	ProjectID string          `json:"-"`
}

// Clone returns a deep copy.
func (s *CustomEventSchema) Clone() *CustomEventSchema {
	c := *s
	c.Schema.Properties = maps.Clone(s.Schema.Properties)
	c.UpdatedAt = promotype.ClonePtr(s.UpdatedAt)
	return &c
}

// Field returns a filterable or orderable field of s.
func (s *CustomEventSchema) Field(name string) promotype.Value {
	if name == "created_at" {
		return promotype.Value{Time: s.CreatedAt}
	}
	return promotype.Value{Null: true}
}

func (s *CustomEventSchema) normalize() *CustomEventSchema {
	s.Object = "custom-event-schema"
	if s.Schema.Properties == nil {
		s.Schema.Properties = map[string]EventProperty{}
	}
	return s
}

// MetadataSchema is the schema as a metadata schema, to check an event's
// metadata: properties not deleted, undefined keys accepted.
func (s *CustomEventSchema) MetadataSchema() *MetadataSchema {
	m := &MetadataSchema{RelatedObject: "custom event " + s.Name, Properties: map[string]Definition{}}
	for k, p := range s.Schema.Properties {
		m.Properties[k] = Definition{Type: p.Type, Optional: p.Optional, Deleted: p.Deleted}
	}
	return m
}

// CustomEventSchemaParams is the body of a custom event schema create
// (name and schema.properties required) or update (schema.properties
// required: listed properties are added or replaced, deleted:true
// soft-removes one, others stay).
type CustomEventSchemaParams struct {
	Name   *string          `json:"name" validate:"omitempty,min=1,max=300"`
	Schema *EventSchemaBody `json:"schema"`
}

func (p CustomEventSchemaParams) check() error {
	if err := validate.Struct(p); err != nil {
		return err
	}
	if p.Schema == nil {
		return promotype.InvalidPayload("Payload must have required property 'schema'")
	}
	if p.Schema.Properties == nil {
		return promotype.InvalidPayload("Property .schema must have required property 'properties'")
	}
	if len(p.Schema.Properties) > 100 {
		return promotype.InvalidPayload("Property .schema.properties must not have more than 100 properties")
	}
	for _, k := range slices.Sorted(maps.Keys(p.Schema.Properties)) {
		if k == "" || len(k) > 100 {
			return promotype.InvalidPayload("Property .schema.properties must have keys of 1 to 100 characters")
		}
		if err := validate.Struct(p.Schema.Properties[k]); err != nil {
			return promotype.InvalidPayload("Property .schema.properties.%s.type must be equal to one of the allowed values (string, number, date, datetime, boolean)", k)
		}
	}
	return nil
}

// CustomEventSchemaService is the custom event schema use cases.
type CustomEventSchemaService struct {
	store SettingsStore
	env   promotype.Env
}

// NewCustomEventSchemaService returns a custom event schema service.
func NewCustomEventSchemaService(store SettingsStore, env promotype.Env) *CustomEventSchemaService {
	return &CustomEventSchemaService{store: store, env: env}
}

// Create stores a schema; names are unique in a project (409).
func (s *CustomEventSchemaService) Create(ctx context.Context, projectID string, in CustomEventSchemaParams) (*CustomEventSchema, error) {
	if in.Name == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	c := &CustomEventSchema{
		ID:        s.env.IDs.NewID(promotype.PrefixCustomEventSchema),
		Name:      *in.Name,
		Schema:    EventSchemaBody{Properties: maps.Clone(in.Schema.Properties)},
		CreatedAt: s.env.Clock.Now(),
		ProjectID: projectID,
	}
	c.normalize()
	if err := s.store.InsertCustomEventSchema(ctx, c); err != nil {
		return nil, err
	}
	return c.Clone(), nil
}

// Get returns a schema by id.
func (s *CustomEventSchemaService) Get(ctx context.Context, projectID, id string) (*CustomEventSchema, error) {
	c, err := s.store.GetCustomEventSchema(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return c.normalize(), nil
}

// List lists the schemas of a project, oldest first.
func (s *CustomEventSchemaService) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*CustomEventSchema], error) {
	return promotype.ListWith(ctx, s.store.ListCustomEventSchemas, projectID, params, SettingsListSpec, s.env.Clock.Now(), (*CustomEventSchema).normalize)
}

// Update adds or replaces the properties listed (a type may change);
// deleted:true soft-removes one. The name cannot change (a name in the body
// is ignored).
func (s *CustomEventSchemaService) Update(ctx context.Context, projectID, id string, in CustomEventSchemaParams) (*CustomEventSchema, error) {
	in.Name = nil
	if err := in.check(); err != nil {
		return nil, err
	}
	c, err := s.store.GetCustomEventSchema(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	c.normalize()
	maps.Copy(c.Schema.Properties, in.Schema.Properties)
	c.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := s.store.UpdateCustomEventSchema(ctx, c); err != nil {
		return nil, err
	}
	return c.Clone(), nil
}

// Delete removes a schema and its properties.
func (s *CustomEventSchemaService) Delete(ctx context.Context, projectID, id string) error {
	return s.store.DeleteCustomEventSchema(ctx, projectID, id)
}
