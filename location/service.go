package location

import (
	"context"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// Params is the body of a location create.
type Params struct {
	Name  string `json:"name" validate:"required,min=1,max=300"`
	Shape *Shape `json:"shape" validate:"required"`
}

// Service is the location use cases over a [Store].
type Service struct {
	store Store
	env   promotype.Env
}

// NewService returns a location service.
func NewService(store Store, env promotype.Env) *Service {
	return &Service{store: store, env: env}
}

// Create validates and stores a new location.
func (s *Service) Create(ctx context.Context, projectID string, in Params) (*Location, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if err := in.Shape.Validate(); err != nil {
		return nil, err
	}
	l := &Location{
		ID:        s.env.IDs.NewID(promotype.PrefixLocation),
		Object:    "location",
		Name:      in.Name,
		Shape:     *in.Shape,
		CreatedAt: s.env.Clock.Now(),
		ProjectID: projectID,
	}
	l = l.Clone() // the caller keeps its own Params
	if err := s.store.InsertLocation(ctx, l); err != nil {
		return nil, err
	}
	return l, nil
}

// Get returns a location by id.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Location, error) {
	l, err := s.store.GetLocation(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return l.normalize(), nil
}

// List lists locations; params.Filters may filter on name and created_at.
// end_date keeps the locations created at or before it.
func (s *Service) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Location], error) {
	return promotype.ListWith(ctx, s.store.ListLocations, projectID, params, ListSpec, s.env.Clock.Now(), (*Location).normalize)
}

// Delete removes a location.
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	return s.store.DeleteLocation(ctx, projectID, id)
}

// normalize sets the object name a location is answered with.
func (l *Location) normalize() *Location {
	l.Object = "location"
	return l
}
