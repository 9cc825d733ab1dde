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

func rewardAssignmentID(a *reward.Assignment) string { return a.ID }

// InsertRewardAssignment implements reward.Store.
func (s *Store) InsertRewardAssignment(ctx context.Context, a *reward.Assignment) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, e := range d.rewardAsgs.rows[a.ProjectID] {
			if e.RewardID == a.RewardID && e.RelatedObjectID == a.RelatedObjectID {
				return promotype.Duplicate("reward_assignment", "Duplicated reward_assignment exists with id %s", e.ID)
			}
		}
		return insertNew(&d.rewardAsgs, u, a.ProjectID, a.ID, "reward_assignment", a.Clone())
	})
}

// UpdateRewardAssignment implements reward.Store.
func (s *Store) UpdateRewardAssignment(ctx context.Context, a *reward.Assignment) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.rewardAsgs, u, a.ProjectID, a.ID, "reward_assignment", a.Clone())
	})
}

// GetRewardAssignment implements reward.Store.
func (s *Store) GetRewardAssignment(ctx context.Context, projectID, id string) (out *reward.Assignment, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.rewardAsgs, projectID, id, "reward_assignment", (*reward.Assignment).Clone)
	})
	return out, err
}

// ListRewardAssignments implements reward.Store.
func (s *Store) ListRewardAssignments(ctx context.Context, projectID string, q promotype.Query) (out []*reward.Assignment, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.rewardAsgs.rows[projectID], q, (*reward.Assignment).Field, rewardAssignmentID, nil, (*reward.Assignment).Clone)
	})
	return out, total, nil
}

// DeleteRewardAssignment implements reward.Store.
func (s *Store) DeleteRewardAssignment(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.rewardAsgs, u, projectID, id, "reward_assignment") })
}
