package voucher

import (
	"context"
	"errors"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// The webhook events the voucher service writes to the outbox, spelled as
// webhook.Events spells them.
const (
	EventCreated  = "voucher.created"
	EventUpdated  = "voucher.updated"
	EventEnabled  = "voucher.enabled"
	EventDisabled = "voucher.disabled"
	EventDeleted  = "voucher.deleted"
)

// metaVoucher is the metadata schema (related_object) of vouchers.
const metaVoucher = "voucher"

// CheckMetadata checks voucher metadata m, when given, against the
// project's voucher metadata schema (400 metadata_validation_failed). It
// reads the schema: call it outside transactions.
func (s *Service) CheckMetadata(ctx context.Context, projectID string, m promotype.Metadata) error {
	if m == nil {
		return nil
	}
	return s.env.CheckMeta(ctx, projectID, metaVoucher, m)
}

// emit presents v (Present, through st) and appends an event about it
// through st, the change's transaction: data {voucher, campaign}, both as
// the API shows them (campaign null for a voucher without one). The
// deletion of a held voucher enters its holder's activity log. It returns
// v.
func (s *Service) emit(ctx context.Context, st ServiceStore, typ string, v *Voucher) (*Voucher, error) {
	if _, err := s.Present(ctx, st, v); err != nil {
		return nil, err
	}
	var c *campaign.Campaign
	if v.CampaignID != nil {
		var err error
		c, err = st.GetCampaign(ctx, v.ProjectID, *v.CampaignID)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			c = nil
		case err != nil:
			return nil, err
		default:
			if c, err = s.campaigns.PresentFull(ctx, st, c); err != nil {
				return nil, err
			}
		}
	}
	ev, err := promotype.NewEvent(s.env, v.ProjectID, typ, v.ID, map[string]any{"voucher": v, "campaign": c})
	if err != nil {
		return nil, err
	}
	if typ == EventDeleted && v.HolderID != nil {
		ev.For(*v.HolderID, customer.ActivityVoucherDeleted)
		if c != nil {
			ev.InCampaign(c.ID, string(c.CampaignType))
		}
	}
	return v, st.AppendEvents(ctx, ev)
}

// created records the events of a voucher just created through st:
// voucher.created, and campaign.vouchers.aded (count 1) when it joined a
// campaign. It returns v presented.
func (s *Service) created(ctx context.Context, st ServiceStore, v *Voucher) (*Voucher, error) {
	v, err := s.emit(ctx, st, EventCreated, v)
	if err != nil || v.CampaignID == nil {
		return v, err
	}
	return v, s.campaigns.EmitCampaignByID(ctx, st, campaign.EventVouchersAdded, v.ProjectID, *v.CampaignID, map[string]any{"count": 1})
}

// related is v as the related object of its rule assignments, as the API
// shows it (v is not changed).
func (s *Service) related(ctx context.Context, st ServiceStore, v *Voucher) (rule.Related, error) {
	pv, err := s.Present(ctx, st, v.Clone())
	return rule.Related{Type: rule.RelatedVoucher, ID: v.ID, Object: pv}, err
}
