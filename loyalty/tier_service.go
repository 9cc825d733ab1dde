package loyalty

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// TierParams is one tier of POST /v1/loyalties/{campaignId}/tiers (an
// array): its name, its range of balances, and what it makes of the
// program's earning rules (by rule id) and rewards (by assignment id).
type TierParams struct {
	Name         string             `json:"name"`
	Points       TierPoints         `json:"points"`
	EarningRules map[string]Mapping `json:"earning_rules"`
	Rewards      map[string]Mapping `json:"rewards"`
	Metadata     promotype.Metadata `json:"metadata"`
}

// maxTiers bounds the tiers of a program.
const maxTiers = 100

// TierListSpec is what tier lists accept.
var TierListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "created_at",
	Fields:       map[string]promotype.FieldKind{"created_at": promotype.FieldTime, "updated_at": promotype.FieldTime},
}

func (p *TierParams) check() error {
	if n := utf8.RuneCountInString(p.Name); n < 1 || n > maxBanner {
		return promotype.InvalidPayload("Property .name of a tier must have between 1 and %d characters", maxBanner)
	}
	from, to := p.Points.From, p.Points.To
	switch {
	case from != nil && (*from < 0 || *from > MaxPoints):
		return promotype.InvalidPayload("Property .points.from of a tier must be between 0 and %d", int64(MaxPoints))
	case to != nil && (*to < 0 || *to > MaxPoints):
		return promotype.InvalidPayload("Property .points.to of a tier must be between 0 and %d", int64(MaxPoints))
	case from != nil && to != nil && *to < *from:
		return promotype.InvalidPayload("Property .points.to of a tier must not be below its points.from")
	}
	for _, m := range []map[string]Mapping{p.EarningRules, p.Rewards} {
		for id, mp := range m {
			switch {
			case mp.Type == MappingMultiply && (mp.Multiplier == nil || !mp.Multiplier.IsPositive()):
				return promotype.InvalidPayload("The MULTIPLY mapping of %s needs a multiplier above 0", id)
			case mp.Type == MappingCustom && (mp.Points == nil || *mp.Points < 0 || *mp.Points > MaxPoints):
				return promotype.InvalidPayload("The CUSTOM mapping of %s needs points between 0 and %d", id, int64(MaxPoints))
			case mp.Type != MappingMultiply && mp.Type != MappingCustom:
				return promotype.InvalidPayload("The mapping of %s must be of type MULTIPLY or CUSTOM", id)
			}
		}
	}
	return nil
}

// CreateTiers adds tiers to the program ref, all or none, and returns them
// in order. A mapped earning rule must be one of the program's (404
// earning_rule), a mapped reward one of its reward assignments (404
// reward_assignment).
func (s *Service) CreateTiers(ctx context.Context, projectID, ref string, in []TierParams) ([]*Tier, error) {
	if len(in) == 0 || len(in) > maxTiers {
		return nil, promotype.InvalidPayload("Payload must be an array of 1 to %d tiers", maxTiers)
	}
	for i := range in {
		if err := in[i].check(); err != nil {
			return nil, err
		}
	}
	var out []*Tier
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		c, err := s.programIn(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		_, n, err := st.ListTiers(ctx, projectID, promotype.Query{Must: []promotype.Condition{is("campaign_id", c.ID)}})
		if err != nil {
			return err
		}
		if n+len(in) > maxTiers {
			return promotype.InvalidPayload("A program may have at most %d tiers", maxTiers)
		}
		now := s.env.Clock.Now()
		out = out[:0] // a transaction run again starts over
		for i, p := range in {
			if err := s.checkMapped(ctx, st, c, p); err != nil {
				return err
			}
			// Each tier is a microsecond after the one before it, so that
			// the list (by created_at) keeps the request's order.
			created := promotype.Time{Time: now.Add(time.Duration(i) * time.Microsecond)}
			t := &Tier{ID: s.env.IDs.NewID(PrefixTier), ProjectID: projectID, CampaignID: c.ID, Name: p.Name, Points: p.Points.clone(),
				EarningRules: cloneMappings(p.EarningRules), Rewards: cloneMappings(p.Rewards), Metadata: p.Metadata.Clone(), CreatedAt: created}
			out = append(out, t.normalize())
		}
		if err := st.InsertTiers(ctx, out...); err != nil {
			return err
		}
		for _, t := range out {
			if err := promotype.AppendEvent(ctx, st, s.env, projectID, "campaign.loyalty_tier.created", t.ID, map[string]any{"campaign": c, "loyalty_tier": t}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.rules.changed(projectID)
	if _, err := s.RecalculateTiers(ctx, projectID, out[0].CampaignID); err != nil {
		return nil, err
	}
	return out, nil
}

// checkMapped refuses a mapping of a rule or reward the program lacks.
func (s *Service) checkMapped(ctx context.Context, st ServiceStore, c *campaign.Campaign, p TierParams) error {
	for _, id := range slices.Sorted(maps.Keys(p.EarningRules)) {
		if _, err := ruleOf(ctx, st, c, id); err != nil {
			return err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.Rewards)) {
		a, err := st.GetRewardAssignment(ctx, c.ProjectID, id)
		if errors.Is(err, promotype.ErrNotFound) || (err == nil && a.RelatedObjectID != c.ID) {
			return promotype.NotFound("reward_assignment", id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Tiers lists the tiers of the program ref, lowest first unless p orders
// otherwise.
func (s *Service) Tiers(ctx context.Context, projectID, ref string, p promotype.ListParams) (*promotype.List[*Tier], error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	read := func(ctx context.Context, projectID string, q promotype.Query) ([]*Tier, int, error) {
		q.Must = append(q.Must, is("campaign_id", c.ID))
		return s.store.ListTiers(ctx, projectID, q)
	}
	return promotype.ListWith(ctx, read, projectID, p, TierListSpec, s.env.Clock.Now(), (*Tier).normalize)
}

// Tier returns the tier id of the program ref (404 loyalty_tier).
func (s *Service) Tier(ctx context.Context, projectID, ref, id string) (*Tier, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	t, err := s.store.GetTier(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	if t.CampaignID != c.ID {
		return nil, promotype.NotFound("loyalty_tier", id)
	}
	return t.normalize(), nil
}

// TierEarningRules lists the program's earning rules as the tier id makes
// them: each mapped rule with its points mapped (a ratio rule's ratio
// points).
func (s *Service) TierEarningRules(ctx context.Context, projectID, ref, id string, p promotype.ListParams) (*promotype.List[*EarningRule], error) {
	t, err := s.Tier(ctx, projectID, ref, id)
	if err != nil {
		return nil, err
	}
	l, err := s.ListEarningRules(ctx, projectID, ref, p)
	if err != nil {
		return nil, err
	}
	for _, r := range l.Data {
		if m, ok := t.EarningRules[r.ID]; ok {
			r.Loyalty.mapPoints(m)
		}
	}
	return l, nil
}

// mapPoints applies a tier's mapping to the points an earning shows.
func (e *Earning) mapPoints(m Mapping) {
	if e.Points != nil {
		p := Int(m.apply(int64(*e.Points)))
		e.Points = &p
	}
	if r := e.ratio(); r != nil {
		r.Points = Int(m.apply(int64(r.Points)))
	}
}

// TierReward is one reward of a tier (object "loyalty_tier_reward").
type TierReward struct {
	Reward     *reward.Reward     `json:"reward"`
	Assignment *reward.Assignment `json:"assignment"`
	Object     string             `json:"object"`
}

// TierRewards lists the rewards the tier id maps, with the cost it gives
// them.
func (s *Service) TierRewards(ctx context.Context, projectID, ref, id string) (*promotype.List[*TierReward], error) {
	t, err := s.Tier(ctx, projectID, ref, id)
	if err != nil {
		return nil, err
	}
	out := []*TierReward{}
	for _, aid := range slices.Sorted(maps.Keys(t.Rewards)) {
		a, err := s.store.GetRewardAssignment(ctx, projectID, aid)
		if errors.Is(err, promotype.ErrNotFound) {
			continue // withdrawn since
		}
		if err != nil {
			return nil, err
		}
		rw, err := s.deps.Rewards.Get(ctx, projectID, a.RewardID)
		if err != nil {
			return nil, err
		}
		if cost := assignmentCost(a); cost > 0 && a.Parameters != nil && a.Parameters.Loyalty != nil {
			mapped := t.Rewards[aid].apply(cost)
			a.Parameters.Loyalty.Points = &mapped
		}
		a.Object = "reward_assignment"
		out = append(out, &TierReward{Reward: rw, Assignment: a, Object: "loyalty_tier_reward"})
	}
	return promotype.NewList(out, len(out), promotype.Query{Limit: len(out) + 1}), nil
}

// MemberTiers lists the tier the card member holds (none or one), with
// its hold: since when, and until when (no end: as long as what qualifies
// for it stays in its range).
func (s *Service) MemberTiers(ctx context.Context, projectID, member string) (*promotype.List[*Tier], error) {
	card, err := s.card(ctx, projectID, "", member)
	if err != nil {
		return nil, err
	}
	out := []*Tier{}
	h, err := s.store.GetTierHold(ctx, projectID, card.ID)
	if err != nil {
		return nil, err
	}
	if h != nil {
		t, err := s.store.GetTier(ctx, projectID, h.TierID)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			t.normalize().Expiration = h.expiration()
			out = append(out, t)
		}
	}
	return promotype.NewList(out, len(out), promotype.Query{Limit: len(out) + 1}), nil
}

// RewardCost is what assignment a costs the holder of card, given what the
// assignment says (cost): the mapping of the tier the card holds, if it
// maps a (redemption.RewardCost).
func (s *Service) RewardCost(ctx context.Context, card *voucher.Voucher, a *reward.Assignment, cost int64) (int64, error) {
	pr, err := s.projectRules(ctx, s.store, card.ProjectID)
	if err != nil {
		return 0, err
	}
	t, err := s.heldTier(ctx, s.store, pr.tiers[deref(card.CampaignID)], card)
	if t == nil || err != nil {
		return cost, err
	}
	if m, ok := t.Rewards[a.ID]; ok {
		return m.apply(cost), nil
	}
	return cost, nil
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func cloneMappings(m map[string]Mapping) map[string]Mapping {
	out := make(map[string]Mapping, len(m))
	for k, v := range m {
		v.Multiplier = promotype.ClonePtr(v.Multiplier)
		v.Points = promotype.ClonePtr(v.Points)
		out[k] = v
	}
	return out
}
