package redemption

import (
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// clonePresented is a deep copy of a voucher as a redemption row shows it:
// the stored fields (voucher.Voucher.Clone) and the ones filled on read
// (campaign and category names, categories, assets, summaries,
// assignments), without the fields the JSON leaves out.
func clonePresented(v *voucher.Voucher) *voucher.Voucher {
	c := v.Clone()
	c.ProjectID, c.BinnedAt, c.RedemptionQuantity, c.RedeemedQuantity, c.PublishCount = "", nil, nil, 0, 0
	c.Campaign, c.Category = promotype.ClonePtr(v.Campaign), promotype.ClonePtr(v.Category)
	if v.Categories != nil {
		c.Categories = make([]*campaign.Category, len(v.Categories))
		for i, cat := range v.Categories {
			if cat != nil {
				cc := *cat
				cc.UpdatedAt, cc.ProjectID = promotype.ClonePtr(cat.UpdatedAt), ""
				c.Categories[i] = &cc
			}
		}
	}
	c.Assets, c.Publish = promotype.ClonePtr(v.Assets), promotype.ClonePtr(v.Publish)
	if v.Redemption != nil {
		r := *v.Redemption
		r.Quantity, r.RedeemedAmount, r.RedeemedPoints = promotype.ClonePtr(r.Quantity), promotype.ClonePtr(r.RedeemedAmount), promotype.ClonePtr(r.RedeemedPoints)
		c.Redemption = &r
	}
	if l := v.ValidationRulesAssignments; l != nil {
		cl := *l
		if l.Data != nil {
			cl.Data = make([]*rule.Assignment, len(l.Data))
			for i, a := range l.Data {
				if a != nil {
					ca := *a
					ca.ProjectID = ""
					cl.Data[i] = &ca
				}
			}
		}
		c.ValidationRulesAssignments = &cl
	}
	return c
}
