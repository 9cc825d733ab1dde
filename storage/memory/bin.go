package memory

import (
	"context"

	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/promotype"
)

// binEntries are the project's bin entries: its binned campaigns, products,
// SKUs of live products and vouchers of live campaigns (or of none).
func (d *data) binEntries(projectID string) map[string]*bin.Entry {
	out := map[string]*bin.Entry{}
	add := func(typ, id, name string, parent *string, at *promotype.Time) {
		out[bin.IDPrefix+id] = &bin.Entry{ID: bin.IDPrefix + id, CreatedAt: *at, ResourceID: id, ResourceType: typ,
			ResourceName: name, ResourceParentID: promotype.ClonePtr(parent), Object: typ, ProjectID: projectID}
	}
	for _, c := range d.campaigns.campaigns.rows[projectID] {
		if c.BinnedAt != nil {
			add(bin.TypeCampaign, c.ID, c.Name, nil, c.BinnedAt)
		}
	}
	liveCampaign := func(id *string) bool {
		if id == nil {
			return true
		}
		c, ok := d.campaigns.campaigns.get(projectID, *id)
		return ok && c.BinnedAt == nil
	}
	if p := d.campaigns.vouchers[projectID]; p != nil {
		for _, v := range p.rows {
			if v.BinnedAt != nil && liveCampaign(v.CampaignID) {
				add(bin.TypeVoucher, v.ID, v.Code, v.CampaignID, v.BinnedAt)
			}
		}
		for _, s := range p.slabs {
			cid := &s.campaignID
			if s.campaignID == "" {
				cid = nil
			}
			if !liveCampaign(cid) {
				continue
			}
			for i, st := range s.state {
				if st == rowBinned {
					add(bin.TypeVoucher, s.id(i), s.code(i), cid, &s.binnedAt)
				}
			}
		}
	}
	for _, p := range d.products.rows[projectID] {
		if p.BinnedAt != nil {
			add(bin.TypeProduct, p.ID, deref(p.Name), nil, p.BinnedAt)
		}
	}
	for _, s := range d.skus.rows[projectID] {
		if s.BinnedAt == nil {
			continue
		}
		if p, ok := d.products.get(projectID, s.ProductID); ok && p.BinnedAt != nil {
			continue // binned with its product
		}
		add(bin.TypeSKU, s.ID, deref(s.SKU), &s.ProductID, s.BinnedAt)
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// ListBinEntries implements bin.Store.
func (s *Store) ListBinEntries(ctx context.Context, projectID string, q promotype.Query, after string) (out []*bin.Entry, err error) {
	s.read(ctx, func(d *data) {
		rows := pastID(d.binEntries(projectID), q, after)
		out, _ = list(rows, q, (*bin.Entry).Field, func(e *bin.Entry) string { return e.ID }, nil, (*bin.Entry).Clone)
	})
	return out, nil
}

// GetBinEntry implements bin.Store.
func (s *Store) GetBinEntry(ctx context.Context, projectID, id string) (out *bin.Entry, err error) {
	s.read(ctx, func(d *data) {
		e, ok := d.binEntries(projectID)[id]
		if !ok {
			err = promotype.NotFound("bin_entry", id)
			return
		}
		out = e
	})
	return out, err
}
