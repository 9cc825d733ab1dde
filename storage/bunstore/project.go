package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

type projectRow struct {
	bun.BaseModel `bun:"table:promo_projects,alias:p"`

	ID        string    `bun:"id,pk"`
	Name      string    `bun:"name"`
	TimeZone  string    `bun:"time_zone"`
	CreatedAt time.Time `bun:"created_at"`
	// WebhookToken signs the project's webhook deliveries (migration 0009).
	WebhookToken string `bun:"webhook_token"`
}

func (r *projectRow) domain() *project.Project {
	return &project.Project{ID: r.ID, Name: r.Name, TimeZone: r.TimeZone, CreatedAt: domainTime(r.CreatedAt), WebhookToken: r.WebhookToken}
}

// InsertProject implements project.Store.
func (s *Store) InsertProject(ctx context.Context, p *project.Project) error {
	if err := checkText("project", str("id", p.ID), str("name", p.Name), str("timezone", p.TimeZone), str("webhook_token", p.WebhookToken)); err != nil {
		return err
	}
	row := &projectRow{ID: p.ID, Name: p.Name, TimeZone: p.TimeZone, CreatedAt: sqlTime(p.CreatedAt), WebhookToken: p.WebhookToken}
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
