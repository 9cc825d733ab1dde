package memory

import (
	"context"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/webhook"
)

// InsertProject implements project.Store.
func (s *Store) InsertProject(ctx context.Context, p *project.Project) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.projects.get("", p.ID); ok {
			return promotype.Duplicate("project", "Duplicated project exists with id %s", p.ID)
		}
		c := *p
		d.projects.put(u, "", p.ID, &c)
		return nil
	})
}

// GetProject implements project.Store.
func (s *Store) GetProject(ctx context.Context, id string) (out *project.Project, err error) {
	s.read(ctx, func(d *data) {
		p, ok := d.projects.get("", id)
		if !ok {
			err = promotype.NotFound("project", id)
			return
		}
		c := *p
		out = &c
	})
	return out, err
}

// settingsData holds webhook configurations and the project settings.
type settingsData struct {
	webhooks     table[webhook.Webhook]
	metaSchemas  table[project.MetadataSchema]
	eventSchemas table[project.CustomEventSchema]
	brandings    table[project.Branding]
	events       table[project.CustomEvent]
	metaObjects  index // related_object → schema id
	eventNames   index // name → schema id
}

func newSettingsData() settingsData {
	return settingsData{
		webhooks:     newTable[webhook.Webhook](),
		metaSchemas:  newTable[project.MetadataSchema](),
		eventSchemas: newTable[project.CustomEventSchema](),
		brandings:    newTable[project.Branding](),
		events:       newTable[project.CustomEvent](),
		metaObjects:  index{},
		eventNames:   index{},
	}
}

// fielder is a row with filterable fields.
type fielder interface{ Field(string) promotype.Value }

func rowField[V any, P interface {
	*V
	fielder
}](v *V, name string) promotype.Value {
	return P(v).Field(name)
}

// InsertMetadataSchema implements project.SettingsStore.
func (s *Store) InsertMetadataSchema(ctx context.Context, m *project.MetadataSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.settings.metaObjects[[2]string{m.ProjectID, m.RelatedObject}]; ok {
			return promotype.Duplicate("metadata_schema", "Duplicated metadata schema exists with related_object %s", m.RelatedObject)
		}
		if _, ok := d.settings.metaSchemas.get(m.ProjectID, m.ID); ok {
			return promotype.Duplicate("metadata_schema", "Duplicated metadata schema exists with id %s", m.ID)
		}
		d.settings.metaSchemas.put(u, m.ProjectID, m.ID, m.Clone())
		d.settings.metaObjects.set(u, m.ProjectID, m.RelatedObject, m.ID)
		return nil
	})
}

// GetMetadataSchema implements project.SettingsStore.
func (s *Store) GetMetadataSchema(ctx context.Context, projectID, id string) (out *project.MetadataSchema, err error) {
	s.read(ctx, func(d *data) {
		m, ok := d.settings.metaSchemas.get(projectID, id)
		if !ok {
			err = promotype.NotFound("metadata_schema", id)
			return
		}
		out = m.Clone()
	})
	return out, err
}

// FindMetadataSchema implements project.SettingsStore.
func (s *Store) FindMetadataSchema(ctx context.Context, projectID, relatedObject string) (out *project.MetadataSchema, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.settings.metaObjects[[2]string{projectID, relatedObject}]
		m, found := d.settings.metaSchemas.get(projectID, id)
		if !ok || !found {
			err = promotype.NotFound("metadata_schema", relatedObject)
			return
		}
		out = m.Clone()
	})
	return out, err
}

// ListMetadataSchemas implements project.SettingsStore.
func (s *Store) ListMetadataSchemas(ctx context.Context, projectID string, q promotype.Query) (out []*project.MetadataSchema, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.settings.metaSchemas.rows[projectID], q, rowField[project.MetadataSchema], func(m *project.MetadataSchema) string { return m.ID }, nil, (*project.MetadataSchema).Clone)
	})
	return out, total, nil
}

// UpdateMetadataSchema implements project.SettingsStore (related_object
// does not change).
func (s *Store) UpdateMetadataSchema(ctx context.Context, m *project.MetadataSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, ok := d.settings.metaSchemas.get(m.ProjectID, m.ID)
		if !ok {
			return promotype.NotFound("metadata_schema", m.ID)
		}
		c := m.Clone()
		c.RelatedObject = old.RelatedObject
		d.settings.metaSchemas.put(u, m.ProjectID, m.ID, c)
		return nil
	})
}

// DeleteMetadataSchema implements project.SettingsStore.
func (s *Store) DeleteMetadataSchema(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		m, ok := d.settings.metaSchemas.get(projectID, id)
		if !ok {
			return promotype.NotFound("metadata_schema", id)
		}
		d.settings.metaObjects.unset(u, projectID, m.RelatedObject)
		d.settings.metaSchemas.del(u, projectID, id)
		return nil
	})
}

// InsertCustomEventSchema implements project.SettingsStore.
func (s *Store) InsertCustomEventSchema(ctx context.Context, c *project.CustomEventSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.settings.eventNames[[2]string{c.ProjectID, c.Name}]; ok {
			return promotype.Duplicate("custom_event_schema", "Duplicated custom_event_schema exists with name %s", c.Name)
		}
		if _, ok := d.settings.eventSchemas.get(c.ProjectID, c.ID); ok {
			return promotype.Duplicate("custom_event_schema", "Duplicated custom_event_schema exists with id %s", c.ID)
		}
		d.settings.eventSchemas.put(u, c.ProjectID, c.ID, c.Clone())
		d.settings.eventNames.set(u, c.ProjectID, c.Name, c.ID)
		return nil
	})
}

// GetCustomEventSchema implements project.SettingsStore.
func (s *Store) GetCustomEventSchema(ctx context.Context, projectID, id string) (out *project.CustomEventSchema, err error) {
	s.read(ctx, func(d *data) {
		c, ok := d.settings.eventSchemas.get(projectID, id)
		if !ok {
			err = promotype.NotFound("custom_event_schema", id)
			return
		}
		out = c.Clone()
	})
	return out, err
}

// FindCustomEventSchema implements project.SettingsStore.
func (s *Store) FindCustomEventSchema(ctx context.Context, projectID, name string) (out *project.CustomEventSchema, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.settings.eventNames[[2]string{projectID, name}]
		c, found := d.settings.eventSchemas.get(projectID, id)
		if !ok || !found {
			err = promotype.NotFound("custom_event_schema", name)
			return
		}
		out = c.Clone()
	})
	return out, err
}

// ListCustomEventSchemas implements project.SettingsStore.
func (s *Store) ListCustomEventSchemas(ctx context.Context, projectID string, q promotype.Query) (out []*project.CustomEventSchema, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.settings.eventSchemas.rows[projectID], q, rowField[project.CustomEventSchema], func(c *project.CustomEventSchema) string { return c.ID }, nil, (*project.CustomEventSchema).Clone)
	})
	return out, total, nil
}

// UpdateCustomEventSchema implements project.SettingsStore (the name does
// not change).
func (s *Store) UpdateCustomEventSchema(ctx context.Context, c *project.CustomEventSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, ok := d.settings.eventSchemas.get(c.ProjectID, c.ID)
		if !ok {
			return promotype.NotFound("custom_event_schema", c.ID)
		}
		n := c.Clone()
		n.Name = old.Name
		d.settings.eventSchemas.put(u, c.ProjectID, c.ID, n)
		return nil
	})
}

// DeleteCustomEventSchema implements project.SettingsStore.
func (s *Store) DeleteCustomEventSchema(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c, ok := d.settings.eventSchemas.get(projectID, id)
		if !ok {
			return promotype.NotFound("custom_event_schema", id)
		}
		d.settings.eventNames.unset(u, projectID, c.Name)
		d.settings.eventSchemas.del(u, projectID, id)
		return nil
	})
}

// InsertBranding implements project.SettingsStore.
func (s *Store) InsertBranding(ctx context.Context, b *project.Branding) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if len(d.settings.brandings.rows[b.ProjectID]) > 0 {
			return project.ErrBrandingExists()
		}
		d.settings.brandings.put(u, b.ProjectID, b.ID, b.Clone())
		return nil
	})
}

// GetBranding implements project.SettingsStore.
func (s *Store) GetBranding(ctx context.Context, projectID, id string) (out *project.Branding, err error) {
	s.read(ctx, func(d *data) {
		b, ok := d.settings.brandings.get(projectID, id)
		if !ok {
			err = promotype.NotFound("branding_details", id)
			return
		}
		out = b.Clone()
	})
	return out, err
}

// ListBrandings implements project.SettingsStore.
func (s *Store) ListBrandings(ctx context.Context, projectID string, q promotype.Query) (out []*project.Branding, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.settings.brandings.rows[projectID], q, rowField[project.Branding], func(b *project.Branding) string { return b.ID }, nil, (*project.Branding).Clone)
	})
	return out, total, nil
}

// UpdateBranding implements project.SettingsStore.
func (s *Store) UpdateBranding(ctx context.Context, b *project.Branding) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.settings.brandings.get(b.ProjectID, b.ID); !ok {
			return promotype.NotFound("branding_details", b.ID)
		}
		d.settings.brandings.put(u, b.ProjectID, b.ID, b.Clone())
		return nil
	})
}

// DeleteBranding implements project.SettingsStore.
func (s *Store) DeleteBranding(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.settings.brandings.get(projectID, id); !ok {
			return promotype.NotFound("branding_details", id)
		}
		d.settings.brandings.del(u, projectID, id)
		return nil
	})
}

// InsertCustomEvent implements project.SettingsStore.
func (s *Store) InsertCustomEvent(ctx context.Context, e *project.CustomEvent) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.settings.events.get(e.ProjectID, e.ID); ok {
			return promotype.Duplicate("event", "Duplicated event exists with id %s", e.ID)
		}
		d.settings.events.put(u, e.ProjectID, e.ID, e.Clone())
		return nil
	})
}

// ListCustomEvents implements project.SettingsStore.
func (s *Store) ListCustomEvents(ctx context.Context, projectID string, q promotype.Query) (out []*project.CustomEvent, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.settings.events.rows[projectID], q, rowField[project.CustomEvent], func(e *project.CustomEvent) string { return e.ID }, nil, (*project.CustomEvent).Clone)
	})
	return out, total, nil
}
