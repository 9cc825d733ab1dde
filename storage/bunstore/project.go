package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
)

type projectRow struct {
	bun.BaseModel `bun:"table:promo_projects,alias:p"`

	ID          string    `bun:"id,pk"`
	Name        string    `bun:"name"`
	Description *string   `bun:"description"` // migration 0026
	TimeZone    string    `bun:"time_zone"`
	CreatedAt   time.Time `bun:"created_at"`
	// WebhookToken signs the project's webhook deliveries (migration 0009).
	WebhookToken string `bun:"webhook_token"`
	// ClientSettings are the client_* settings (migration 0034); NULL
	// reads as the defaults.
	ClientSettings *project.ClientSettings `bun:"client_settings,type:jsonb"`
}

func (r *projectRow) domain() *project.Project {
	p := &project.Project{ID: r.ID, Name: r.Name, Description: r.Description, TimeZone: r.TimeZone, CreatedAt: domainTime(r.CreatedAt),
		WebhookToken: r.WebhookToken, ClientSettings: project.DefaultClientSettings()}
	if r.ClientSettings != nil {
		p.ClientSettings = r.ClientSettings.Clone()
	}
	return p
}

// checkProjectText refuses a project whose text cannot be stored.
func checkProjectText(p *project.Project, fields ...text) error {
	for _, d := range p.TrustedDomains {
		fields = append(fields, str("client_trusted_domains", d))
	}
	return checkText("project", fields...)
}

// InsertProject implements project.Store.
func (s *Store) InsertProject(ctx context.Context, p *project.Project) error {
	if err := checkProjectText(p, str("id", p.ID), str("name", p.Name), str("timezone", p.TimeZone), str("webhook_token", p.WebhookToken)); err != nil {
		return err
	}
	settings := p.ClientSettings.Clone()
	row := &projectRow{ID: p.ID, Name: p.Name, Description: promotype.ClonePtr(p.Description), TimeZone: p.TimeZone, CreatedAt: sqlTime(p.CreatedAt),
		WebhookToken: p.WebhookToken, ClientSettings: &settings}
	dup := func() error { return promotype.Duplicate("project", "Duplicated project exists with id %s", p.ID) }
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert project", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
}

// GetProject implements project.Store.
func (s *Store) GetProject(ctx context.Context, id string) (*project.Project, error) {
	notFound := func() error { return promotype.NotFound("project", id) }
	if !storable(id) {
		return nil, notFound()
	}
	var row projectRow
	if err := s.db.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, getErr("get project", err, notFound)
	}
	return row.domain(), nil
}

// ListProjects implements project.Store.
func (s *Store) ListProjects(ctx context.Context, ids []string) ([]*project.Project, error) {
	ids = storableList(ids)
	out := []*project.Project{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []projectRow
	if err := s.db.NewSelect().Model(&rows).Where("id IN (?)", bun.List(ids)).OrderExpr("created_at, id").Scan(ctx); err != nil {
		return nil, fail("list projects", err, nil)
	}
	for i := range rows {
		out = append(out, rows[i].domain())
	}
	return out, nil
}

// UpdateProject implements project.Store.
func (s *Store) UpdateProject(ctx context.Context, p *project.Project) error {
	notFound := func() error { return promotype.NotFound("project", p.ID) }
	if !storable(p.ID) {
		return notFound()
	}
	if err := checkProjectText(p, str("name", p.Name), text{"description", p.Description}, str("timezone", p.TimeZone)); err != nil {
		return err
	}
	settings, err := json.Marshal(p.ClientSettings.Clone())
	if err != nil {
		return fail("update project", err, nil)
	}
	res, err := s.db.NewUpdate().Table("promo_projects").
		Set("name = ?, description = ?, time_zone = ?, client_settings = ?", p.Name, p.Description, p.TimeZone, string(settings)).
		Where("id = ?", p.ID).Exec(ctx)
	if err != nil {
		return fail("update project", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}

// docRow is a row of the settings tables (migration 0007): the resource as
// a JSON document plus the columns it is found, ordered and kept unique by.
type docRow struct {
	bun.BaseModel `bun:"table:promo_webhooks,alias:d"`

	ProjectID string          `bun:"project_id,pk"`
	ID        string          `bun:"id,pk"`
	Key       *string         `bun:"key"`
	CreatedAt time.Time       `bun:"created_at"`
	UpdatedAt *time.Time      `bun:"updated_at"`
	Doc       json.RawMessage `bun:"doc,type:jsonb"`

	Total int `bun:"total,scanonly"`
}

func (r *docRow) listTotal() int { return r.Total }

var docColumns = columns{"created_at": {"created_at", promotype.FieldTime}}

// docTable maps one resource type to its table.
type docTable[T any] struct {
	table    string
	resource string // for errors
	// keys returns the row's columns (Doc is filled by the table).
	keys func(v *T) docRow
	// fill sets on a decoded document what its JSON leaves out.
	fill     func(v *T, r *docRow)
	notFound func(id string) error
	dup      func(v *T) error
}

func (t docTable[T]) row(v *T) (*docRow, error) {
	r := t.keys(v)
	if err := checkText(t.resource, str("id", r.ID), str("project_id", r.ProjectID)); err != nil {
		return nil, err
	}
	if r.Key != nil {
		if err := checkText(t.resource, str("key", *r.Key)); err != nil {
			return nil, err
		}
	}
	doc, err := encodeJSON(v)
	if err != nil {
		return nil, err
	}
	r.Doc = doc
	return &r, nil
}

func (t docTable[T]) decode(r *docRow) (*T, error) {
	v := new(T)
	if err := decodeJSON(r.Doc, v); err != nil {
		return nil, err
	}
	t.fill(v, r)
	return v, nil
}

func (t docTable[T]) insert(ctx context.Context, db bun.IDB, v *T) error {
	r, err := t.row(v)
	if err != nil {
		return err
	}
	dup := func() error { return t.dup(v) }
	res, err := db.NewInsert().Model(r).ModelTableExpr(t.table).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert "+t.resource, err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
}

func (t docTable[T]) get(ctx context.Context, db bun.IDB, projectID, where, arg string) (*T, error) {
	if !storableKeys(projectID, arg) {
		return nil, t.notFound(arg)
	}
	var r docRow
	st := cachedStatement(t.table+"."+where, t.table, func(db bun.IDB) string {
		return db.NewSelect().Model((*docRow)(nil)).ModelTableExpr(t.table+" AS d").
			Where("d.project_id = ? AND d."+where+" = ?", placeholder(1), placeholder(2)).String()
	})
	err := getPrepared(ctx, db, st, &r, projectID, arg)
	if err != nil {
		return nil, getErr("get "+t.resource, err, func() error { return t.notFound(arg) })
	}
	return t.decode(&r)
}

func (t docTable[T]) list(ctx context.Context, db bun.IDB, projectID string, q promotype.Query) ([]*T, int, error) {
	if !storable(projectID) {
		return []*T{}, 0, nil
	}
	rows, total, err := list[docRow](ctx, db, docColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.ModelTableExpr(t.table+" AS d").Where("d.project_id = ?", projectID)
	}, nil)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*T, len(rows))
	for i := range rows {
		if out[i], err = t.decode(&rows[i]); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// update replaces the document and updated_at (never the key).
func (t docTable[T]) update(ctx context.Context, db bun.IDB, v *T) error {
	r, err := t.row(v)
	if err != nil {
		return err
	}
	res, err := db.NewUpdate().Model(r).ModelTableExpr(t.table+" AS d").Column("doc", "updated_at").WherePK().Exec(ctx)
	if err != nil {
		return fail("update "+t.resource, err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return t.notFound(r.ID)
	}
	return nil
}

func (t docTable[T]) delete(ctx context.Context, db bun.IDB, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return t.notFound(id)
	}
	res, err := db.NewDelete().Model((*docRow)(nil)).ModelTableExpr(t.table+" AS d").Where("d.project_id = ? AND d.id = ?", projectID, id).Exec(ctx)
	if err != nil {
		return fail("delete "+t.resource, err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return t.notFound(id)
	}
	return nil
}

func notFoundOf(resource string) func(string) error {
	return func(id string) error { return promotype.NotFound(resource, id) }
}

var metadataSchemas = docTable[project.MetadataSchema]{
	table: "promo_metadata_schemas", resource: "metadata_schema",
	keys: func(m *project.MetadataSchema) docRow {
		return docRow{ProjectID: m.ProjectID, ID: m.ID, Key: &m.RelatedObject, CreatedAt: sqlTime(m.CreatedAt), UpdatedAt: sqlTimePtr(m.UpdatedAt)}
	},
	fill: func(m *project.MetadataSchema, r *docRow) {
		m.ProjectID, m.CreatedAt, m.UpdatedAt = r.ProjectID, domainTime(r.CreatedAt), domainTimePtr(r.UpdatedAt)
		if r.Key != nil {
			m.RelatedObject = *r.Key
		}
	},
	notFound: notFoundOf("metadata_schema"),
	dup: func(m *project.MetadataSchema) error {
		return promotype.Duplicate("metadata_schema", "Duplicated metadata schema exists with related_object %s", m.RelatedObject)
	},
}

var eventSchemas = docTable[project.CustomEventSchema]{
	table: "promo_custom_event_schemas", resource: "custom_event_schema",
	keys: func(c *project.CustomEventSchema) docRow {
		return docRow{ProjectID: c.ProjectID, ID: c.ID, Key: &c.Name, CreatedAt: sqlTime(c.CreatedAt), UpdatedAt: sqlTimePtr(c.UpdatedAt)}
	},
	fill: func(c *project.CustomEventSchema, r *docRow) {
		c.ProjectID, c.CreatedAt, c.UpdatedAt = r.ProjectID, domainTime(r.CreatedAt), domainTimePtr(r.UpdatedAt)
		if r.Key != nil {
			c.Name = *r.Key
		}
	},
	notFound: notFoundOf("custom_event_schema"),
	dup: func(c *project.CustomEventSchema) error {
		return promotype.Duplicate("custom_event_schema", "Duplicated custom_event_schema exists with name %s", c.Name)
	},
}

var brandingKey = "branding"

var brandings = docTable[project.Branding]{
	table: "promo_brandings", resource: "branding",
	keys: func(b *project.Branding) docRow {
		return docRow{ProjectID: b.ProjectID, ID: b.ID, Key: &brandingKey, CreatedAt: sqlTime(b.CreatedAt), UpdatedAt: sqlTimePtr(b.UpdatedAt)}
	},
	fill: func(b *project.Branding, r *docRow) {
		b.ProjectID, b.CreatedAt, b.UpdatedAt = r.ProjectID, domainTime(r.CreatedAt), domainTimePtr(r.UpdatedAt)
	},
	notFound: notFoundOf("branding_details"),
	dup:      func(*project.Branding) error { return project.ErrBrandingExists() },
}

var customEvents = docTable[project.CustomEvent]{
	table: "promo_custom_events", resource: "event",
	keys: func(e *project.CustomEvent) docRow {
		return docRow{ProjectID: e.ProjectID, ID: e.ID, CreatedAt: sqlTime(e.CreatedAt)}
	},
	fill: func(e *project.CustomEvent, r *docRow) {
		e.ProjectID, e.CreatedAt = r.ProjectID, domainTime(r.CreatedAt)
	},
	notFound: notFoundOf("event"),
	dup: func(e *project.CustomEvent) error {
		return promotype.Duplicate("event", "Duplicated event exists with id %s", e.ID)
	},
}

// InsertMetadataSchema implements project.SettingsStore.
func (s *Store) InsertMetadataSchema(ctx context.Context, m *project.MetadataSchema) error {
	return metadataSchemas.insert(ctx, s.db, m)
}

// GetMetadataSchema implements project.SettingsStore.
func (s *Store) GetMetadataSchema(ctx context.Context, projectID, id string) (*project.MetadataSchema, error) {
	return metadataSchemas.get(ctx, s.db, projectID, "id", id)
}

// FindMetadataSchema implements project.SettingsStore.
func (s *Store) FindMetadataSchema(ctx context.Context, projectID, relatedObject string) (*project.MetadataSchema, error) {
	return metadataSchemas.get(ctx, s.db, projectID, "key", relatedObject)
}

// ListMetadataSchemas implements project.SettingsStore.
func (s *Store) ListMetadataSchemas(ctx context.Context, projectID string, q promotype.Query) ([]*project.MetadataSchema, int, error) {
	return metadataSchemas.list(ctx, s.db, projectID, q)
}

// UpdateMetadataSchema implements project.SettingsStore.
func (s *Store) UpdateMetadataSchema(ctx context.Context, m *project.MetadataSchema) error {
	return metadataSchemas.update(ctx, s.db, m)
}

// DeleteMetadataSchema implements project.SettingsStore.
func (s *Store) DeleteMetadataSchema(ctx context.Context, projectID, id string) error {
	return metadataSchemas.delete(ctx, s.db, projectID, id)
}

// InsertCustomEventSchema implements project.SettingsStore.
func (s *Store) InsertCustomEventSchema(ctx context.Context, c *project.CustomEventSchema) error {
	return eventSchemas.insert(ctx, s.db, c)
}

// GetCustomEventSchema implements project.SettingsStore.
func (s *Store) GetCustomEventSchema(ctx context.Context, projectID, id string) (*project.CustomEventSchema, error) {
	return eventSchemas.get(ctx, s.db, projectID, "id", id)
}

// FindCustomEventSchema implements project.SettingsStore.
func (s *Store) FindCustomEventSchema(ctx context.Context, projectID, name string) (*project.CustomEventSchema, error) {
	return eventSchemas.get(ctx, s.db, projectID, "key", name)
}

// ListCustomEventSchemas implements project.SettingsStore.
func (s *Store) ListCustomEventSchemas(ctx context.Context, projectID string, q promotype.Query) ([]*project.CustomEventSchema, int, error) {
	return eventSchemas.list(ctx, s.db, projectID, q)
}

// UpdateCustomEventSchema implements project.SettingsStore.
func (s *Store) UpdateCustomEventSchema(ctx context.Context, c *project.CustomEventSchema) error {
	return eventSchemas.update(ctx, s.db, c)
}

// DeleteCustomEventSchema implements project.SettingsStore.
func (s *Store) DeleteCustomEventSchema(ctx context.Context, projectID, id string) error {
	return eventSchemas.delete(ctx, s.db, projectID, id)
}

// InsertBranding implements project.SettingsStore.
func (s *Store) InsertBranding(ctx context.Context, b *project.Branding) error {
	return brandings.insert(ctx, s.db, b)
}

// GetBranding implements project.SettingsStore.
func (s *Store) GetBranding(ctx context.Context, projectID, id string) (*project.Branding, error) {
	return brandings.get(ctx, s.db, projectID, "id", id)
}

// ListBrandings implements project.SettingsStore.
func (s *Store) ListBrandings(ctx context.Context, projectID string, q promotype.Query) ([]*project.Branding, int, error) {
	return brandings.list(ctx, s.db, projectID, q)
}

// UpdateBranding implements project.SettingsStore.
func (s *Store) UpdateBranding(ctx context.Context, b *project.Branding) error {
	return brandings.update(ctx, s.db, b)
}

// DeleteBranding implements project.SettingsStore.
func (s *Store) DeleteBranding(ctx context.Context, projectID, id string) error {
	return brandings.delete(ctx, s.db, projectID, id)
}

// InsertCustomEvent implements project.SettingsStore.
func (s *Store) InsertCustomEvent(ctx context.Context, e *project.CustomEvent) error {
	return customEvents.insert(ctx, s.db, e)
}

// ListCustomEvents implements project.SettingsStore.
func (s *Store) ListCustomEvents(ctx context.Context, projectID string, q promotype.Query) ([]*project.CustomEvent, int, error) {
	return customEvents.list(ctx, s.db, projectID, q)
}

// DeleteProject implements project.Store, in the caller's transaction (or
// one of its own): under the project's token lock (no token of its keys
// can be issued meanwhile) the project row goes; its app keys go with one
// notification each on the credential channel (as DeleteAppKey sends);
// the management keys' grants are withdrawn; then every table with a
// project_id column (projectTables) loses the project's rows, referencing
// tables first and the list counters last. The deletes run in one
// transaction, bounded by the store's query and transaction deadlines: a
// project too big for them fails and changes nothing.
func (s *Store) DeleteProject(ctx context.Context, id string) error {
	notFound := func() error { return promotype.NotFound("project", id) }
	if !storable(id) {
		return notFound()
	}
	return s.inTx(ctx, func(ctx context.Context, db bun.IDB) error {
		if err := lockTokens(ctx, db, id); err != nil {
			return err
		}
		res, err := db.NewDelete().Table("promo_projects").Where("id = ?", id).Exec(ctx)
		if err != nil {
			return fail("delete project", err, nil)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound()
		}
		if _, err := countRows(ctx, db, `WITH k AS (
				DELETE FROM promo_app_keys WHERE project_id = ? RETURNING app_id
			), g AS (
				UPDATE promo_auth_generation SET gen = gen + 1 WHERE EXISTS (SELECT 1 FROM k) RETURNING gen
			)
			SELECT `+notifyPayload("'a', k.app_id")+` FROM g, k`, id); err != nil {
			return fail("delete project keys", err, nil)
		}
		if _, err := db.ExecContext(ctx, `UPDATE promo_management_keys SET project_ids = array_remove(project_ids, ?::text)
			WHERE ? = ANY(project_ids)`, id, id); err != nil {
			return fail("delete project grants", err, nil)
		}
		tables, err := projectTables(ctx, db)
		if err != nil {
			return err
		}
		for _, t := range tables {
			if _, err := db.ExecContext(ctx, "DELETE FROM ? WHERE project_id = ?", bun.Ident(t), id); err != nil {
				return fail("delete project rows of "+t, err, nil)
			}
		}
		return nil
	})
}

// memberRow is a project user (migration 0037).
type memberRow struct {
	bun.BaseModel `bun:"table:promo_project_users,alias:pu"`

	ProjectID string    `bun:"project_id,pk"`
	UserID    string    `bun:"user_id,pk"`
	Login     string    `bun:"login"`
	FirstName *string   `bun:"first_name"`
	LastName  *string   `bun:"last_name"`
	Role      string    `bun:"role"`
	CreatedAt time.Time `bun:"created_at"`
}

func (r *memberRow) domain() *project.Member {
	return &project.Member{ProjectID: r.ProjectID, UserID: r.UserID, Login: r.Login, FirstName: r.FirstName, LastName: r.LastName, Role: r.Role, CreatedAt: domainTime(r.CreatedAt)}
}

// members converts rows to domain values (never nil).
func members(rows []memberRow) []*project.Member {
	out := make([]*project.Member, len(rows))
	for i := range rows {
		out[i] = rows[i].domain()
	}
	return out
}

// InsertMembers implements project.UserStore.
func (s *Store) InsertMembers(ctx context.Context, ms []*project.Member) error {
	if len(ms) == 0 {
		return nil
	}
	rows := make([]memberRow, len(ms))
	for i, m := range ms {
		if err := checkText("user", str("project_id", m.ProjectID), str("id", m.UserID), str("login", m.Login),
			text{"first_name", m.FirstName}, text{"last_name", m.LastName}, str("role", m.Role)); err != nil {
			return err
		}
		rows[i] = memberRow{ProjectID: m.ProjectID, UserID: m.UserID, Login: m.Login, FirstName: m.FirstName, LastName: m.LastName, Role: m.Role, CreatedAt: sqlTime(m.CreatedAt)}
	}
	dup := func() error {
		return promotype.Duplicate("user", "Duplicated user exists with id %s in project %s", ms[0].UserID, ms[0].ProjectID)
	}
	// In a transaction of its own (or the caller's): a taken row undoes the others.
	return s.inTx(ctx, func(ctx context.Context, db bun.IDB) error {
		return insertAllNew(ctx, db, "insert project users", &rows, len(rows), dup)
	})
}

// FindMembers implements project.UserStore.
func (s *Store) FindMembers(ctx context.Context, projectIDs, keys []string) ([]*project.Member, error) {
	projectIDs, keys = storableList(projectIDs), storableList(keys)
	if len(projectIDs) == 0 || len(keys) == 0 {
		return []*project.Member{}, nil
	}
	var rows []memberRow
	err := s.db.NewSelect().Model(&rows).
		Where("project_id IN (?) AND (user_id IN (?) OR login IN (?))", bun.List(projectIDs), bun.List(keys), bun.List(keys)).
		OrderExpr("user_id, project_id").Scan(ctx)
	if err != nil {
		return nil, fail("find project users", err, nil)
	}
	return members(rows), nil
}

// ListMembers implements project.UserStore.
func (s *Store) ListMembers(ctx context.Context, projectID string) ([]*project.Member, error) {
	if !storable(projectID) {
		return []*project.Member{}, nil
	}
	var rows []memberRow
	if err := s.db.NewSelect().Model(&rows).Where("project_id = ?", projectID).OrderExpr("created_at, user_id").Scan(ctx); err != nil {
		return nil, fail("list project users", err, nil)
	}
	return members(rows), nil
}

// UpdateMemberRole implements project.UserStore.
func (s *Store) UpdateMemberRole(ctx context.Context, projectID, userID, role string) error {
	notFound := func() error { return promotype.NotFound("user", userID) }
	if !storableKeys(projectID, userID) {
		return notFound()
	}
	if err := checkText("user", str("role", role)); err != nil {
		return err
	}
	res, err := s.db.NewUpdate().Table("promo_project_users").Set("role = ?", role).
		Where("project_id = ? AND user_id = ?", projectID, userID).Exec(ctx)
	if err != nil {
		return fail("update project user", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}

// DeleteMember implements project.UserStore.
func (s *Store) DeleteMember(ctx context.Context, projectID, userID string) error {
	notFound := func() error { return promotype.NotFound("user", userID) }
	if !storableKeys(projectID, userID) {
		return notFound()
	}
	res, err := s.db.NewDelete().Table("promo_project_users").Where("project_id = ? AND user_id = ?", projectID, userID).Exec(ctx)
	if err != nil {
		return fail("delete project user", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}
