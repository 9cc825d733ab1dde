// Package project holds projects (the unit of isolation: every resource
// belongs to one), and, as the engine grows, async actions, metadata schemas,
// branding and custom events.
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
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	TimeZone  string         `json:"timezone"`
	CreatedAt promotype.Time `json:"created_at"`
	Object    string         `json:"object"`
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
}

// Store is the storage port of projects and their async actions.
type Store interface {
	AsyncStore
	InsertProject(ctx context.Context, p *Project) error
	GetProject(ctx context.Context, id string) (*Project, error)
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
	id := in.ID
	if id == "" {
		id = env.IDs.NewID(promotype.PrefixProject)
	}
	return &Project{ID: id, Name: in.Name, TimeZone: in.TimeZone, CreatedAt: env.Clock.Now(), Object: "project"}, nil
}
