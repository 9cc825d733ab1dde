package loyalty

import (
	"context"
	"errors"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// RewardAssignmentParams is one reward of POST
// /v1/loyalties/{campaignId}/rewards: the reward and what it costs.
type RewardAssignmentParams struct {
	Reward     string                       `json:"reward"`
	Parameters *reward.AssignmentParameters `json:"parameters"`
}

// AssignRewards offers rewards in the program ref, each for the points
// its parameters name, and returns the assignments in order.
func (s *Service) AssignRewards(ctx context.Context, projectID, ref string, in []RewardAssignmentParams) ([]*reward.Assignment, error) {
	if len(in) == 0 {
		return nil, promotype.InvalidPayload("Payload must be a non-empty array of rewards")
	}
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	out := make([]*reward.Assignment, 0, len(in))
	for _, p := range in {
		if p.Reward == "" {
			return nil, promotype.InvalidPayload("Property .reward is required")
		}
		a, err := s.deps.Rewards.CreateAssignment(ctx, projectID, p.Reward, reward.AssignmentParams{Campaign: &c.ID, Parameters: p.Parameters})
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// ProgramRewards lists the reward assignments of the program ref.
func (s *Service) ProgramRewards(ctx context.Context, projectID, ref string, p promotype.ListParams) (*promotype.List[*reward.Assignment], error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	q, err := p.Query(reward.AssignmentListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	q.Must = append(q.Must, is("related_object_id", c.ID))
	items, total, err := s.store.ListRewardAssignments(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, a := range items {
		a.Object = "reward_assignment"
	}
	return promotype.NewList(items, total, q), nil
}

// RewardAssignment returns the assignment id of the program ref.
func (s *Service) RewardAssignment(ctx context.Context, projectID, ref, id string) (*reward.Assignment, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	a, err := s.store.GetRewardAssignment(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	if a.RelatedObjectID != c.ID {
		return nil, promotype.NotFound("reward_assignment", id)
	}
	a.Object = "reward_assignment"
	return a, nil
}

// AssignedReward returns the reward of the assignment id of the program
// ref.
func (s *Service) AssignedReward(ctx context.Context, projectID, ref, id string) (*reward.Reward, error) {
	a, err := s.RewardAssignment(ctx, projectID, ref, id)
	if err != nil {
		return nil, err
	}
	return s.deps.Rewards.Get(ctx, projectID, a.RewardID)
}

// UpdateRewardAssignment changes the cost of the assignment id of the
// program ref.
func (s *Service) UpdateRewardAssignment(ctx context.Context, projectID, ref, id string, in reward.AssignmentParams) (*reward.Assignment, error) {
	a, err := s.RewardAssignment(ctx, projectID, ref, id)
	if err != nil {
		return nil, err
	}
	return s.deps.Rewards.UpdateAssignment(ctx, projectID, a.RewardID, a.ID, reward.AssignmentParams{Parameters: in.Parameters})
}

// DeleteRewardAssignment withdraws the assignment id of the program ref.
func (s *Service) DeleteRewardAssignment(ctx context.Context, projectID, ref, id string) error {
	a, err := s.RewardAssignment(ctx, projectID, ref, id)
	if err != nil {
		return err
	}
	return s.deps.Rewards.DeleteAssignment(ctx, projectID, a.RewardID, a.ID)
}

// MemberReward is one reward a member can buy (object "loyalty_reward").
type MemberReward struct {
	Reward     *reward.Reward     `json:"reward"`
	Assignment *reward.Assignment `json:"assignment"`
	Object     string             `json:"object"`
}

// MemberRewards lists the rewards of the program of the card member (code
// or id), only those its balance affords with affordableOnly.
func (s *Service) MemberRewards(ctx context.Context, projectID, member string, affordableOnly bool) (*promotype.List[*MemberReward], error) {
	card, err := s.card(ctx, projectID, "", member)
	if err != nil {
		return nil, err
	}
	q := promotype.Query{Limit: 100, OrderBy: "created_at", Must: []promotype.Condition{is("related_object_id", deref(card.CampaignID))}}
	as, _, err := s.store.ListRewardAssignments(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	out := []*MemberReward{}
	for _, a := range as {
		if affordableOnly && (card.LoyaltyCard == nil || assignmentCost(a) > card.LoyaltyCard.Balance) {
			continue
		}
		rw, err := s.deps.Rewards.Get(ctx, projectID, a.RewardID)
		if errors.Is(err, promotype.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		a.Object = "reward_assignment"
		out = append(out, &MemberReward{Reward: rw, Assignment: a, Object: "loyalty_reward"})
	}
	return promotype.NewList(out, len(out), promotype.Query{Limit: len(out) + 1}), nil
}

// assignmentCost is the points an assignment costs (0: none named).
func assignmentCost(a *reward.Assignment) int64 {
	if a.Parameters == nil || a.Parameters.Loyalty == nil || a.Parameters.Loyalty.Points == nil {
		return 0
	}
	return *a.Parameters.Loyalty.Points
}

// RedeemRewardParams is the body of POST /v1/loyalties/{campaignId}/
// members/{memberId}/redemption: the reward to buy with the card's points
// (points: how many to pay with, for a COIN reward), and, for a COIN
// reward, the order they pay for.
type RedeemRewardParams struct {
	Reward   *redemption.RewardParams `json:"reward"`
	Order    *order.Params            `json:"order"`
	Metadata promotype.Metadata       `json:"metadata"`
}

// RedeemReward buys a reward with the points of the card member of the
// program ref ("" for any program): a redemption of the card, answered as
// the redemption (the points it cost, the card after, and what the reward
// gave). A reward that is not assigned to the card's program is 404
// reward_assignment; more points than the balance 400
// loyalty_card_points_exceeded; a MATERIAL reward out of stock 400. A
// rollback of the redemption gives the points back.
func (s *Service) RedeemReward(ctx context.Context, projectID, ref, member string, in RedeemRewardParams, opt redemption.RedeemOptions) (*redemption.Redemption, error) {
	if in.Reward == nil || in.Reward.ID == "" {
		return nil, promotype.BadRequest("missing_reward", "Missing reward", "A reward is required when redeeming a LOYALTY_CARD")
	}
	card, err := s.memberCard(ctx, projectID, ref, member)
	if err != nil {
		return nil, err
	}
	if card.HolderID == nil {
		return nil, promotype.BadRequest("invalid_customer", "Invalid customer", "Customer must be a holder of a loyalty card.")
	}
	p := redemption.LegacyRedeemParams{Customer: &customer.Params{ID: card.HolderID}, Reward: in.Reward, Order: in.Order, Metadata: in.Metadata}
	return s.deps.Redemptions.RedeemVoucher(ctx, projectID, card.Code, p, opt)
}

// GiveReward is the redemption.RewardEffect of loyalty rewards: in st's
// transaction it gives the reward row paid for with card's points. A
// MATERIAL reward takes a unit of its stock (400 when none is left); a
// CAMPAIGN reward publishes a coupon of its campaign to the card's holder,
// or credits the holder's gift card or loyalty card of its campaign with
// its balance (publishing one when they hold none). A COIN reward, an
// order discount, gives nothing more. A reward given is a customer.rewarded
// event (and activity of the holder).
func (s *Service) GiveReward(ctx context.Context, st ServiceStore, row *redemption.Redemption, card *voucher.Voucher) error {
	given, err := s.giveReward(ctx, st, row, card)
	if !given || err != nil {
		return err
	}
	holder := deref(card.HolderID)
	ev, err := promotype.NewEvent(s.env, card.ProjectID, customer.ActivityRewarded, card.ID, map[string]any{
		"customer": map[string]any{"id": holder, "object": "customer"}, "holder": map[string]any{"id": holder, "object": "customer"},
		"voucher": card, "reward": row.Reward, "redemption": map[string]any{"id": row.ID, "object": row.Object},
		"balance": rewardBalance(card, row.Ledger.Spend.Points)})
	if err != nil {
		return err
	}
	return st.AppendEvents(ctx, ev.For(holder, customer.ActivityRewarded).InCampaign(deref(card.CampaignID), string(campaign.LoyaltyProgram)))
}

// giveReward gives what GiveReward gives, without its event, and
// reports whether it gave something (a COIN reward gives nothing more).
func (s *Service) giveReward(ctx context.Context, st ServiceStore, row *redemption.Redemption, card *voucher.Voucher) (bool, error) {
	rw, err := st.GetReward(ctx, card.ProjectID, row.Reward.ID)
	if err != nil {
		return false, err
	}
	if rw.Type == reward.TypeCoin {
		return false, nil
	}
	row.Reward.Name, row.Reward.Type = rw.Name, string(rw.Type) // the assignment: the redemption's resolver named it
	switch {
	case rw.Type == reward.TypeMaterial:
		ok, err := st.TakeRewardStock(ctx, card.ProjectID, rw.ID)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, promotype.InvalidPayload("Reward is out of stock")
		}
		if p := rw.Parameters.Product; p != nil {
			row.Reward.Product = &redemption.RewardProduct{ID: p.ID, SKUID: promotype.ClonePtr(p.SKUID)}
		}
		return true, nil
	case rw.Parameters.Campaign != nil:
		v, err := s.giveFromCampaign(ctx, st, card.ProjectID, rw.Parameters.Campaign, deref(card.HolderID))
		row.Reward.Voucher = v
		return err == nil, err
	}
	return true, nil
}

// giveFromCampaign gives customerID what a CAMPAIGN reward gives: a coupon
// of the campaign, or its balance on their gift card or loyalty card of
// it (one published to them when they hold none). It returns that
// voucher, presented, as the change left it.
func (s *Service) giveFromCampaign(ctx context.Context, st ServiceStore, projectID string, p *reward.CampaignParams, customerID string) (*voucher.Voucher, error) {
	c, err := st.GetCampaign(ctx, projectID, p.ID)
	if err != nil {
		return nil, err
	}
	publish := func(joinOnce bool) (*voucher.Voucher, error) {
		pub, err := s.deps.Publications.Publish(ctx, st, projectID, publication.CreateParams{Customer: &customer.Params{ID: &customerID},
			Campaign: &publication.CampaignRef{ID: &c.ID}, JoinOnce: joinOnce, Generate: true})
		if err != nil {
			return nil, err
		}
		return st.GetVoucher(ctx, projectID, pub.VouchersID[0])
	}
	if c.CampaignType == campaign.DiscountCoupons {
		v, err := publish(false)
		if err != nil {
			return nil, err
		}
		return s.deps.Vouchers.Present(ctx, st, v)
	}
	held, _, err := st.ListVouchers(ctx, projectID, promotype.Query{Limit: 1, OrderBy: "created_at",
		Must: []promotype.Condition{is("campaign_id", c.ID), is("holder_id", customerID)}})
	if err != nil {
		return nil, err
	}
	var v *voucher.Voucher
	if len(held) > 0 {
		v = held[0]
	} else if v, err = publish(true); err != nil {
		return nil, err
	}
	if p.Balance == nil || *p.Balance <= 0 {
		return s.deps.Vouchers.Present(ctx, st, v)
	}
	shown, _, err := s.deps.Redemptions.Move(ctx, st, projectID, v.ID, redemption.Movement{Amount: *p.Balance,
		Source: promotype.Ptr(redemption.SourceAutomation), Operation: redemption.OperationAutomatic})
	return shown, err
}

// rewardBalance is the balance a reward's event shows: card's after the
// points it cost.
func rewardBalance(card *voucher.Voucher, cost int64) *redemption.Balance {
	b := redemption.CardBalance(card)
	b.Points = promotype.Ptr(-cost)
	return b
}
