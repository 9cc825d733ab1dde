package project

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// Clone returns a deep copy.
func (s *MetadataSchema) Clone() *MetadataSchema {
	c := *s
	c.Properties = cloneDefinitions(s.Properties)
	c.RemovedProperties = cloneDefinitions(s.RemovedProperties)
	c.UpdatedAt = promotype.ClonePtr(s.UpdatedAt)
	return &c
}

func cloneDefinitions(m map[string]Definition) map[string]Definition {
	if m == nil {
		return nil
	}
	out := make(map[string]Definition, len(m))
	for k, d := range m {
		d.ObjectType = promotype.ClonePtr(d.ObjectType)
		d.MinLength = promotype.ClonePtr(d.MinLength)
		d.MaxLength = promotype.ClonePtr(d.MaxLength)
		d.ExactLength = promotype.ClonePtr(d.ExactLength)
		d.Eq = slices.Clone(d.Eq)
		d.Ne = slices.Clone(d.Ne)
		d.Lt, d.Lte, d.Gt, d.Gte = promotype.ClonePtr(d.Lt), promotype.ClonePtr(d.Lte), promotype.ClonePtr(d.Gt), promotype.ClonePtr(d.Gte)
		out[k] = d
	}
	return out
}

// Field returns a filterable or orderable field of s.
func (s *MetadataSchema) Field(name string) promotype.Value {
	if name == "created_at" {
		return promotype.Value{Time: s.CreatedAt}
	}
	return promotype.Value{Null: true}
}

func (s *MetadataSchema) normalize() *MetadataSchema {
	s.Object = "metadata_schema"
	if s.Properties == nil {
		s.Properties = map[string]Definition{}
	}
	return s
}

// MetadataSchemaParams is the body of a metadata schema create.
type MetadataSchemaParams struct {
	RelatedObject    string                `json:"related_object" validate:"required,min=1,max=100"`
	AllowDefinedOnly bool                  `json:"allow_defined_only"`
	Properties       map[string]Definition `json:"properties" validate:"required,max=100,dive,keys,min=1,max=100,endkeys"`
}

// MetadataSchemaUpdate is the body of a metadata schema update: only the
// definitions sent change, each replaced as a whole; deleted:true moves one
// to the removed definitions.
type MetadataSchemaUpdate struct {
	AllowDefinedOnly *bool                 `json:"allow_defined_only"`
	Properties       map[string]Definition `json:"properties" validate:"required,max=100,dive,keys,min=1,max=100,endkeys"`
}

// MetadataSchemaService is the metadata schema use cases.
type MetadataSchemaService struct {
	store SettingsStore
	env   promotype.Env
}

// NewMetadataSchemaService returns a metadata schema service.
func NewMetadataSchemaService(store SettingsStore, env promotype.Env) *MetadataSchemaService {
	return &MetadataSchemaService{store: store, env: env}
}

func checkDefinitions(props map[string]Definition) error {
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if err := validate.Struct(props[k]); err != nil {
			e := promotype.AsError(err)
			return promotype.InvalidPayload("Property .properties.%s is invalid: %s", k, e.Details)
		}
	}
	return nil
}

// Create validates and stores a schema; a project has at most one schema
// per related object (409 duplicate_found).
func (s *MetadataSchemaService) Create(ctx context.Context, projectID string, in MetadataSchemaParams) (*MetadataSchema, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if err := checkDefinitions(in.Properties); err != nil {
		return nil, err
	}
	m := &MetadataSchema{
		ID:               s.env.IDs.NewID(promotype.PrefixMetadataSchema),
		RelatedObject:    in.RelatedObject,
		Properties:       map[string]Definition{},
		AllowDefinedOnly: in.AllowDefinedOnly,
		CreatedAt:        s.env.Clock.Now(),
		ProjectID:        projectID,
	}
	for k, d := range cloneDefinitions(in.Properties) {
		if d.Deleted {
			if m.RemovedProperties == nil {
				m.RemovedProperties = map[string]Definition{}
			}
			m.RemovedProperties[k] = d
			continue
		}
		m.Properties[k] = d
	}
	m.normalize()
	if err := s.store.InsertMetadataSchema(ctx, m); err != nil {
		return nil, err
	}
	return m.Clone(), nil
}

// Get returns a schema by id.
func (s *MetadataSchemaService) Get(ctx context.Context, projectID, id string) (*MetadataSchema, error) {
	m, err := s.store.GetMetadataSchema(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return m.normalize(), nil
}

// Find returns the schema of a related object, or nil when there is none.
func (s *MetadataSchemaService) Find(ctx context.Context, projectID, relatedObject string) (*MetadataSchema, error) {
	m, err := s.store.FindMetadataSchema(ctx, projectID, relatedObject)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return m.normalize(), nil
}

// List lists the schemas of a project, oldest first.
func (s *MetadataSchemaService) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*MetadataSchema], error) {
	return promotype.ListWith(ctx, s.store.ListMetadataSchemas, projectID, params, SettingsListSpec, s.env.Clock.Now(), (*MetadataSchema).normalize)
}

// Update changes the definitions sent: each replaces the one of its key
// (whose type cannot change), deleted:true moves it to the removed
// definitions; a removed definition sent again without deleted comes back.
func (s *MetadataSchemaService) Update(ctx context.Context, projectID, id string, in MetadataSchemaUpdate) (*MetadataSchema, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if err := checkDefinitions(in.Properties); err != nil {
		return nil, err
	}
	m, err := s.store.GetMetadataSchema(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	m.normalize()
	for _, k := range slices.Sorted(maps.Keys(in.Properties)) {
		d := cloneDefinitions(map[string]Definition{k: in.Properties[k]})[k]
		old, ok := m.Properties[k]
		if !ok {
			old, ok = m.RemovedProperties[k]
		}
		if ok && old.Type != d.Type {
			return nil, promotype.InvalidPayload("Property .properties.%s.type cannot change (it is %s)", k, old.Type)
		}
		if d.Deleted {
			delete(m.Properties, k)
			if m.RemovedProperties == nil {
				m.RemovedProperties = map[string]Definition{}
			}
			m.RemovedProperties[k] = d
			continue
		}
		delete(m.RemovedProperties, k)
		m.Properties[k] = d
	}
	if len(m.RemovedProperties) == 0 {
		m.RemovedProperties = nil
	}
	if in.AllowDefinedOnly != nil {
		m.AllowDefinedOnly = *in.AllowDefinedOnly
	}
	m.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := s.store.UpdateMetadataSchema(ctx, m); err != nil {
		return nil, err
	}
	return m.Clone(), nil
}

// Delete removes a schema with all its definitions; metadata stored on
// resources stays as it is.
func (s *MetadataSchemaService) Delete(ctx context.Context, projectID, id string) error {
	return s.store.DeleteMetadataSchema(ctx, projectID, id)
}

// CheckMetadata checks m against the project's schema for relatedObject,
// if there is one; it is what promotype.Env.CheckMetadata runs.
func (s *MetadataSchemaService) CheckMetadata(ctx context.Context, projectID, relatedObject string, m promotype.Metadata) error {
	schema, err := s.Find(ctx, projectID, relatedObject)
	if err != nil || schema == nil {
		return err
	}
	return schema.Check(m)
}
