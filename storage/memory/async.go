package memory

import (
	"context"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

func asyncField(a *project.AsyncAction, name string) promotype.Value { return a.Field(name) }
func asyncID(a *project.AsyncAction) string                          { return a.ID }

// InsertAsyncAction implements project.AsyncStore.
func (s *Store) InsertAsyncAction(ctx context.Context, a *project.AsyncAction) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.campaigns.actions.get(a.ProjectID, a.ID); ok {
			return promotype.Duplicate("async_action", "Duplicated async_action exists with id %s", a.ID)
		}
		d.campaigns.actions.put(u, a.ProjectID, a.ID, a.Clone())
		return nil
	})
}

// GetAsyncAction implements project.AsyncStore.
func (s *Store) GetAsyncAction(ctx context.Context, projectID, id string) (out *project.AsyncAction, err error) {
	s.read(ctx, func(d *data) {
		a, ok := d.campaigns.actions.get(projectID, id)
		if !ok {
			err = promotype.NotFound("async_action", id)
			return
		}
		out = a.Clone()
	})
	return out, err
}

// ListAsyncActions implements project.AsyncStore.
func (s *Store) ListAsyncActions(ctx context.Context, projectID string, q promotype.Query) (out []*project.AsyncAction, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.campaigns.actions.rows[projectID], q, asyncField, asyncID, nil, (*project.AsyncAction).Clone)
	})
	return out, total, nil
}

// claimable reports whether a runner may take a at now.
func claimable(a *project.AsyncAction, now promotype.Time) bool {
	switch a.Status {
	case project.AsyncEnqueued:
		return true
	case project.AsyncInProgress:
		return a.LeaseUntil == nil || a.LeaseUntil.Before(now.Time)
	}
	return false
}

// ClaimAsyncAction implements project.AsyncStore. The store's lock makes
// the claim atomic.
func (s *Store) ClaimAsyncAction(ctx context.Context, owner string, now, until promotype.Time) (out *project.AsyncAction, err error) {
	oldest := func(d *data) *project.AsyncAction {
		var best *project.AsyncAction
		for _, rows := range d.campaigns.actions.rows {
			for _, a := range rows {
				if !claimable(a, now) {
					continue
				}
				if best == nil || a.CreatedAt.Before(best.CreatedAt.Time) || (a.CreatedAt.Equal(best.CreatedAt) && a.ID < best.ID) {
					best = a
				}
			}
		}
		return best
	}
	// Idle runners poll: look under the shared lock first.
	var found bool
	s.read(ctx, func(d *data) { found = oldest(d) != nil })
	if !found {
		return nil, nil
	}
	err = s.write(ctx, func(d *data, u *undo) error {
		best := oldest(d)
		if best == nil {
			return nil
		}
		c := best.Clone()
		c.Status = project.AsyncInProgress
		c.LeaseOwner = owner
		c.LeaseUntil = until.Ptr()
		c.Attempts++
		if c.StartedAt == nil {
			c.StartedAt = now.Ptr()
		}
		c.UpdatedAt = now.Ptr()
		d.campaigns.actions.put(u, c.ProjectID, c.ID, c)
		out = c.Clone()
		return nil
	})
	return out, err
}

// LockAsyncAction implements project.AsyncStore: inside a transaction the
// store's lock keeps the lease as it is until the end.
func (s *Store) LockAsyncAction(ctx context.Context, projectID, id, owner string) (out *project.AsyncAction, err error) {
	s.read(ctx, func(d *data) {
		a, ok := d.campaigns.actions.get(projectID, id)
		switch {
		case !ok:
			err = promotype.NotFound("async_action", id)
		case a.Status != project.AsyncInProgress || a.LeaseOwner != owner:
			err = project.ErrLeaseLost
		default:
			out = a.Clone()
		}
	})
	return out, err
}

// UpdateAsyncAction implements project.AsyncStore.
func (s *Store) UpdateAsyncAction(ctx context.Context, a *project.AsyncAction) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.campaigns.actions.get(a.ProjectID, a.ID); !ok {
			return promotype.NotFound("async_action", a.ID)
		}
		d.campaigns.actions.put(u, a.ProjectID, a.ID, a.Clone())
		return nil
	})
}
