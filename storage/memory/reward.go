package memory

import (
	"context"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
)

func rewardField(r *reward.Reward, name string) promotype.Value {
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

func rewardID(r *reward.Reward) string { return r.ID }

// InsertReward implements reward.Store.
func (s *Store) InsertReward(ctx context.Context, r *reward.Reward) error {
	return s.write(ctx, func(d *data, u *undo) error { return insertNew(&d.rewards, u, r.ProjectID, r.ID, "reward", r.Clone()) })
}

// UpdateReward implements reward.Store.
func (s *Store) UpdateReward(ctx context.Context, r *reward.Reward) error {
	return s.write(ctx, func(d *data, u *undo) error { return replace(&d.rewards, u, r.ProjectID, r.ID, "reward", r.Clone()) })
}

// GetReward implements reward.Store.
func (s *Store) GetReward(ctx context.Context, projectID, id string) (out *reward.Reward, err error) {
	s.read(ctx, func(d *data) { out, err = getClone(&d.rewards, projectID, id, "reward", (*reward.Reward).Clone) })
	return out, err
}

// ListRewards implements reward.Store.
func (s *Store) ListRewards(ctx context.Context, projectID string, q promotype.Query) (out []*reward.Reward, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.rewards.rows[projectID], q, rewardField, rewardID, nil, (*reward.Reward).Clone)
	})
	return out, total, nil
}

// DeleteReward implements reward.Store.
func (s *Store) DeleteReward(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.rewards, u, projectID, id, "reward") })
}
