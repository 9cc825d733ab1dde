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
	return s.write(func(d *data, u *undo) error { return insertNew(&d.rewards, u, r.ProjectID, r.ID, "reward", r.Clone()) })
}

// UpdateReward implements campaign.Store.
func (s *Store) UpdateReward(_ context.Context, r *campaign.Reward) error {
	return s.write(func(d *data, u *undo) error { return replace(&d.rewards, u, r.ProjectID, r.ID, "reward", r.Clone()) })
}

// GetReward implements campaign.Store.
func (s *Store) GetReward(_ context.Context, projectID, id string) (out *campaign.Reward, err error) {
	s.read(func(d *data) { out, err = getClone(&d.rewards, projectID, id, "reward", (*campaign.Reward).Clone) })
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
	return s.write(func(d *data, u *undo) error { return remove(&d.rewards, u, projectID, id, "reward") })
}
