package memory

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

func asyncField(a *async.Action, name string) promotype.Value { return a.Field(name) }
func asyncID(a *async.Action) string                          { return a.ID }

// InsertAsyncAction implements async.Store.
func (s *Store) InsertAsyncAction(ctx context.Context, a *async.Action) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c := a.Clone()
		d.campaigns.actionSeq++
		c.Seq = d.campaigns.actionSeq
		return insertNew(&d.campaigns.actions, u, a.ProjectID, a.ID, "async_action", c)
	})
}

// GetAsyncAction implements async.Store.
func (s *Store) GetAsyncAction(ctx context.Context, projectID, id string) (out *async.Action, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.campaigns.actions, projectID, id, "async_action", (*async.Action).Clone)
	})
	return out, err
}

// ListAsyncActions implements async.Store.
func (s *Store) ListAsyncActions(ctx context.Context, projectID string, q promotype.Query) (out []*async.Action, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.campaigns.actions.rows[projectID], q, asyncField, asyncID, nil, (*async.Action).Clone)
	})
	return out, total, nil
}

// claimable reports whether a runner may take a at now.
func claimable(a *async.Action, now promotype.Time) bool {
	switch a.Status {
	case async.StatusEnqueued:
		return true
	case async.StatusInProgress:
		return a.LeaseUntil == nil || a.LeaseUntil.Before(now.Time)
	}
	return false
}

// waiting reports whether a waits for an action of its project with the
// same serial key enqueued before it (a lower Seq) that has not ended.
func waiting(d *data, a *async.Action) bool {
	if a.SerialKey == "" {
		return false
	}
	for _, b := range d.campaigns.actions.rows[a.ProjectID] {
		if b.SerialKey == a.SerialKey && b.Seq < a.Seq && !b.Ended() {
			return true
		}
	}
	return false
}

// ClaimAsyncAction implements async.Store. The store's lock makes
// the claim atomic.
func (s *Store) ClaimAsyncAction(ctx context.Context, owner string, now, until promotype.Time) (out *async.Action, err error) {
	oldest := func(d *data) *async.Action {
		var best *async.Action
		for _, rows := range d.campaigns.actions.rows {
			for _, a := range rows {
				if !claimable(a, now) {
					continue
				}
				if best == nil || a.CreatedAt.Before(best.CreatedAt.Time) || (a.CreatedAt.Equal(best.CreatedAt) && a.ID < best.ID) {
					if !waiting(d, a) {
						best = a
					}
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
		c.Status = async.StatusInProgress
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

// LockAsyncAction implements async.Store: inside a transaction the
// store's lock keeps the lease as it is until the end.
func (s *Store) LockAsyncAction(ctx context.Context, projectID, id, owner string) (out *async.Action, err error) {
	s.read(ctx, func(d *data) {
		a, ok := d.campaigns.actions.get(projectID, id)
		switch {
		case !ok:
			err = promotype.NotFound("async_action", id)
		case a.Status != async.StatusInProgress || a.LeaseOwner != owner:
			err = async.ErrLeaseLost
		default:
			out = a.Clone()
		}
	})
	return out, err
}

// UpdateAsyncAction implements async.Store.
func (s *Store) UpdateAsyncAction(ctx context.Context, a *async.Action) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.campaigns.actions.get(a.ProjectID, a.ID); !ok {
			return promotype.NotFound("async_action", a.ID)
		}
		d.campaigns.actions.put(u, a.ProjectID, a.ID, a.Clone())
		return nil
	})
}
