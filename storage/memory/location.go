package memory

import (
	"context"

	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/promotype"
)

func locationField(l *location.Location, name string) promotype.Value {
	switch name {
	case "name":
		return promotype.Value{Str: l.Name}
	case "created_at":
		return tm(l.CreatedAt)
	case "updated_at":
		return tmPtr(l.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func locationID(l *location.Location) string { return l.ID }

// InsertLocation implements location.Store.
func (s *Store) InsertLocation(ctx context.Context, l *location.Location) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.locations, u, l.ProjectID, l.ID, "location", l.Clone())
	})
}

// GetLocation implements location.Store.
func (s *Store) GetLocation(ctx context.Context, projectID, id string) (out *location.Location, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.locations, projectID, id, "location", (*location.Location).Clone)
	})
	return out, err
}

// ListLocations implements location.Store.
func (s *Store) ListLocations(ctx context.Context, projectID string, q promotype.Query) (out []*location.Location, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.locations.rows[projectID], q, locationField, locationID, nil, (*location.Location).Clone)
	})
	return out, total, nil
}

// DeleteLocation implements location.Store.
func (s *Store) DeleteLocation(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.locations, u, projectID, id, "location") })
}
