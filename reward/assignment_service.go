package reward

import (
	"context"
	"errors"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// AssignmentParams is the body of a reward assignment create (Campaign,
// Parameters) or update (Parameters only).
type AssignmentParams struct {
	Campaign        *string               `json:"campaign"`
	Parameters      *AssignmentParameters `json:"parameters"`
	ValidationRules []string              `json:"validation_rules"`
}

// maxPoints bounds the points of a reward: an integer a JSON number holds
// exactly (2^53 − 1), as loyalty balances.
const maxPoints = 1<<53 - 1

// maxAssignmentsScan bounds the assignments of a campaign that one create
// or update reads (the duplicate and auto-redeem checks).
const maxAssignmentsScan = 1 << 16

// CreateAssignment assigns reward rewardID to a campaign (by id or name).
// A LOYALTY_PROGRAM campaign needs parameters.loyalty.points (≥ 1), except
// for a COIN reward, which takes no parameters.loyalty (it pays with any
// points, at its own rate); a REFERRAL_PROGRAM campaign takes no points;
// other campaign types cannot
// offer rewards. A reward is assigned to a campaign once (409
// duplicate_found), and at most one reward of a campaign redeems by
// itself (auto_redeem).
func (s *Service) CreateAssignment(ctx context.Context, projectID, rewardID string, in AssignmentParams) (*Assignment, error) {
	if err := s.checkAssignment(in); err != nil {
		return nil, err
	}
	if in.Campaign == nil || *in.Campaign == "" {
		return nil, promotype.InvalidPayload("Payload must have required property 'campaign'")
	}
	var out *Assignment
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		r, err := st.GetReward(ctx, projectID, rewardID)
		if err != nil {
			return err
		}
		c, err := promotype.Resolve(ctx, "campaign", *in.Campaign, projectID, st.GetCampaign, st.FindCampaignByName)
		if err != nil {
			return err
		}
		a := &Assignment{ID: s.env.IDs.NewID(promotype.PrefixRewardAssignment), ProjectID: projectID, RewardID: rewardID,
			RelatedObjectID: c.ID, RelatedObjectType: "campaign", CreatedAt: s.env.Clock.Now()}
		if err := setParameters(a, in.Parameters, c.CampaignType, r.Type, true); err != nil {
			return err
		}
		existing, _, err := st.ListRewardAssignments(ctx, projectID, promotype.Query{Limit: maxAssignmentsScan, OrderBy: "created_at",
			Must: []promotype.Condition{{Field: "related_object_id", Op: promotype.OpIs, Values: []string{c.ID}}}})
		if err != nil {
			return err
		}
		if err := checkCampaignAssignments(a, existing); err != nil {
			return err
		}
		out = a
		return st.InsertRewardAssignment(ctx, a)
	})
	if err != nil {
		return nil, err
	}
	return out.Clone().normalize(), nil
}

// checkCampaignAssignments refuses a second assignment of a reward to one
// campaign and a second auto-redeemed reward in it.
func checkCampaignAssignments(a *Assignment, existing []*Assignment) error {
	for _, e := range existing {
		switch {
		case e.ID == a.ID:
		case e.RewardID == a.RewardID:
			return promotype.Duplicate("reward_assignment", "Duplicated reward_assignment exists with id %s", e.ID)
		case a.autoRedeem() && e.autoRedeem():
			return promotype.InvalidPayload("Property .parameters.loyalty.auto_redeem can be true for one reward of a campaign only (%s is)", e.ID)
		}
	}
	return nil
}

func (s *Service) checkAssignment(in AssignmentParams) error {
	if in.Parameters != nil && in.Parameters.Loyalty != nil {
		if p := in.Parameters.Loyalty.Points; p != nil && (*p < 1 || *p > maxPoints) {
			return promotype.InvalidPayload("Property .parameters.loyalty.points must be between 1 and %d", int64(maxPoints))
		}
	}
	if len(in.ValidationRules) > 0 {
		return promotype.InvalidPayload("Property .validation_rules of a reward assignment is not supported by this engine yet")
	}
	return nil
}

// setParameters copies the parameters given onto a, checked against the
// campaign's type and the reward's: a COIN reward takes no
// parameters.loyalty (the hosted service refuses them), a loyalty
// campaign's other rewards need their points.
func setParameters(a *Assignment, p *AssignmentParameters, ct campaign.CampaignType, rt Type, create bool) error {
	if rt == TypeCoin && p != nil && p.Loyalty != nil {
		return promotype.InvalidPayload("Property .parameters.loyalty is not allowed for a COIN reward: it pays with any points at its exchange ratio")
	}
	if p != nil && p.Loyalty != nil {
		if a.Parameters == nil {
			a.Parameters = &AssignmentParameters{}
		}
		if a.Parameters.Loyalty == nil {
			a.Parameters.Loyalty = &LoyaltyParameters{}
		}
		if p.Loyalty.Points != nil {
			a.Parameters.Loyalty.Points = promotype.ClonePtr(p.Loyalty.Points)
		}
		if p.Loyalty.AutoRedeem != nil {
			a.Parameters.Loyalty.AutoRedeem = promotype.ClonePtr(p.Loyalty.AutoRedeem)
		}
	}
	points := a.Parameters != nil && a.Parameters.Loyalty != nil && a.Parameters.Loyalty.Points != nil
	switch ct {
	case campaign.LoyaltyProgram:
		switch {
		case rt == TypeCoin || points:
		case p == nil:
			return promotype.InvalidPayload("Payload must have required property 'parameters'")
		case p.Loyalty == nil:
			return promotype.InvalidPayload("Property .parameters must have required property 'loyalty'")
		default:
			return promotype.InvalidPayload("Property .parameters.loyalty must have required property 'points'")
		}
	case campaign.ReferralProgram:
		if a.Parameters != nil && a.Parameters.Loyalty != nil {
			return promotype.InvalidPayload("Property .parameters.loyalty is allowed for a LOYALTY_PROGRAM campaign only")
		}
	default:
		if create {
			return promotype.InvalidPayload("Property .campaign must be a LOYALTY_PROGRAM or REFERRAL_PROGRAM campaign, not %s", ct)
		}
	}
	return nil
}

// GetAssignment returns an assignment of reward rewardID.
func (s *Service) GetAssignment(ctx context.Context, projectID, rewardID, id string) (*Assignment, error) {
	a, err := assignmentOf(ctx, s.store, projectID, rewardID, id)
	if err != nil {
		return nil, err
	}
	return a.normalize(), nil
}

// assignmentOf reads assignment id of reward rewardID: a missing reward is
// its 404, an assignment of another reward the assignment's.
func assignmentOf(ctx context.Context, st Store, projectID, rewardID, id string) (*Assignment, error) {
	if _, err := st.GetReward(ctx, projectID, rewardID); err != nil {
		return nil, err
	}
	a, err := st.GetRewardAssignment(ctx, projectID, id)
	if err == nil && a.RewardID != rewardID {
		err = promotype.NotFound("reward_assignment", id)
	}
	return a, err
}

// ListAssignments lists the assignments of reward rewardID.
func (s *Service) ListAssignments(ctx context.Context, projectID, rewardID string, params promotype.ListParams) (*promotype.List[*Assignment], error) {
	if _, err := s.store.GetReward(ctx, projectID, rewardID); err != nil {
		return nil, err
	}
	q, err := params.Query(AssignmentListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	q.Must = append(q.Must, promotype.Condition{Field: "reward_id", Op: promotype.OpIs, Values: []string{rewardID}})
	items, total, err := s.store.ListRewardAssignments(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, a := range items {
		a.normalize()
	}
	return promotype.NewList(items, total, q), nil
}

// UpdateAssignment changes the parameters of an assignment of reward
// rewardID (points, auto_redeem); its campaign cannot change.
func (s *Service) UpdateAssignment(ctx context.Context, projectID, rewardID, id string, in AssignmentParams) (*Assignment, error) {
	if in.Campaign != nil {
		return nil, promotype.InvalidPayload("Property .campaign cannot be changed: assign the reward to the campaign anew")
	}
	if err := s.checkAssignment(in); err != nil {
		return nil, err
	}
	var out *Assignment
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		a, err := assignmentOf(ctx, st, projectID, rewardID, id)
		if err != nil {
			return err
		}
		r, err := st.GetReward(ctx, projectID, rewardID)
		if err != nil {
			return err
		}
		c, err := st.GetCampaign(ctx, projectID, a.RelatedObjectID)
		ct := campaign.CampaignType("")
		switch {
		case err == nil:
			ct = c.CampaignType
		case !errors.Is(err, promotype.ErrNotFound):
			return err
		}
		if err := setParameters(a, in.Parameters, ct, r.Type, false); err != nil {
			return err
		}
		if a.autoRedeem() {
			existing, _, err := st.ListRewardAssignments(ctx, projectID, promotype.Query{Limit: maxAssignmentsScan, OrderBy: "created_at",
				Must: []promotype.Condition{{Field: "related_object_id", Op: promotype.OpIs, Values: []string{a.RelatedObjectID}}}})
			if err != nil {
				return err
			}
			if err := checkCampaignAssignments(a, existing); err != nil {
				return err
			}
		}
		a.UpdatedAt = s.env.Clock.Now().Ptr()
		out = a
		return st.UpdateRewardAssignment(ctx, a)
	})
	if err != nil {
		return nil, err
	}
	return out.Clone().normalize(), nil
}

// DeleteAssignment removes an assignment of reward rewardID.
func (s *Service) DeleteAssignment(ctx context.Context, projectID, rewardID, id string) error {
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		if _, err := assignmentOf(ctx, st, projectID, rewardID, id); err != nil {
			return err
		}
		return st.DeleteRewardAssignment(ctx, projectID, id)
	})
}

// ListForAssignment is the rewards list of GET /v1/rewards?assignment_id=:
// the reward that assignment assigns, as a one-item list (empty for an
// assignment that does not exist, as a filter matching nothing).
func (s *Service) ListForAssignment(ctx context.Context, projectID, assignmentID string, params promotype.ListParams) (*promotype.List[*Reward], error) {
	q, err := params.Query(ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items := []*Reward{}
	a, err := s.store.GetRewardAssignment(ctx, projectID, assignmentID)
	switch {
	case err == nil:
		r, err := s.store.GetReward(ctx, projectID, a.RewardID)
		if err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return nil, err
		}
		if r != nil {
			items = append(items, r.normalize())
		}
	case !errors.Is(err, promotype.ErrNotFound):
		return nil, err
	}
	total := len(items)
	if q.Offset >= total {
		items = items[:0]
	}
	return promotype.NewList(items, total, q), nil
}
