package project

import (
	"context"
	"time"
	_ "time/tzdata" // validity windows use the project's zone on any machine

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// Project is an isolated tenant of the engine (object "project").
type Project struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Description is omitted until an update sets it.
	Description *string        `json:"description,omitempty"`
	TimeZone    string         `json:"timezone"`
	CreatedAt   promotype.Time `json:"created_at"`
	Object      string         `json:"object"`
	// WebhookToken is the secret that signs the project's webhook
	// deliveries (the X-Voucherify-Signature header), as the hosted
	// management API names it.
	WebhookToken string `json:"webhook_token"`
	ClientSettings
}

// Location returns the project's time zone.
func (p *Project) Location() *time.Location {
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// Params is the body of a project create. ID is optional (for a fixed id in
// configuration); TimeZone is an IANA name, UTC by default.
type Params struct {
	ID       string `json:"id" validate:"omitempty,min=1,max=100"`
	Name     string `json:"name" validate:"required,min=1,max=200"`
	TimeZone string `json:"timezone" validate:"omitempty,max=100"`
	// ClientSettingsParams are the client_* settings (defaults:
	// DefaultClientSettings).
	ClientSettingsParams
}

// Clone returns a deep copy.
func (p *Project) Clone() *Project {
	c := *p
	c.Description = promotype.ClonePtr(p.Description)
	c.ClientSettings = p.ClientSettings.Clone()
	return &c
}

// Store is the storage port of projects. GetProject and UpdateProject
// return a not_found error for an unknown id.
type Store interface {
	InsertProject(ctx context.Context, p *Project) error
	GetProject(ctx context.Context, id string) (*Project, error)
	// ListProjects returns the projects whose id is in ids (ids no project
	// has are skipped), oldest first (then by id).
	ListProjects(ctx context.Context, ids []string) ([]*Project, error)
	// UpdateProject replaces the name, description and time zone of the
	// project p.ID.
	UpdateProject(ctx context.Context, p *Project) error
	// DeleteProject removes the project id and every row of it, in every
	// table: its resources, settings, outbox, counters and credentials. Its
	// app keys are deleted (with their tokens) and announced to
	// WatchCredentials subscribers as deleted, and the grants of
	// management keys to it are withdrawn. An unknown id is not_found.
	DeleteProject(ctx context.Context, id string) error
}

// New validates params and returns a new project (not yet stored).
func New(in Params, env promotype.Env) (*Project, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if in.TimeZone == "" {
		in.TimeZone = "UTC"
	}
	if _, err := time.LoadLocation(in.TimeZone); err != nil {
		return nil, promotype.InvalidPayload("Property .timezone must be an IANA time zone name")
	}
	if err := in.ClientSettingsParams.check(); err != nil {
		return nil, err
	}
	id := in.ID
	if id == "" {
		id = env.IDs.NewID(promotype.PrefixProject)
	}
	p := &Project{ID: id, Name: in.Name, TimeZone: in.TimeZone, CreatedAt: env.Clock.Now(), Object: "project",
		WebhookToken: newWebhookToken(env.IDs, id), ClientSettings: DefaultClientSettings()}
	in.ClientSettingsParams.apply(&p.ClientSettings)
	return p, nil
}

// webhookTokenLength is the number of base62 characters of a webhook token
// (about 238 bits).
const webhookTokenLength = 40

const base62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// newWebhookToken returns a new project's webhook secret: crypto-random
// base62 characters. Under the predictable id generator of tests and
// golden files (promotype.SequentialIDs) the token is predictable too,
// derived from the project id, so that recorded responses stay stable.
func newWebhookToken(ids promotype.IDGenerator, projectID string) string {
	if _, ok := ids.(*promotype.SequentialIDs); ok {
		return "whtok_" + projectID
	}
	return promotype.RandomString(webhookTokenLength, base62)
}
