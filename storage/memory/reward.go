package memory

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

func rewardField(r *campaign.Reward, name string) promotype.Value {
	switch name {
	case "name":
		return promotype.Value{Str: r.Name}
	case "type":
		return promotype.Value{Str: string(r.Type)}
	case "created_at":
		return tm(r.CreatedAt)
	case "updated_at":
		return tmPtr(r.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func rewardID(r *campaign.Reward) string { return r.ID }

// InsertReward implements campaign.Store.
func (s *Store) InsertReward(_ context.Context, r *campaign.Reward) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.rewards.get(r.ProjectID, r.ID); ok {
			return promotype.Duplicate("reward", "Duplicated reward exists with id %s", r.ID)
		}
		d.rewards.put(u, r.ProjectID, r.ID, r.Clone())
		return nil
	})
}

// UpdateReward implements campaign.Store.
func (s *Store) UpdateReward(_ context.Context, r *campaign.Reward) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.rewards.get(r.ProjectID, r.ID); !ok {
			return promotype.NotFound("reward", r.ID)
		}
		d.rewards.put(u, r.ProjectID, r.ID, r.Clone())
		return nil
	})
}

// GetReward implements campaign.Store.
func (s *Store) GetReward(_ context.Context, projectID, id string) (out *campaign.Reward, err error) {
	s.read(func(d *data) {
		r, ok := d.rewards.get(projectID, id)
		if !ok {
			err = promotype.NotFound("reward", id)
			return
		}
		out = r.Clone()
	})
	return out, err
}

// ListRewards implements campaign.Store.
func (s *Store) ListRewards(_ context.Context, projectID string, q promotype.Query) (out []*campaign.Reward, total int, err error) {
	s.read(func(d *data) {
		out, total = list(d.rewards.rows[projectID], q, rewardField, rewardID, nil, (*campaign.Reward).Clone)
	})
	return out, total, nil
}

// DeleteReward implements campaign.Store.
func (s *Store) DeleteReward(_ context.Context, projectID, id string) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.rewards.get(projectID, id); !ok {
			return promotype.NotFound("reward", id)
		}
		d.rewards.del(u, projectID, id)
		return nil
	})
}
