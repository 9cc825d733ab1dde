package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/uptrace/bun"
)

type rewardRow struct {
	bun.BaseModel `bun:"table:promo_rewards,alias:r"`

	ProjectID  string          `bun:"project_id,pk"`
	ID         string          `bun:"id,pk"`
	Name       string          `bun:"name"`
	Type       string          `bun:"type"`
	Stock      *int64          `bun:"stock"`
	Redeemed   *int64          `bun:"redeemed"`
	Metadata   json.RawMessage `bun:"metadata"`
	Attributes json.RawMessage `bun:"attributes"` // NULL for nil
	Parameters json.RawMessage `bun:"parameters"`
	CreatedAt  time.Time       `bun:"created_at"`
	UpdatedAt  *time.Time      `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *rewardRow) listTotal() int { return r.Total }

var rewardColumns = columns{
	"name":       {"name", promotype.FieldString},
	"type":       {"type", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

func newRewardRow(r *reward.Reward) (*rewardRow, error) {
	if err := checkText("reward", str("id", r.ID), str("project_id", r.ProjectID), str("name", r.Name), str("type", string(r.Type))); err != nil {
		return nil, err
	}
	meta, err := encodeMetadata(r.Metadata)
	if err != nil {
		return nil, err
	}
	var attrs json.RawMessage
	if r.Attributes != nil {
		if attrs, err = encodeJSON(r.Attributes); err != nil {
			return nil, err
		}
	}
	params, err := encodeJSON(r.Parameters)
	if err != nil {
		return nil, err
	}
	return &rewardRow{
		ProjectID:  r.ProjectID,
		ID:         r.ID,
		Name:       r.Name,
		Type:       string(r.Type),
		Stock:      promotype.ClonePtr(r.Stock),
		Redeemed:   promotype.ClonePtr(r.Redeemed),
		Metadata:   meta,
		Attributes: attrs,
		Parameters: params,
		CreatedAt:  sqlTime(r.CreatedAt),
		UpdatedAt:  sqlTimePtr(r.UpdatedAt),
	}, nil
}

func (r *rewardRow) domain() (*reward.Reward, error) {
	out := &reward.Reward{
		ID:        r.ID,
		ProjectID: r.ProjectID,
		Name:      r.Name,
		Type:      reward.Type(r.Type),
		Stock:     r.Stock,
		Redeemed:  r.Redeemed,
		CreatedAt: domainTime(r.CreatedAt),
		UpdatedAt: domainTimePtr(r.UpdatedAt),
	}
	var err error
	if out.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	if err := decodeJSON(r.Attributes, &out.Attributes); err != nil {
		return nil, err
	}
	if err := decodeJSON(r.Parameters, &out.Parameters); err != nil {
		return nil, err
	}
	return out, nil
}

func rewardNotFound(id string) func() error {
	return func() error { return promotype.NotFound("reward", id) }
}

// InsertReward implements reward.Store.
func (s *Store) InsertReward(ctx context.Context, r *reward.Reward) error {
	row, err := newRewardRow(r)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert reward", row, func() error {
		return promotype.Duplicate("reward", "Duplicated reward exists with id %s", r.ID)
	})
}

// UpdateReward implements reward.Store: it replaces every field of r.ID.
func (s *Store) UpdateReward(ctx context.Context, r *reward.Reward) error {
	row, err := newRewardRow(r)
	if err != nil {
		return rowErr(err, r.ProjectID, r.ID, rewardNotFound(r.ID))
	}
	return replaceRow(ctx, s.db, "update reward", row, rewardNotFound(r.ID))
}

// GetReward implements reward.Store.
func (s *Store) GetReward(ctx context.Context, projectID, id string) (*reward.Reward, error) {
	return getByID[rewardRow, *rewardRow, *reward.Reward](ctx, s.db, "get reward", "r", projectID, id, rewardNotFound(id))
}

// ListRewards implements reward.Store.
func (s *Store) ListRewards(ctx context.Context, projectID string, q promotype.Query) ([]*reward.Reward, int, error) {
	return listProject[rewardRow, *rewardRow, *reward.Reward](ctx, s.db, rewardColumns, "r", "", projectID, q)
}

// DeleteReward implements reward.Store.
func (s *Store) DeleteReward(ctx context.Context, projectID, id string) error {
	return deleteByID[rewardRow](ctx, s.db, "delete reward", "r", projectID, id, rewardNotFound(id))
}

type rewardAssignmentRow struct {
	bun.BaseModel `bun:"table:promo_reward_assignments,alias:ra"`

	ProjectID       string          `bun:"project_id,pk"`
	ID              string          `bun:"id,pk"`
	RewardID        string          `bun:"reward_id"`
	RelatedObjectID string          `bun:"related_object_id"`
	Parameters      json.RawMessage `bun:"parameters"` // NULL for nil
	CreatedAt       time.Time       `bun:"created_at"`
	UpdatedAt       *time.Time      `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *rewardAssignmentRow) listTotal() int { return r.Total }

var rewardAssignmentColumns = columns{
	"reward_id":         {"reward_id", promotype.FieldString},
	"related_object_id": {"related_object_id", promotype.FieldString},
	"created_at":        {"created_at", promotype.FieldTime},
	"updated_at":        {"updated_at", promotype.FieldTime},
}

func newRewardAssignmentRow(a *reward.Assignment) (*rewardAssignmentRow, error) {
	if err := checkText("reward_assignment", str("id", a.ID), str("project_id", a.ProjectID), str("reward_id", a.RewardID),
		str("related_object_id", a.RelatedObjectID)); err != nil {
		return nil, err
	}
	var params json.RawMessage
	if a.Parameters != nil {
		var err error
		if params, err = encodeJSON(a.Parameters); err != nil {
			return nil, err
		}
	}
	return &rewardAssignmentRow{ProjectID: a.ProjectID, ID: a.ID, RewardID: a.RewardID, RelatedObjectID: a.RelatedObjectID,
		Parameters: params, CreatedAt: sqlTime(a.CreatedAt), UpdatedAt: sqlTimePtr(a.UpdatedAt)}, nil
}

func (r *rewardAssignmentRow) domain() (*reward.Assignment, error) {
	out := &reward.Assignment{ID: r.ID, ProjectID: r.ProjectID, RewardID: r.RewardID, RelatedObjectID: r.RelatedObjectID,
		RelatedObjectType: "campaign", CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt)}
	if r.Parameters != nil {
		out.Parameters = &reward.AssignmentParameters{}
		if err := decodeJSON(r.Parameters, out.Parameters); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func rewardAssignmentNotFound(id string) func() error {
	return func() error { return promotype.NotFound("reward_assignment", id) }
}

// InsertRewardAssignment implements reward.Store.
func (s *Store) InsertRewardAssignment(ctx context.Context, a *reward.Assignment) error {
	row, err := newRewardAssignmentRow(a)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert reward assignment", row, func() error {
		return promotype.Duplicate("reward_assignment", "Duplicated reward_assignment exists for reward %s and campaign %s", a.RewardID, a.RelatedObjectID)
	})
}

// UpdateRewardAssignment implements reward.Store: it replaces every field of a.ID.
func (s *Store) UpdateRewardAssignment(ctx context.Context, a *reward.Assignment) error {
	row, err := newRewardAssignmentRow(a)
	if err != nil {
		return rowErr(err, a.ProjectID, a.ID, rewardAssignmentNotFound(a.ID))
	}
	return replaceRow(ctx, s.db, "update reward assignment", row, rewardAssignmentNotFound(a.ID))
}

// GetRewardAssignment implements reward.Store.
func (s *Store) GetRewardAssignment(ctx context.Context, projectID, id string) (*reward.Assignment, error) {
	return getByID[rewardAssignmentRow, *rewardAssignmentRow, *reward.Assignment](ctx, s.db, "get reward assignment", "ra", projectID, id, rewardAssignmentNotFound(id))
}

// ListRewardAssignments implements reward.Store.
func (s *Store) ListRewardAssignments(ctx context.Context, projectID string, q promotype.Query) ([]*reward.Assignment, int, error) {
	return listProject[rewardAssignmentRow, *rewardAssignmentRow, *reward.Assignment](ctx, s.db, rewardAssignmentColumns, "ra", "", projectID, q)
}

// DeleteRewardAssignment implements reward.Store.
func (s *Store) DeleteRewardAssignment(ctx context.Context, projectID, id string) error {
	return deleteByID[rewardAssignmentRow](ctx, s.db, "delete reward assignment", "ra", projectID, id, rewardAssignmentNotFound(id))
}
