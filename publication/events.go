package publication

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// The webhook events a publication writes to the outbox, in its
// transaction, spelled as webhook.Events spells them.
const (
	// EventVoucherPublished is written once per published voucher, with
	// data {customer, campaign, publication, voucher, created_at}.
	EventVoucherPublished = "voucher.published"
	// EventSucceeded is written once per publication, with the same data
	// (voucher: the first published voucher).
	EventSucceeded = "publication.succeeded"
)

// emit appends the events of publication p (presented) of vouchers vs of
// campaign c (nil for a voucher without one) through st; publication.succeeded
// enters the customer's activity log.
func (s *Service) emit(ctx context.Context, st ServiceStore, p *Publication, c *campaign.Campaign, vs []*voucher.Voucher) error {
	var pc *campaign.Campaign
	if c != nil {
		var err error
		if pc, err = s.campaigns.PresentFull(ctx, st, c); err != nil {
			return err
		}
	}
	events := make([]*promotype.Event, 0, len(vs)+1)
	var first *voucher.Voucher
	for _, v := range vs {
		pv := p.Voucher
		if pv == nil || pv.ID != v.ID {
			var err error
			if pv, err = s.vouchers.Present(ctx, st, v); err != nil {
				return err
			}
		}
		ev, err := promotype.NewEvent(s.env, p.ProjectID, EventVoucherPublished, v.ID, eventData(p, pc, pv))
		if err != nil {
			return err
		}
		events = append(events, ev)
		if first == nil {
			first = pv
		}
	}
	ev, err := promotype.NewEvent(s.env, p.ProjectID, EventSucceeded, p.ID, eventData(p, pc, first))
	if err != nil {
		return err
	}
	ev.For(p.CustomerID, customer.ActivityPublicationSucceeded)
	if c != nil {
		ev.InCampaign(c.ID, string(c.CampaignType))
	}
	return st.AppendEvents(ctx, append(events, ev)...)
}

func eventData(p *Publication, c *campaign.Campaign, v *voucher.Voucher) map[string]any {
	return map[string]any{"customer": p.Customer, "campaign": c, "publication": p, "voucher": v, "created_at": p.CreatedAt}
}
