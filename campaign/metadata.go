package campaign

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// The metadata schemas (related_object) campaign and tier metadata is
// checked against.
const (
	metaCampaign = "campaign"
	metaTier     = "promotion_tier"
)

// CheckCreate checks the metadata of a campaign create against the
// project's metadata schemas: the campaign's and its promotion tiers', as
// creates (a required key must be there). It reads the schemas: call it
// outside transactions.
func (s *Service) CheckCreate(ctx context.Context, projectID string, in Params) error {
	if err := s.env.CheckMeta(ctx, projectID, metaCampaign, in.Metadata); err != nil {
		return err
	}
	if in.Promotion == nil {
		return nil
	}
	for _, t := range in.Promotion.Tiers {
		if err := s.env.CheckMeta(ctx, projectID, metaTier, t.Metadata); err != nil {
			return err
		}
	}
	return nil
}

// CheckUpdate checks the metadata an update leaves on the campaign with id
// or name ref (its metadata merged with in.Metadata, without
// in.UnsetMetadataFields), when in changes it. A campaign not found is the
// update's own error, not this check's. Call it outside transactions.
func (s *Service) CheckUpdate(ctx context.Context, projectID, ref string, in UpdateParams) error {
	if in.Metadata == nil && len(in.UnsetMetadataFields) == 0 {
		return nil
	}
	c, err := s.Resolve(ctx, s.store, projectID, ref)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.env.CheckMeta(ctx, projectID, metaCampaign, in.metadataOf(c.Metadata))
}

// metadataOf returns the metadata the update leaves of m (not changed): m
// merged with in.Metadata, without in.UnsetMetadataFields.
func (in UpdateParams) metadataOf(m promotype.Metadata) promotype.Metadata {
	out := m.Merge(in.Metadata)
	out.Unset(in.UnsetMetadataFields...)
	return out
}

// checkTier checks the metadata of a tier create (always: a required key
// must be there) or update (when it sends metadata).
func (s *TierService) checkTier(ctx context.Context, projectID string, in TierParams, create bool) error {
	if !create && in.Metadata == nil {
		return nil
	}
	return s.env.CheckMeta(ctx, projectID, metaTier, in.Metadata)
}
