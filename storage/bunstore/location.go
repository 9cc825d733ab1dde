package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
)

type locationRow struct {
	bun.BaseModel `bun:"table:promo_locations,alias:l"`

	ProjectID string          `bun:"project_id,pk"`
	ID        string          `bun:"id,pk"`
	Name      string          `bun:"name"`
	Shape     json.RawMessage `bun:"shape"`
	CreatedAt time.Time       `bun:"created_at"`
	UpdatedAt *time.Time      `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *locationRow) listTotal() int { return r.Total }

var locationColumns = columns{
	"name":       {"name", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

func (r *locationRow) domain() (*location.Location, error) {
	l := &location.Location{
		ID:        r.ID,
		ProjectID: r.ProjectID,
		Name:      r.Name,
		CreatedAt: domainTime(r.CreatedAt),
		UpdatedAt: domainTimePtr(r.UpdatedAt),
	}
	if err := decodeJSON(r.Shape, &l.Shape); err != nil {
		return nil, err
	}
	return l, nil
}

func locationNotFound(id string) func() error {
	return func() error { return promotype.NotFound("location", id) }
}

// InsertLocation implements location.Store.
func (s *Store) InsertLocation(ctx context.Context, l *location.Location) error {
	if err := checkText("location", str("id", l.ID), str("project_id", l.ProjectID), str("name", l.Name)); err != nil {
		return err
	}
	shape, err := encodeJSON(l.Shape)
	if err != nil {
		return err
	}
	row := &locationRow{
		ProjectID: l.ProjectID,
		ID:        l.ID,
		Name:      l.Name,
		Shape:     shape,
		CreatedAt: sqlTime(l.CreatedAt),
		UpdatedAt: sqlTimePtr(l.UpdatedAt),
	}
	return insertNew(ctx, s.db, "insert location", row, func() error {
		return promotype.Duplicate("location", "Duplicated location exists with id %s", l.ID)
	})
}

// GetLocation implements location.Store.
func (s *Store) GetLocation(ctx context.Context, projectID, id string) (*location.Location, error) {
	return getByID[locationRow, *locationRow, *location.Location](ctx, s.db, "get location", "l", projectID, id, locationNotFound(id))
}

// ListLocations implements location.Store.
func (s *Store) ListLocations(ctx context.Context, projectID string, q promotype.Query) ([]*location.Location, int, error) {
	return listProject[locationRow, *locationRow, *location.Location](ctx, s.db, locationColumns, "l", "", projectID, q)
}

// DeleteLocation implements location.Store.
func (s *Store) DeleteLocation(ctx context.Context, projectID, id string) error {
	return deleteByID[locationRow](ctx, s.db, "delete location", "l", projectID, id, locationNotFound(id))
}
