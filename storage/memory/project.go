package memory

import (
	"cmp"
	"context"
	"slices"
	"strings"

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
		d.projects.put(u, "", p.ID, p.Clone())
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
		out = p.Clone()
	})
	return out, err
}

// settingsData holds webhook configurations and the project settings.
type settingsData struct {
	webhooks     table[webhook.Webhook]
	metaSchemas  keyed[project.MetadataSchema]    // keyed by related_object
	eventSchemas keyed[project.CustomEventSchema] // keyed by name
	brandings    table[project.Branding]
	events       table[project.CustomEvent]
}

func newSettingsData() settingsData {
	return settingsData{
		webhooks: newTable[webhook.Webhook](),
		metaSchemas: newKeyed(keyed[project.MetadataSchema]{
			kind: "metadata_schema", noun: "metadata schema", keyName: "related_object",
			ids:   func(m *project.MetadataSchema) (string, string) { return m.ProjectID, m.ID },
			key:   func(m *project.MetadataSchema) *string { return &m.RelatedObject },
			clone: (*project.MetadataSchema).Clone,
		}),
		eventSchemas: newKeyed(keyed[project.CustomEventSchema]{
			kind: "custom_event_schema", keyName: "name",
			ids:   func(c *project.CustomEventSchema) (string, string) { return c.ProjectID, c.ID },
			key:   func(c *project.CustomEventSchema) *string { return &c.Name },
			clone: (*project.CustomEventSchema).Clone,
		}),
		brandings: newTable[project.Branding](),
		events:    newTable[project.CustomEvent](),
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

// listRows lists the rows of a project of a table whose rows have a Field
// method (every row counts).
func listRows[V any, P interface {
	*V
	fielder
}](t *table[V], projectID string, q promotype.Query, id func(*V) string, clone func(*V) *V) ([]*V, int) {
	return list(t.rows[projectID], q, rowField[V, P], id, nil, clone)
}

// InsertMetadataSchema implements project.SettingsStore.
func (s *Store) InsertMetadataSchema(ctx context.Context, m *project.MetadataSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if err := d.settings.metaSchemas.keyFree(m.ProjectID, &m.RelatedObject); err != nil {
			return err
		}
		return d.settings.metaSchemas.insert(u, m)
	})
}

// GetMetadataSchema implements project.SettingsStore.
func (s *Store) GetMetadataSchema(ctx context.Context, projectID, id string) (out *project.MetadataSchema, err error) {
	s.read(ctx, func(d *data) { out, err = d.settings.metaSchemas.copyOf(projectID, id) })
	return out, err
}

// FindMetadataSchema implements project.SettingsStore.
func (s *Store) FindMetadataSchema(ctx context.Context, projectID, relatedObject string) (out *project.MetadataSchema, err error) {
	s.read(ctx, func(d *data) { out, err = d.settings.metaSchemas.find(projectID, relatedObject) })
	return out, err
}

// ListMetadataSchemas implements project.SettingsStore.
func (s *Store) ListMetadataSchemas(ctx context.Context, projectID string, q promotype.Query) (out []*project.MetadataSchema, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = d.settings.metaSchemas.list(projectID, q, rowField[project.MetadataSchema])
	})
	return out, total, nil
}

// UpdateMetadataSchema implements project.SettingsStore (related_object
// does not change).
func (s *Store) UpdateMetadataSchema(ctx context.Context, m *project.MetadataSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, err := d.settings.metaSchemas.liveRow(m.ProjectID, m.ID)
		if err != nil {
			return err
		}
		c := m.Clone()
		c.RelatedObject = old.RelatedObject
		return d.settings.metaSchemas.save(u, c)
	})
}

// DeleteMetadataSchema implements project.SettingsStore.
func (s *Store) DeleteMetadataSchema(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.settings.metaSchemas.remove(u, projectID, id) })
}

// InsertCustomEventSchema implements project.SettingsStore.
func (s *Store) InsertCustomEventSchema(ctx context.Context, c *project.CustomEventSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if err := d.settings.eventSchemas.keyFree(c.ProjectID, &c.Name); err != nil {
			return err
		}
		return d.settings.eventSchemas.insert(u, c)
	})
}

// GetCustomEventSchema implements project.SettingsStore.
func (s *Store) GetCustomEventSchema(ctx context.Context, projectID, id string) (out *project.CustomEventSchema, err error) {
	s.read(ctx, func(d *data) { out, err = d.settings.eventSchemas.copyOf(projectID, id) })
	return out, err
}

// FindCustomEventSchema implements project.SettingsStore.
func (s *Store) FindCustomEventSchema(ctx context.Context, projectID, name string) (out *project.CustomEventSchema, err error) {
	s.read(ctx, func(d *data) { out, err = d.settings.eventSchemas.find(projectID, name) })
	return out, err
}

// ListCustomEventSchemas implements project.SettingsStore.
func (s *Store) ListCustomEventSchemas(ctx context.Context, projectID string, q promotype.Query) (out []*project.CustomEventSchema, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = d.settings.eventSchemas.list(projectID, q, rowField[project.CustomEventSchema])
	})
	return out, total, nil
}

// UpdateCustomEventSchema implements project.SettingsStore (the name does
// not change).
func (s *Store) UpdateCustomEventSchema(ctx context.Context, c *project.CustomEventSchema) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, err := d.settings.eventSchemas.liveRow(c.ProjectID, c.ID)
		if err != nil {
			return err
		}
		n := c.Clone()
		n.Name = old.Name
		return d.settings.eventSchemas.save(u, n)
	})
}

// DeleteCustomEventSchema implements project.SettingsStore.
func (s *Store) DeleteCustomEventSchema(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.settings.eventSchemas.remove(u, projectID, id) })
}

func brandingID(b *project.Branding) string { return b.ID }

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
		out, err = getClone(&d.settings.brandings, projectID, id, "branding_details", (*project.Branding).Clone)
	})
	return out, err
}

// ListBrandings implements project.SettingsStore.
func (s *Store) ListBrandings(ctx context.Context, projectID string, q promotype.Query) (out []*project.Branding, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = listRows(&d.settings.brandings, projectID, q, brandingID, (*project.Branding).Clone)
	})
	return out, total, nil
}

// UpdateBranding implements project.SettingsStore.
func (s *Store) UpdateBranding(ctx context.Context, b *project.Branding) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.settings.brandings, u, b.ProjectID, b.ID, "branding_details", b.Clone())
	})
}

// DeleteBranding implements project.SettingsStore.
func (s *Store) DeleteBranding(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return remove(&d.settings.brandings, u, projectID, id, "branding_details")
	})
}

func eventID(e *project.CustomEvent) string { return e.ID }

// InsertCustomEvent implements project.SettingsStore.
func (s *Store) InsertCustomEvent(ctx context.Context, e *project.CustomEvent) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.settings.events, u, e.ProjectID, e.ID, "event", e.Clone())
	})
}

// ListCustomEvents implements project.SettingsStore.
func (s *Store) ListCustomEvents(ctx context.Context, projectID string, q promotype.Query) (out []*project.CustomEvent, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = listRows(&d.settings.events, projectID, q, eventID, (*project.CustomEvent).Clone)
	})
	return out, total, nil
}

// ListProjects implements project.Store.
func (s *Store) ListProjects(ctx context.Context, ids []string) (out []*project.Project, err error) {
	s.read(ctx, func(d *data) {
		seen := map[string]bool{}
		for _, id := range ids {
			if p, ok := d.projects.get("", id); ok && !seen[id] {
				seen[id] = true
				out = append(out, p.Clone())
			}
		}
	})
	slices.SortFunc(out, func(a, b *project.Project) int {
		if c := a.CreatedAt.Compare(b.CreatedAt.Time); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if out == nil {
		out = []*project.Project{}
	}
	return out, nil
}

// UpdateProject implements project.Store.
func (s *Store) UpdateProject(ctx context.Context, p *project.Project) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, ok := d.projects.get("", p.ID)
		if !ok {
			return promotype.NotFound("project", p.ID)
		}
		c := old.Clone()
		c.Name, c.Description, c.TimeZone = p.Name, promotype.ClonePtr(p.Description), p.TimeZone
		c.ClientSettings = p.ClientSettings.Clone()
		d.projects.put(u, "", p.ID, c)
		return nil
	})
}

// DeleteProject implements project.Store: every structure of the store
// drops the project's rows (purge.go); its app keys are announced deleted
// inside the write, as DeleteAppKey does.
func (s *Store) DeleteProject(ctx context.Context, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.projects.get("", id); !ok {
			return promotype.NotFound("project", id)
		}
		d.dropProject(u, id)
		return nil
	})
}

// InsertMembers implements project.UserStore.
func (s *Store) InsertMembers(ctx context.Context, ms []*project.Member) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, m := range ms {
			if _, ok := d.members.get(m.ProjectID, m.UserID); ok || loginTaken(d.members.rows[m.ProjectID], m.Login) {
				return promotype.Duplicate("user", "Duplicated user exists with id %s in project %s", m.UserID, m.ProjectID)
			}
			d.members.put(u, m.ProjectID, m.UserID, m.Clone())
		}
		return nil
	})
}

// FindMembers implements project.UserStore.
func (s *Store) FindMembers(ctx context.Context, projectIDs, keys []string) (out []*project.Member, err error) {
	out = []*project.Member{}
	s.read(ctx, func(d *data) {
		for _, p := range projectIDs {
			for _, m := range d.members.rows[p] {
				if slices.Contains(keys, m.UserID) || slices.Contains(keys, m.Login) {
					out = append(out, m.Clone())
				}
			}
		}
	})
	slices.SortFunc(out, func(a, b *project.Member) int {
		return cmp.Or(strings.Compare(a.UserID, b.UserID), strings.Compare(a.ProjectID, b.ProjectID))
	})
	return slices.CompactFunc(out, func(a, b *project.Member) bool { return a.UserID == b.UserID && a.ProjectID == b.ProjectID }), nil
}

// ListMembers implements project.UserStore.
func (s *Store) ListMembers(ctx context.Context, projectID string) (out []*project.Member, err error) {
	out = []*project.Member{}
	s.read(ctx, func(d *data) {
		for _, m := range d.members.rows[projectID] {
			out = append(out, m.Clone())
		}
	})
	slices.SortFunc(out, func(a, b *project.Member) int {
		return cmp.Or(a.CreatedAt.Time.Compare(b.CreatedAt.Time), strings.Compare(a.UserID, b.UserID))
	})
	return out, nil
}

// UpdateMemberRole implements project.UserStore.
func (s *Store) UpdateMemberRole(ctx context.Context, projectID, userID, role string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		m, ok := d.members.get(projectID, userID)
		if !ok {
			return promotype.NotFound("user", userID)
		}
		c := m.Clone()
		c.Role = role
		d.members.put(u, projectID, userID, c)
		return nil
	})
}

// DeleteMember implements project.UserStore.
func (s *Store) DeleteMember(ctx context.Context, projectID, userID string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.members, u, projectID, userID, "user") })
}

// loginTaken reports whether a row of rows (a project's users) has login.
func loginTaken(rows map[string]*project.Member, login string) bool {
	for _, m := range rows {
		if m.Login == login {
			return true
		}
	}
	return false
}
