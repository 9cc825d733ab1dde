package loyalty

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// CreateProgram creates a loyalty program (POST /v1/loyalties): a campaign
// of type LOYALTY_PROGRAM whose vouchers are loyalty cards. join_once is
// always true for a program, whatever in says.
func (s *Service) CreateProgram(ctx context.Context, projectID string, in campaign.Params) (*campaign.Campaign, error) {
	if in.CampaignType != nil && *in.CampaignType != campaign.LoyaltyProgram {
		return nil, promotype.InvalidPayload("Property .campaign_type must be LOYALTY_PROGRAM for a loyalty program")
	}
	in.CampaignType = promotype.Ptr(campaign.LoyaltyProgram)
	in.JoinOnce = promotype.Ptr(true)
	if _, err := ParseTiersExpiration(in.LoyaltyTiersExpiration); err != nil {
		return nil, err
	}
	if in.Voucher == nil {
		in.Voucher = &campaign.VoucherParams{}
	}
	if in.Voucher.Type == nil {
		in.Voucher.Type = promotype.Ptr(campaign.LoyaltyCard)
	}
	if in.Voucher.LoyaltyCard == nil && *in.Voucher.Type == campaign.LoyaltyCard {
		in.Voucher.LoyaltyCard = &campaign.LoyaltyCardSettings{Points: promotype.Ptr[int64](0)}
	}
	return s.deps.Programs.Create(ctx, projectID, in)
}

// Program returns the loyalty program with id or name ref; a campaign of
// another type is as missing as an unknown one (404 campaign).
func (s *Service) Program(ctx context.Context, projectID, ref string) (*campaign.Campaign, error) {
	c, err := s.deps.Programs.Get(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	if c.CampaignType != campaign.LoyaltyProgram {
		return nil, promotype.NotFound("campaign", ref)
	}
	return c, nil
}

// ListPrograms lists the loyalty programs of a project, newest first
// unless p orders otherwise.
func (s *Service) ListPrograms(ctx context.Context, projectID string, p campaign.ListParams) (*promotype.List[*campaign.Campaign], error) {
	p.CampaignType = promotype.Ptr(campaign.LoyaltyProgram)
	return s.deps.Programs.List(ctx, projectID, p)
}

// UpdateProgram changes the loyalty program ref (PUT /v1/loyalties/{id});
// join_once stays true. With options.recalculate_tiers, the tiers of its
// members are computed again under its new settings (RecalculateTiers).
func (s *Service) UpdateProgram(ctx context.Context, projectID, ref string, in campaign.UpdateParams) (*campaign.Campaign, error) {
	recalc, err := recalculateTiers(in.Options)
	if err != nil {
		return nil, err
	}
	if _, err := ParseTiersExpiration(in.LoyaltyTiersExpiration); err != nil {
		return nil, err
	}
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	in.JoinOnce = nil
	out, err := s.deps.Programs.Update(ctx, projectID, c.ID, in)
	if err != nil || !recalc {
		return out, err
	}
	if _, err := s.RecalculateTiers(ctx, projectID, c.ID); err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteProgram deletes the loyalty program ref and its cards (to the bin,
// or for good with force) as an async action.
func (s *Service) DeleteProgram(ctx context.Context, projectID, ref string, force bool) (*async.Ref, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.deps.Programs.Delete(ctx, projectID, c.ID, force)
}
