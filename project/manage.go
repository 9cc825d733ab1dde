package project

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// UpdateParams is the body of PUT /management/v1/projects/{projectId}:
// the fields given change, absent ones stay. The hosted service's other
// settings (currency, client-side flags, notifications, code defaults)
// are not kept by this engine and are ignored.
type UpdateParams struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	TimeZone    *string `json:"timezone"`
	// ClientSettingsParams change the client_* settings given.
	ClientSettingsParams
}

// Limits of the project fields.
const (
	maxName        = 200
	maxDescription = 1000
)

func (in UpdateParams) validate() error {
	if in.Name != nil {
		if n := utf8.RuneCountInString(*in.Name); n < 1 || n > maxName {
			return promotype.InvalidPayload("Property .name must have between 1 and %d characters", maxName)
		}
	}
	if in.Description != nil && utf8.RuneCountInString(*in.Description) > maxDescription {
		return promotype.InvalidPayload("Property .description must NOT have more than %d characters", maxDescription)
	}
	if in.TimeZone != nil {
		if _, err := time.LoadLocation(*in.TimeZone); err != nil || *in.TimeZone == "" || len(*in.TimeZone) > 100 {
			return promotype.InvalidPayload("Property .timezone must be an IANA time zone name")
		}
	}
	return in.ClientSettingsParams.check()
}

// List returns the projects among ids (those a management key is granted),
// oldest first, as one list.
func (s *Service) List(ctx context.Context, ids []string) (*promotype.List[*Project], error) {
	ps, err := s.store.ListProjects(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		p.Object = "project"
	}
	return &promotype.List[*Project]{Object: "list", DataRef: promotype.DataRefData, Data: ps, Total: len(ps)}, nil
}

// Update changes the project id's name, description, time zone or client
// settings (client_*). A new
// time zone applies to the validity windows of every validation after the
// change (the promotion cache is told, env.Change).
func (s *Service) Update(ctx context.Context, id string, in UpdateParams) (*Project, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	var out *Project
	err := s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		p, err := tx.GetProject(ctx, id)
		if err != nil {
			return err
		}
		if in.Name != nil {
			p.Name = *in.Name
		}
		if in.Description != nil {
			p.Description = promotype.ClonePtr(in.Description)
		}
		if in.TimeZone != nil {
			p.TimeZone = *in.TimeZone
		}
		in.ClientSettingsParams.apply(&p.ClientSettings)
		out = p
		return tx.UpdateProject(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(id)
	out.Object = "project"
	return out, nil
}

// Delete removes the project id with all its data, in one transaction: its
// keys stop working at once on this engine (the OnDelete hooks run after
// the commit) and, through the store's credential feed, on every engine
// over the same store.
func (s *Service) Delete(ctx context.Context, id string) error {
	if err := s.tx(ctx, func(ctx context.Context, tx ServiceStore) error { return tx.DeleteProject(ctx, id) }); err != nil {
		return err
	}
	s.env.Change(id)
	for _, f := range s.onDelete {
		f(id)
	}
	return nil
}

// OnDelete adds f to what a project deletion tells, after its commit, with
// the project's id: the engine points it at the caches keyed by project
// (credentials). Set it before the service is used.
func (s *Service) OnDelete(f func(projectID string)) { s.onDelete = append(s.onDelete, f) }
