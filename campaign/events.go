package campaign

import (
	"context"
	"errors"
	"maps"

	"github.com/promoengine/promo/promotype"
)

// The webhook events the campaign services (and the engine's voucher
// generation) write to the outbox, spelled as webhook.Events spells them.
const (
	EventCampaignCreated     = "campaign.created"
	EventCampaignUpdated     = "campaign.updated"
	EventCampaignEnabled     = "campaign.enabled"
	EventCampaignDisabled    = "campaign.disabled"
	EventCampaignDeleted     = "campaign.deleted"
	EventVouchersAdded       = "campaign.vouchers.aded"
	EventGenerationStarted   = "campaign.vouchers.generation.started"
	EventGenerationCompleted = "campaign.vouchers.generation.completed"
	EventGenerationFailed    = "campaign.vouchers.generation.failed"

	EventTierCreated  = "campaign.promotion_tier.created"
	EventTierUpdated  = "campaign.promotion_tier.updated"
	EventTierEnabled  = "campaign.promotion_tier.enabled"
	EventTierDisabled = "campaign.promotion_tier.disabled"
	EventTierDeleted  = "campaign.promotion_tier.deleted"

	EventStackCreated = "campaign.promotion_stack.created"
	EventStackUpdated = "campaign.promotion_stack.updated"
)

// emit appends an event to the outbox through st, the transaction of the
// change it tells of.
func emit(ctx context.Context, st promotype.EventStore, env promotype.Env, projectID, typ, entityID string, data any) error {
	return promotype.AppendEvent(ctx, st, env, projectID, typ, entityID, data)
}

// pick returns the first of two event types when yes, else the second.
func pick(yes bool, a, b string) string {
	if yes {
		return a
	}
	return b
}

// EmitCampaign appends an event of type typ about campaign c through st (the
// change's transaction): its data is {"campaign": c as the API shows it}
// plus the fields of extra (created_at, count, ...). c is not changed.
func (s *Service) EmitCampaign(ctx context.Context, st Store, typ string, c *Campaign, extra map[string]any) error {
	pc, err := s.PresentFull(ctx, st, c.Clone())
	if err != nil {
		return err
	}
	data := map[string]any{"campaign": pc}
	maps.Copy(data, extra)
	return emit(ctx, st, s.env, c.ProjectID, typ, c.ID, data)
}

// EmitCampaignByID is EmitCampaign for the campaign campaignID as stored in
// st; a campaign gone (deleted meanwhile) records nothing.
func (s *Service) EmitCampaignByID(ctx context.Context, st Store, typ, projectID, campaignID string, extra map[string]any) error {
	c, err := st.GetCampaign(ctx, projectID, campaignID)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.EmitCampaign(ctx, st, typ, c, extra)
}

// PresentFull is Present with the categories, and for a PROMOTION campaign
// its promotion.tiers list (by hierarchy), all read through st: the
// campaign as the API returns it.
func (s *Service) PresentFull(ctx context.Context, st Store, c *Campaign) (*Campaign, error) {
	c, err := s.Present(ctx, st, c, true)
	if err != nil {
		return nil, err
	}
	return FillTiers(ctx, st, c)
}

// FillTiers sets promotion.tiers of a PROMOTION campaign c to its tiers as
// the API shows them, read through st; other campaigns are returned as
// they are.
func FillTiers(ctx context.Context, st Store, c *Campaign) (*Campaign, error) {
	if c == nil || c.CampaignType != Promotion {
		return c, nil
	}
	ts, _, err := st.ListPromotionTiers(ctx, c.ProjectID, tiersOf(c.ID))
	if err != nil {
		return nil, err
	}
	sortTiers(ts)
	for _, t := range ts {
		if _, err := presentTier(ctx, st, t); err != nil {
			return nil, err
		}
	}
	c.Promotion = promotype.NewList(ts, len(ts), promotype.Query{}).WithRef(tiersRef)
	return c, nil
}

// EmitTier appends an event of type typ about tier t through st: data
// {campaign, promotion_tier}, both as the API shows them. t is not
// changed.
func (s *TierService) EmitTier(ctx context.Context, st Store, typ string, t *PromotionTier) error {
	return s.EmitTiers(ctx, st, typ, []*PromotionTier{t})
}

// EmitTiers is EmitTier for tiers of one campaign (a campaign create's):
// the campaign is presented once for all their events.
func (s *TierService) EmitTiers(ctx context.Context, st Store, typ string, ts []*PromotionTier) error {
	if len(ts) == 0 {
		return nil
	}
	c, err := st.GetCampaign(ctx, ts[0].ProjectID, ts[0].CampaignID)
	if err != nil {
		return err
	}
	pc, err := s.campaigns.PresentFull(ctx, st, c)
	if err != nil {
		return err
	}
	events := make([]*promotype.Event, 0, len(ts))
	for _, t := range ts {
		pt, err := presentTier(ctx, st, t.Clone())
		if err != nil {
			return err
		}
		ev, err := promotype.NewEvent(s.env, t.ProjectID, typ, t.ID, map[string]any{"campaign": pc, "promotion_tier": pt})
		if err != nil {
			return err
		}
		events = append(events, ev)
	}
	return st.AppendEvents(ctx, events...)
}
