package campaign

import (
	"context"
	"fmt"
	"reflect"

	"github.com/promoengine/promo/promotype"
)

// Conversion event types of a referral program (referral_program
// .conversion_event_type): a redemption of the referral code by the
// referee, or a custom event naming the code.
const (
	ConversionRedemption  = "redemption"
	ConversionCustomEvent = "custom_event"
)

// Referral reward types: points on a loyalty card, credits on a gift card
// (RefereeReward.Type and a tier's reward), or for a referral tier a
// coupon of a DISCOUNT_COUPONS campaign published to the referrer.
const (
	RewardLoyaltyCard     = "LOYALTY_CARD"
	RewardGiftVoucher     = "GIFT_VOUCHER"
	RewardDiscountVoucher = "DISCOUNT_VOUCHER"
)

// Referral tier criteria: a reward for each unique referee, or one reward
// when the referrer reaches a number of unique referees.
const (
	TierEachReferee    = "EACH_REFEREE"
	TierMinimumReferee = "MINIMUM_REFEREES"
)

// PrefixReferralTier is the prefix of a referral tier's id.
const PrefixReferralTier = "rt_"

// ReferralTier is a reward the referrer of a referral program gets for the
// customers it referred: its id, banner and parameters are those of the
// hosted SimpleReferralTier (webhook and activity data).
type ReferralTier struct {
	ID         string                 `json:"id"`
	Banner     *string                `json:"banner,omitempty"`
	Parameters ReferralTierParameters `json:"parameters"`
}

// ReferralTierParameters say when the tier rewards (Criteria) and what it
// gives (Reward: the same shape as a referee reward; DISCOUNT_VOUCHER
// publishes a coupon of the campaign named, without amount).
type ReferralTierParameters struct {
	Criteria ReferralTierCriteria `json:"criteria"`
	Reward   RefereeReward        `json:"reward"`
}

// ReferralTierCriteria: Type EACH_REFEREE rewards every unique referee;
// MINIMUM_REFEREES rewards once, on the Referees-th unique referee.
type ReferralTierCriteria struct {
	Type     string `json:"type"`
	Referees int64  `json:"referees,omitempty"`
}

// maxReferralTiers bounds the tiers of one referral program.
const maxReferralTiers = 50

// check refuses a referral program the engine could not run, and gives
// each tier without id a new one.
func (r *ReferralSettings) check(ids promotype.IDGenerator) error {
	if r == nil {
		return nil
	}
	if t := r.ConversionEventType; t != nil && *t != ConversionRedemption && *t != ConversionCustomEvent {
		return InvalidCampaign("Property 'referral_program.conversion_event_type' must be one of redemption, custom_event")
	}
	if r.ConversionEventType != nil && *r.ConversionEventType == ConversionCustomEvent &&
		(r.CustomEvent == nil || (r.CustomEvent.Name == nil && r.CustomEvent.ID == nil)) {
		return InvalidCampaign("Property 'referral_program.custom_event' is required when conversion_event_type is custom_event")
	}
	if rr := r.RefereeReward; rr != nil {
		if err := rr.check("referral_program.referee_reward", false); err != nil {
			return err
		}
	}
	if len(r.ReferralTiers) > maxReferralTiers {
		return InvalidCampaign("Property 'referral_program.referral_tiers' must have at most %d items", maxReferralTiers)
	}
	seen := map[string]bool{}
	for i := range r.ReferralTiers {
		t := &r.ReferralTiers[i]
		path := fmt.Sprintf("referral_program.referral_tiers[%d]", i)
		if t.ID == "" {
			t.ID = ids.NewID(PrefixReferralTier)
		}
		if seen[t.ID] {
			return InvalidCampaign("Property '%s.id' repeats the id %s", path, t.ID)
		}
		seen[t.ID] = true
		switch c := t.Parameters.Criteria; {
		case c.Type == TierEachReferee:
		case c.Type == TierMinimumReferee && c.Referees >= 1:
		case c.Type == TierMinimumReferee:
			return InvalidCampaign("Property '%s.parameters.criteria.referees' must be at least 1", path)
		default:
			return InvalidCampaign("Property '%s.parameters.criteria.type' must be one of %s, %s", path, TierEachReferee, TierMinimumReferee)
		}
		if err := t.Parameters.Reward.check(path+".parameters.reward", true); err != nil {
			return err
		}
	}
	return nil
}

// check refuses a reward without a campaign, of an unknown type or
// without a positive amount (a coupon, allowed for tiers, has none).
func (r *RefereeReward) check(path string, coupon bool) error {
	if r.RelatedObjectParent == nil || r.RelatedObjectParent.ID == nil || *r.RelatedObjectParent.ID == "" {
		return InvalidCampaign("Property '%s.related_object_parent.id' is required", path)
	}
	typ := ""
	if r.Type != nil {
		typ = *r.Type
	}
	switch {
	case typ == RewardDiscountVoucher && coupon:
		return nil
	case typ != RewardLoyaltyCard && typ != RewardGiftVoucher:
		if coupon {
			return InvalidCampaign("Property '%s.type' must be one of LOYALTY_CARD, GIFT_VOUCHER, DISCOUNT_VOUCHER", path)
		}
		return InvalidCampaign("Property '%s.type' must be one of LOYALTY_CARD, GIFT_VOUCHER", path)
	case r.Amount == nil || *r.Amount <= 0:
		return InvalidCampaign("Property '%s.amount' must be a positive integer", path)
	}
	return nil
}

// Converts reports how the program converts a referral: "redemption"
// (also when unset) or "custom_event".
func (r *ReferralSettings) Converts() string {
	if r == nil || r.ConversionEventType == nil {
		return ConversionRedemption
	}
	return *r.ConversionEventType
}

// The webhook events of referral tiers, which change with their campaign.
const (
	EventReferralTierCreated = "campaign.referral_tier.created"
	EventReferralTierUpdated = "campaign.referral_tier.updated"
	EventReferralTierDeleted = "campaign.referral_tier.deleted"
)

// SimpleReferralTier is a referral tier as events show it.
type SimpleReferralTier struct {
	ID         string                 `json:"id"`
	CampaignID string                 `json:"campaign_id"`
	Banner     *string                `json:"banner"`
	Parameters ReferralTierParameters `json:"parameters"`
}

// Simple is t as events show it, in campaign campaignID.
func (t ReferralTier) Simple(campaignID string) SimpleReferralTier {
	return SimpleReferralTier{ID: t.ID, CampaignID: campaignID, Banner: t.Banner, Parameters: t.Parameters}
}

// referralTiers returns c's referral tiers (none for other campaigns).
func referralTiers(c *Campaign) []ReferralTier {
	if c == nil || c.ReferralProgram == nil {
		return nil
	}
	return c.ReferralProgram.ReferralTiers
}

// emitReferralTiers appends, through st, campaign.referral_tier.created,
// updated and deleted for the tiers the change from before (nil: a new
// campaign) to after created, changed and removed, each with data
// {"campaign", "referral_tier"}.
func (s *Service) emitReferralTiers(ctx context.Context, st Store, before, after *Campaign) error {
	old := map[string]ReferralTier{}
	for _, t := range referralTiers(before) {
		old[t.ID] = t
	}
	now := map[string]bool{}
	var pc *Campaign
	send := func(typ string, t ReferralTier) error {
		if pc == nil {
			var err error
			if pc, err = s.PresentFull(ctx, st, after.Clone()); err != nil {
				return err
			}
		}
		return emit(ctx, st, s.env, after.ProjectID, typ, t.ID, map[string]any{"campaign": pc, "referral_tier": t.Simple(after.ID)})
	}
	for _, t := range referralTiers(after) {
		now[t.ID] = true
		prev, had := old[t.ID]
		switch {
		case !had:
			if err := send(EventReferralTierCreated, t); err != nil {
				return err
			}
		case !reflect.DeepEqual(prev, t):
			if err := send(EventReferralTierUpdated, t); err != nil {
				return err
			}
		}
	}
	for _, t := range referralTiers(before) {
		if !now[t.ID] {
			if err := send(EventReferralTierDeleted, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// RewardCampaignType is the type of campaign a referral reward of type
// typ comes from ("" for an unknown type).
func RewardCampaignType(typ string) CampaignType {
	switch typ {
	case RewardLoyaltyCard:
		return LoyaltyProgram
	case RewardGiftVoucher:
		return GiftVouchers
	case RewardDiscountVoucher:
		return DiscountCoupons
	}
	return ""
}

// checkReferralRewards refuses a referral program whose rewards name a
// campaign that does not exist (404) or is not of the reward's type (400
// invalid_campaign), reading them through st.
func (s *Service) checkReferralRewards(ctx context.Context, st Store, c *Campaign) error {
	rp := c.ReferralProgram
	if rp == nil {
		return nil
	}
	check := func(path string, r *RefereeReward) error {
		from, err := s.Resolve(ctx, st, c.ProjectID, *r.RelatedObjectParent.ID)
		if err != nil {
			return err
		}
		if want := RewardCampaignType(*r.Type); from.CampaignType != want {
			return InvalidCampaign("Property '%s.related_object_parent.id' must name a %s campaign for a %s reward", path, want, *r.Type)
		}
		return nil
	}
	if rp.RefereeReward != nil {
		if err := check("referral_program.referee_reward", rp.RefereeReward); err != nil {
			return err
		}
	}
	for i := range rp.ReferralTiers {
		if err := check(fmt.Sprintf("referral_program.referral_tiers[%d].parameters.reward", i), &rp.ReferralTiers[i].Parameters.Reward); err != nil {
			return err
		}
	}
	return nil
}
