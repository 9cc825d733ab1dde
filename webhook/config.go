package webhook

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// Webhook is a webhook configuration of a project (object "webhook"):
// deliveries of the events it lists go to TargetURL while it is active.
type Webhook struct {
	ID        string          `json:"id"`
	Object    string          `json:"object"`
	CreatedAt promotype.Time  `json:"created_at"`
	UpdatedAt *promotype.Time `json:"-"`
	TargetURL string          `json:"target_url"`
	Events    []string        `json:"events"`
	Active    bool            `json:"active"`
	ProjectID string          `json:"-"`
}

// Clone returns a deep copy.
func (w *Webhook) Clone() *Webhook {
	c := *w
	c.Events = slices.Clone(w.Events)
	c.UpdatedAt = promotype.ClonePtr(w.UpdatedAt)
	return &c
}

// Field returns a filterable or orderable field of w.
func (w *Webhook) Field(name string) promotype.Value {
	switch name {
	case "created_at":
		return promotype.Value{Time: w.CreatedAt}
	case "target_url":
		return promotype.Value{Str: w.TargetURL}
	}
	return promotype.Value{Null: true}
}

// ListSpec is what a webhook list accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at"},
	DefaultOrder: "created_at",
	Fields:       map[string]promotype.FieldKind{"created_at": promotype.FieldTime},
}

// Params is the body of a webhook create or update: target_url and events
// are required on both (an update replaces the whole events list); active
// is true by default on create and unchanged when absent on update.
type Params struct {
	TargetURL *string  `json:"target_url"`
	Events    []string `json:"events"`
	Active    *bool    `json:"active"`
}

// Store is the storage port of webhook configurations.
type Store interface {
	InsertWebhook(ctx context.Context, w *Webhook) error
	GetWebhook(ctx context.Context, projectID, id string) (*Webhook, error)
	ListWebhooks(ctx context.Context, projectID string, q promotype.Query) ([]*Webhook, int, error)
	// UpdateWebhook replaces every field of the configuration.
	UpdateWebhook(ctx context.Context, w *Webhook) error
	DeleteWebhook(ctx context.Context, projectID, id string) error
}

// ServiceStore is the port of Service: the configurations and the outbox
// their deliveries are made from.
type ServiceStore interface {
	Store
	OutboxStore
}

// Service is the webhook use cases: configurations, their delivery by a
// Dispatcher, and its log (sendouts).
type Service struct {
	store  ServiceStore
	env    promotype.Env
	policy TargetPolicy
	logger *slog.Logger

	mu         sync.Mutex
	dispatcher *Dispatcher // while started
}

// NewService returns a webhook service whose target URLs must pass policy;
// its dispatcher logs to logger.
func NewService(store ServiceStore, env promotype.Env, policy TargetPolicy, logger *slog.Logger) *Service {
	return &Service{store: store, env: env, policy: policy, logger: logger}
}

// check validates the required fields of p.
func (s *Service) check(p Params) error {
	if p.TargetURL == nil {
		return promotype.InvalidPayload("Payload must have required property 'target_url'")
	}
	if len(*p.TargetURL) > 2048 || !utf8.ValidString(*p.TargetURL) {
		return promotype.InvalidPayload("Property .target_url must be a URL of at most 2048 characters")
	}
	if err := s.policy.CheckURL(*p.TargetURL); err != nil {
		return promotype.InvalidPayload("Property .target_url %s", err.Error())
	}
	if p.Events == nil {
		return promotype.InvalidPayload("Payload must have required property 'events'")
	}
	if len(p.Events) == 0 {
		return promotype.InvalidPayload("Property .events must not have fewer than 1 items")
	}
	for i, e := range p.Events {
		if !IsEvent(e) {
			return promotype.InvalidPayload("Property .events[%d] must be equal to one of the allowed values (event %q is not in the catalogue)", i, e)
		}
	}
	return nil
}

// dedupe keeps the first of each event name, in the order given.
func dedupe(events []string) []string {
	out := make([]string, 0, len(events))
	for _, e := range events {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// Create validates and stores a configuration.
func (s *Service) Create(ctx context.Context, projectID string, p Params) (*Webhook, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	w := &Webhook{
		ID:        s.env.IDs.NewID(promotype.PrefixWebhook),
		Object:    "webhook",
		CreatedAt: s.env.Clock.Now(),
		TargetURL: *p.TargetURL,
		Events:    dedupe(p.Events),
		Active:    p.Active == nil || *p.Active,
		ProjectID: projectID,
	}
	if err := s.store.InsertWebhook(ctx, w); err != nil {
		return nil, err
	}
	return w.Clone(), nil
}

// Get returns a configuration by id.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Webhook, error) {
	w, err := s.store.GetWebhook(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return w.normalize(), nil
}

// List lists the configurations of a project, oldest first.
func (s *Service) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Webhook], error) {
	return promotype.ListWith(ctx, s.store.ListWebhooks, projectID, params, ListSpec, s.env.Clock.Now(), (*Webhook).normalize)
}

// Update replaces target_url and the events list, and active when given.
func (s *Service) Update(ctx context.Context, projectID, id string, p Params) (*Webhook, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	w, err := s.store.GetWebhook(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	w.TargetURL = *p.TargetURL
	w.Events = dedupe(p.Events)
	if p.Active != nil {
		w.Active = *p.Active
	}
	w.UpdatedAt = s.env.Clock.Now().Ptr()
	w.Object = "webhook"
	if err := s.store.UpdateWebhook(ctx, w); err != nil {
		return nil, err
	}
	return w.Clone(), nil
}

// Delete removes a configuration.
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	return s.store.DeleteWebhook(ctx, projectID, id)
}

// normalize sets the object name a webhook is answered with.
func (w *Webhook) normalize() *Webhook {
	w.Object = "webhook"
	return w
}
