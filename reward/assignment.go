package reward

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Assignment is a reward offered in a campaign (object
// "reward_assignment"): in a loyalty campaign, for the points it costs.
type Assignment struct {
	ID                string                `json:"id"`
	RewardID          string                `json:"reward_id"`
	RelatedObjectID   string                `json:"related_object_id"`
	RelatedObjectType string                `json:"related_object_type"` // campaign
	Parameters        *AssignmentParameters `json:"parameters,omitempty"`
	CreatedAt         promotype.Time        `json:"created_at"`
	UpdatedAt         *promotype.Time       `json:"updated_at"`
	Object            string                `json:"object"`

	ProjectID string `json:"-"`
}

// AssignmentParameters is the cost of an assigned reward.
type AssignmentParameters struct {
	Loyalty *LoyaltyParameters `json:"loyalty,omitempty"`
}

// LoyaltyParameters is what a reward costs in a loyalty campaign: the
// points taken from the card, and whether it is redeemed by itself once
// the card holds them (at most one reward of a campaign).
type LoyaltyParameters struct {
	Points     *int64 `json:"points,omitempty"`
	AutoRedeem *bool  `json:"auto_redeem,omitempty"`
}

// Clone returns a deep copy.
func (a *Assignment) Clone() *Assignment {
	out := *a
	out.UpdatedAt = promotype.ClonePtr(a.UpdatedAt)
	if a.Parameters != nil {
		p := *a.Parameters
		if p.Loyalty != nil {
			l := LoyaltyParameters{Points: promotype.ClonePtr(p.Loyalty.Points), AutoRedeem: promotype.ClonePtr(p.Loyalty.AutoRedeem)}
			p.Loyalty = &l
		}
		out.Parameters = &p
	}
	return &out
}

func (a *Assignment) normalize() *Assignment {
	a.Object = "reward_assignment"
	return a
}

// autoRedeem reports whether the assignment redeems by itself.
func (a *Assignment) autoRedeem() bool {
	return a.Parameters != nil && a.Parameters.Loyalty != nil && a.Parameters.Loyalty.AutoRedeem != nil && *a.Parameters.Loyalty.AutoRedeem
}

// Field returns the value of a filterable field of an assignment.
func (a *Assignment) Field(name string) promotype.Value {
	switch name {
	case "reward_id":
		return promotype.Value{Str: a.RewardID}
	case "related_object_id":
		return promotype.Value{Str: a.RelatedObjectID}
	case "created_at":
		return promotype.Value{Time: a.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(a.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

// AssignmentListSpec is what GET /v1/rewards/{rewardId}/assignments accepts.
var AssignmentListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

// AssignmentStore is the storage port of reward assignments, scoped by
// project. Get returns promotype.NotFound for a missing one; Insert returns
// duplicate_found when the reward is assigned to the campaign already.
// Lists filter on reward_id and related_object_id (Query.Must). Returned
// values are the caller's own.
type AssignmentStore interface {
	InsertRewardAssignment(ctx context.Context, a *Assignment) error
	UpdateRewardAssignment(ctx context.Context, a *Assignment) error
	GetRewardAssignment(ctx context.Context, projectID, id string) (*Assignment, error)
	ListRewardAssignments(ctx context.Context, projectID string, q promotype.Query) ([]*Assignment, int, error)
	DeleteRewardAssignment(ctx context.Context, projectID, id string) error
}
