package memory

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

func tierID(t *campaign.PromotionTier) string { return t.ID }

func tierField(t *campaign.PromotionTier, name string) promotype.Value { return t.Field(name) }

// InsertPromotionTier implements campaign.TierStore.
func (s *Store) InsertPromotionTier(_ context.Context, t *campaign.PromotionTier) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.tiers.get(t.ProjectID, t.ID); ok {
			return promotype.Duplicate("promotion_tier", "Duplicated promotion_tier exists with id %s", t.ID)
		}
		d.tiers.put(u, t.ProjectID, t.ID, t.Clone())
		return nil
	})
}

// UpdatePromotionTier implements campaign.TierStore.
func (s *Store) UpdatePromotionTier(_ context.Context, t *campaign.PromotionTier) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.tiers.get(t.ProjectID, t.ID); !ok {
			return promotype.NotFound("promotion_tier", t.ID)
		}
		d.tiers.put(u, t.ProjectID, t.ID, t.Clone())
		return nil
	})
}

// GetPromotionTier implements campaign.TierStore.
func (s *Store) GetPromotionTier(_ context.Context, projectID, id string) (out *campaign.PromotionTier, err error) {
	s.read(func(d *data) {
		t, ok := d.tiers.get(projectID, id)
		if !ok {
			err = promotype.NotFound("promotion_tier", id)
			return
		}
		out = t.Clone()
	})
	return out, err
}

// ListPromotionTiers implements campaign.TierStore.
func (s *Store) ListPromotionTiers(_ context.Context, projectID string, q promotype.Query) (out []*campaign.PromotionTier, total int, err error) {
	s.read(func(d *data) {
		out, total = list(d.tiers.rows[projectID], q, tierField, tierID, nil, (*campaign.PromotionTier).Clone)
	})
	return out, total, nil
}

// DeletePromotionTier implements campaign.TierStore.
func (s *Store) DeletePromotionTier(_ context.Context, projectID, id string) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.tiers.get(projectID, id); !ok {
			return promotype.NotFound("promotion_tier", id)
		}
		d.tiers.del(u, projectID, id)
		return nil
	})
}

func stackID(s *campaign.PromotionStack) string { return s.ID }

func stackField(s *campaign.PromotionStack, name string) promotype.Value { return s.Field(name) }

// InsertPromotionStack implements campaign.StackStore.
func (s *Store) InsertPromotionStack(_ context.Context, ps *campaign.PromotionStack) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.stacks.get(ps.ProjectID, ps.ID); ok {
			return promotype.Duplicate("promotion_stack", "Duplicated promotion_stack exists with id %s", ps.ID)
		}
		d.stacks.put(u, ps.ProjectID, ps.ID, ps.Clone())
		return nil
	})
}

// UpdatePromotionStack implements campaign.StackStore.
func (s *Store) UpdatePromotionStack(_ context.Context, ps *campaign.PromotionStack) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.stacks.get(ps.ProjectID, ps.ID); !ok {
			return promotype.NotFound("promotion_stack", ps.ID)
		}
		d.stacks.put(u, ps.ProjectID, ps.ID, ps.Clone())
		return nil
	})
}

// GetPromotionStack implements campaign.StackStore.
func (s *Store) GetPromotionStack(_ context.Context, projectID, id string) (out *campaign.PromotionStack, err error) {
	s.read(func(d *data) {
		ps, ok := d.stacks.get(projectID, id)
		if !ok {
			err = promotype.NotFound("promotion_stack", id)
			return
		}
		out = ps.Clone()
	})
	return out, err
}

// ListPromotionStacks implements campaign.StackStore.
func (s *Store) ListPromotionStacks(_ context.Context, projectID string, q promotype.Query) (out []*campaign.PromotionStack, total int, err error) {
	s.read(func(d *data) {
		out, total = list(d.stacks.rows[projectID], q, stackField, stackID, nil, (*campaign.PromotionStack).Clone)
	})
	return out, total, nil
}

// DeletePromotionStack implements campaign.StackStore.
func (s *Store) DeletePromotionStack(_ context.Context, projectID, id string) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.stacks.get(projectID, id); !ok {
			return promotype.NotFound("promotion_stack", id)
		}
		d.stacks.del(u, projectID, id)
		return nil
	})
}
