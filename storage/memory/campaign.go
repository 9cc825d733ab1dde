package memory

import (
	"context"
	"slices"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// campaignData holds campaigns, categories, vouchers and async actions.
type campaignData struct {
	campaigns  keyed[campaign.Campaign]   // live campaigns keyed by name
	categories keyed[campaign.Category]   // keyed by name
	templates  keyed[campaign.Template]   // campaign templates keyed by name
	vouchers   map[string]*voucherProject // project id → its vouchers (voucher.go)
	actions    table[async.Action]
	actionSeq  int64 // the last async.Action.Seq given (a rollback leaves a gap, as a sequence does)
}

func newCampaignData() campaignData {
	return campaignData{
		campaigns: newKeyed(keyed[campaign.Campaign]{
			kind: "campaign", keyName: "name",
			ids:   func(c *campaign.Campaign) (string, string) { return c.ProjectID, c.ID },
			key:   func(c *campaign.Campaign) *string { return &c.Name },
			live:  liveCampaign,
			clone: (*campaign.Campaign).Clone,
		}),
		categories: newKeyed(keyed[campaign.Category]{
			kind: "category", keyName: "name",
			ids:   func(c *campaign.Category) (string, string) { return c.ProjectID, c.ID },
			key:   func(c *campaign.Category) *string { return &c.Name },
			clone: (*campaign.Category).Clone,
		}),
		templates: newKeyed(keyed[campaign.Template]{
			kind: "campaign_template", keyName: "name",
			ids:   func(t *campaign.Template) (string, string) { return t.ProjectID, t.ID },
			key:   func(t *campaign.Template) *string { return &t.Name },
			clone: (*campaign.Template).Clone,
		}),
		vouchers: map[string]*voucherProject{},
		actions:  newTable[async.Action](),
	}
}

func liveCampaign(c *campaign.Campaign) bool { return c.BinnedAt == nil }

func campaignField(c *campaign.Campaign, name string) promotype.Value {
	return c.Field(name)
}

// InsertCampaign implements campaign.CampaignStore.
func (s *Store) InsertCampaign(ctx context.Context, c *campaign.Campaign) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.campaigns.insert(u, c) })
}

// UpdateCampaign implements campaign.CampaignStore.
func (s *Store) UpdateCampaign(ctx context.Context, c *campaign.Campaign) error {
	return s.write(ctx, func(d *data, u *undo) error {
		old, err := d.campaigns.campaigns.liveRow(c.ProjectID, c.ID)
		if err != nil {
			return err
		}
		n := c.Clone()
		n.VouchersCount = old.VouchersCount
		return d.campaigns.campaigns.save(u, n)
	})
}

// GetCampaign implements campaign.CampaignStore.
func (s *Store) GetCampaign(ctx context.Context, projectID, id string) (out *campaign.Campaign, err error) {
	s.read(ctx, func(d *data) { out, err = d.campaigns.campaigns.copyOf(projectID, id) })
	return out, err
}

// FindCampaignByName implements campaign.CampaignStore.
func (s *Store) FindCampaignByName(ctx context.Context, projectID, name string) (out *campaign.Campaign, err error) {
	s.read(ctx, func(d *data) { out, err = d.campaigns.campaigns.find(projectID, name) })
	return out, err
}

// ListCampaigns implements campaign.CampaignStore.
func (s *Store) ListCampaigns(ctx context.Context, projectID string, q promotype.Query) (out []*campaign.Campaign, total int, err error) {
	s.read(ctx, func(d *data) { out, total = d.campaigns.campaigns.list(projectID, q, campaignField) })
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
		c, err := d.campaigns.campaigns.liveRow(projectID, id)
		if err != nil {
			return err
		}
		n := c.Clone()
		n.BinnedAt = at.Ptr()
		return d.campaigns.campaigns.save(u, n)
	})
}

// DeleteCampaign implements campaign.CampaignStore.
func (s *Store) DeleteCampaign(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.campaigns.remove(u, projectID, id) })
}

func categoryField(c *campaign.Category, name string) promotype.Value { return c.Field(name) }

// InsertCategory implements campaign.CampaignStore.
func (s *Store) InsertCategory(ctx context.Context, c *campaign.Category) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.categories.insert(u, c) })
}

// GetCategory implements campaign.CampaignStore.
func (s *Store) GetCategory(ctx context.Context, projectID, id string) (out *campaign.Category, err error) {
	s.read(ctx, func(d *data) { out, err = d.campaigns.categories.copyOf(projectID, id) })
	return out, err
}

// FindCategoryByName implements campaign.CampaignStore.
func (s *Store) FindCategoryByName(ctx context.Context, projectID, name string) (out *campaign.Category, err error) {
	s.read(ctx, func(d *data) { out, err = d.campaigns.categories.find(projectID, name) })
	return out, err
}

// ListCategories implements campaign.CampaignStore.
func (s *Store) ListCategories(ctx context.Context, projectID string, q promotype.Query) (out []*campaign.Category, total int, err error) {
	s.read(ctx, func(d *data) { out, total = d.campaigns.categories.list(projectID, q, categoryField) })
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

// UpdateCategory implements campaign.CampaignStore.
func (s *Store) UpdateCategory(ctx context.Context, c *campaign.Category) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.categories.update(u, c) })
}

// DeleteCategory implements campaign.CampaignStore.
func (s *Store) DeleteCategory(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.categories.remove(u, projectID, id) })
}

// CategoryInUse implements campaign.CampaignStore.
func (s *Store) CategoryInUse(ctx context.Context, projectID, id string) (used bool, err error) {
	names := func(p *string) bool { return p != nil && *p == id }
	s.read(ctx, func(d *data) {
		for _, c := range d.campaigns.campaigns.rows[projectID] {
			if liveCampaign(c) && names(c.CategoryID) {
				used = true
				return
			}
		}
		for _, t := range d.tiers.rows[projectID] {
			if names(t.CategoryID) {
				used = true
				return
			}
		}
		for _, st := range d.stacks.rows[projectID] {
			if names(st.CategoryID) {
				used = true
				return
			}
		}
		p := d.campaigns.vouchers[projectID]
		if p == nil {
			return
		}
		for _, v := range p.rows {
			if v.BinnedAt == nil && names(v.CategoryID) {
				used = true
				return
			}
		}
		for _, sl := range p.slabs {
			if names(sl.template.CategoryID) && slices.Contains(sl.state, rowLive) {
				used = true
				return
			}
		}
	})
	return used, nil
}

// InsertCampaignTemplate implements campaign.TemplateStore.
func (s *Store) InsertCampaignTemplate(ctx context.Context, t *campaign.Template) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.templates.insert(u, t) })
}

// UpdateCampaignTemplate implements campaign.TemplateStore.
func (s *Store) UpdateCampaignTemplate(ctx context.Context, t *campaign.Template) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.templates.update(u, t) })
}

// GetCampaignTemplate implements campaign.TemplateStore.
func (s *Store) GetCampaignTemplate(ctx context.Context, projectID, id string) (out *campaign.Template, err error) {
	s.read(ctx, func(d *data) { out, err = d.campaigns.templates.copyOf(projectID, id) })
	return out, err
}

// ListCampaignTemplates implements campaign.TemplateStore.
func (s *Store) ListCampaignTemplates(ctx context.Context, projectID string, q promotype.Query, after string) (out []*campaign.Template, err error) {
	s.read(ctx, func(d *data) {
		rows := pastID(d.campaigns.templates.rows[projectID], q, after)
		out, _ = list(rows, q, (*campaign.Template).Field, func(t *campaign.Template) string { return t.ID }, nil, (*campaign.Template).Clone)
	})
	return out, nil
}

// CountCampaignTemplates implements campaign.TemplateStore.
func (s *Store) CountCampaignTemplates(ctx context.Context, projectID string) (n int, err error) {
	s.read(ctx, func(d *data) { n = len(d.campaigns.templates.rows[projectID]) })
	return n, nil
}

// DeleteCampaignTemplate implements campaign.TemplateStore.
func (s *Store) DeleteCampaignTemplate(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.campaigns.templates.remove(u, projectID, id) })
}
