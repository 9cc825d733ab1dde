package memory

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// campaignData holds campaigns, categories, vouchers and async actions.
type campaignData struct {
	campaigns     table[campaign.Campaign]
	campaignNames index // live campaign names
	categories    table[campaign.Category]
	categoryNames index
	vouchers      map[string]*voucherProject // project id → its vouchers (voucher.go)
	actions       table[async.Action]
}

func newCampaignData() campaignData {
	return campaignData{
		campaigns:     newTable[campaign.Campaign](),
		campaignNames: index{},
		categories:    newTable[campaign.Category](),
		categoryNames: index{},
		vouchers:      map[string]*voucherProject{},
		actions:       newTable[async.Action](),
	}
}

func liveCampaign(c *campaign.Campaign) bool { return c.BinnedAt == nil }

func campaignID(c *campaign.Campaign) string { return c.ID }

func campaignField(c *campaign.Campaign, name string) promotype.Value {
	return c.Field(name)
}

func (d *data) liveCampaign(projectID, id string) (*campaign.Campaign, error) {
	c, ok := d.campaigns.campaigns.get(projectID, id)
	if !ok || !liveCampaign(c) {
		return nil, promotype.NotFound("campaign", id)
	}
	return c, nil
}

// putCampaign stores a copy of c and keeps the index of live names.
func (d *data) putCampaign(u *undo, c *campaign.Campaign) error {
	p := &d.campaigns
	if old, ok := p.campaigns.get(c.ProjectID, c.ID); ok && liveCampaign(old) {
		p.campaignNames.unset(u, c.ProjectID, old.Name)
	}
	if liveCampaign(c) {
		if other, ok := p.campaignNames[[2]string{c.ProjectID, c.Name}]; ok && other != c.ID {
			return promotype.Duplicate("campaign", "Duplicated campaign exists with name %s", c.Name)
		}
		p.campaignNames.set(u, c.ProjectID, c.Name, c.ID)
	}
	p.campaigns.put(u, c.ProjectID, c.ID, c.Clone())
	return nil
}

// InsertCampaign implements campaign.CampaignStore.
func (s *Store) InsertCampaign(ctx context.Context, c *campaign.Campaign) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.campaigns.campaigns.get(c.ProjectID, c.ID); ok {
			return promotype.Duplicate("campaign", "Duplicated campaign exists with id %s", c.ID)
		}
		return d.putCampaign(u, c)
	})
}

// UpdateCampaign implements campaign.CampaignStore.
func (s *Store) UpdateCampaign(ctx context.Context, c *campaign.Campaign) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, err := d.liveCampaign(c.ProjectID, c.ID)
		if err != nil {
			return err
		}
		n := c.Clone()
		n.VouchersCount = old.VouchersCount
		return d.putCampaign(u, n)
	})
}

// GetCampaign implements campaign.CampaignStore.
func (s *Store) GetCampaign(ctx context.Context, projectID, id string) (out *campaign.Campaign, err error) {
	s.read(ctx, func(d *data) {
		var c *campaign.Campaign
		if c, err = d.liveCampaign(projectID, id); err == nil {
			out = c.Clone()
		}
	})
	return out, err
}

// FindCampaignByName implements campaign.CampaignStore.
func (s *Store) FindCampaignByName(ctx context.Context, projectID, name string) (out *campaign.Campaign, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.campaigns.campaignNames[[2]string{projectID, name}]
		if !ok {
			err = promotype.NotFound("campaign", name)
			return
		}
		var c *campaign.Campaign
		if c, err = d.liveCampaign(projectID, id); err == nil {
			out = c.Clone()
		}
	})
	return out, err
}

// ListCampaigns implements campaign.CampaignStore.
func (s *Store) ListCampaigns(ctx context.Context, projectID string, q promotype.Query) (out []*campaign.Campaign, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.campaigns.campaigns.rows[projectID], q, campaignField, campaignID, liveCampaign, (*campaign.Campaign).Clone)
	})
	return out, total, nil
}

// SetCampaignStatus implements campaign.CampaignStore.
func (s *Store) SetCampaignStatus(ctx context.Context, projectID, id string, status campaign.Status, revision int) (done bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		c, ok := d.campaigns.campaigns.get(projectID, id)
		if !ok {
			return promotype.NotFound("campaign", id)
		}
		if revision >= 0 && c.Revision != revision {
			return nil
		}
		n := c.Clone()
		n.CreationStatus, n.VouchersGenerationStatus = status, status
		d.campaigns.campaigns.put(u, projectID, id, n)
		done = true
		return nil
	})
	return done, err
}

// AddCampaignVouchers implements campaign.CampaignStore.
func (s *Store) AddCampaignVouchers(ctx context.Context, projectID, id string, delta int64) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c, ok := d.campaigns.campaigns.get(projectID, id)
		if !ok {
			return promotype.NotFound("campaign", id)
		}
		n := c.Clone()
		n.VouchersCount += delta
		d.campaigns.campaigns.put(u, projectID, id, n)
		return nil
	})
}

// BinCampaign implements campaign.CampaignStore.
func (s *Store) BinCampaign(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c, err := d.liveCampaign(projectID, id)
		if err != nil {
			return err
		}
		n := c.Clone()
		n.BinnedAt = at.Ptr()
		d.campaigns.campaignNames.unset(u, projectID, c.Name)
		d.campaigns.campaigns.put(u, projectID, id, n)
		return nil
	})
}

// DeleteCampaign implements campaign.CampaignStore.
func (s *Store) DeleteCampaign(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c, ok := d.campaigns.campaigns.get(projectID, id)
		if !ok {
			return promotype.NotFound("campaign", id)
		}
		if liveCampaign(c) {
			d.campaigns.campaignNames.unset(u, projectID, c.Name)
		}
		d.campaigns.campaigns.del(u, projectID, id)
		return nil
	})
}

func categoryField(c *campaign.Category, name string) promotype.Value { return c.Field(name) }

func categoryID(c *campaign.Category) string { return c.ID }

// InsertCategory implements campaign.CampaignStore.
func (s *Store) InsertCategory(ctx context.Context, c *campaign.Category) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p := &d.campaigns
		if _, ok := p.categories.get(c.ProjectID, c.ID); ok {
			return promotype.Duplicate("category", "Duplicated category exists with id %s", c.ID)
		}
		if _, ok := p.categoryNames[[2]string{c.ProjectID, c.Name}]; ok {
			return promotype.Duplicate("category", "Duplicated category exists with name %s", c.Name)
		}
		p.categoryNames.set(u, c.ProjectID, c.Name, c.ID)
		p.categories.put(u, c.ProjectID, c.ID, c.Clone())
		return nil
	})
}

// GetCategory implements campaign.CampaignStore.
func (s *Store) GetCategory(ctx context.Context, projectID, id string) (out *campaign.Category, err error) {
	s.read(ctx, func(d *data) {
		c, ok := d.campaigns.categories.get(projectID, id)
		if !ok {
			err = promotype.NotFound("category", id)
			return
		}
		out = c.Clone()
	})
	return out, err
}

// FindCategoryByName implements campaign.CampaignStore.
func (s *Store) FindCategoryByName(ctx context.Context, projectID, name string) (out *campaign.Category, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.campaigns.categoryNames[[2]string{projectID, name}]
		if !ok {
			err = promotype.NotFound("category", name)
			return
		}
		c, _ := d.campaigns.categories.get(projectID, id)
		out = c.Clone()
	})
	return out, err
}

// ListCategories implements campaign.CampaignStore.
func (s *Store) ListCategories(ctx context.Context, projectID string, q promotype.Query) (out []*campaign.Category, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.campaigns.categories.rows[projectID], q, categoryField, categoryID, nil, (*campaign.Category).Clone)
	})
	return out, total, nil
}

func tierID(t *campaign.PromotionTier) string { return t.ID }

// InsertPromotionTier implements campaign.TierStore.
func (s *Store) InsertPromotionTier(ctx context.Context, t *campaign.PromotionTier) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.tiers, u, t.ProjectID, t.ID, "promotion_tier", t.Clone())
	})
}

// UpdatePromotionTier implements campaign.TierStore.
func (s *Store) UpdatePromotionTier(ctx context.Context, t *campaign.PromotionTier) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.tiers, u, t.ProjectID, t.ID, "promotion_tier", t.Clone())
	})
}

// GetPromotionTier implements campaign.TierStore.
func (s *Store) GetPromotionTier(ctx context.Context, projectID, id string) (out *campaign.PromotionTier, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.tiers, projectID, id, "promotion_tier", (*campaign.PromotionTier).Clone)
	})
	return out, err
}

// ListPromotionTiers implements campaign.TierStore.
func (s *Store) ListPromotionTiers(ctx context.Context, projectID string, q promotype.Query) (out []*campaign.PromotionTier, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = listRows(&d.tiers, projectID, q, tierID, (*campaign.PromotionTier).Clone)
	})
	return out, total, nil
}

// DeletePromotionTier implements campaign.TierStore.
func (s *Store) DeletePromotionTier(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.tiers, u, projectID, id, "promotion_tier") })
}

func stackID(s *campaign.PromotionStack) string { return s.ID }

// InsertPromotionStack implements campaign.StackStore.
func (s *Store) InsertPromotionStack(ctx context.Context, ps *campaign.PromotionStack) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.stacks, u, ps.ProjectID, ps.ID, "promotion_stack", ps.Clone())
	})
}

// UpdatePromotionStack implements campaign.StackStore.
func (s *Store) UpdatePromotionStack(ctx context.Context, ps *campaign.PromotionStack) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.stacks, u, ps.ProjectID, ps.ID, "promotion_stack", ps.Clone())
	})
}

// GetPromotionStack implements campaign.StackStore.
func (s *Store) GetPromotionStack(ctx context.Context, projectID, id string) (out *campaign.PromotionStack, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.stacks, projectID, id, "promotion_stack", (*campaign.PromotionStack).Clone)
	})
	return out, err
}

// ListPromotionStacks implements campaign.StackStore.
func (s *Store) ListPromotionStacks(ctx context.Context, projectID string, q promotype.Query) (out []*campaign.PromotionStack, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = listRows(&d.stacks, projectID, q, stackID, (*campaign.PromotionStack).Clone)
	})
	return out, total, nil
}

// DeletePromotionStack implements campaign.StackStore.
func (s *Store) DeletePromotionStack(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return remove(&d.stacks, u, projectID, id, "promotion_stack") })
}
