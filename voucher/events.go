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
	c, err := s.eventCampaign(ctx, st, v, nil)
	if err != nil {
		return nil, err
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

// eventCampaign is the campaign of v as its events show it (PresentFull;
// nil for a voucher without one or whose campaign is gone), read through
// st once per cache (nil: no cache).
func (s *Service) eventCampaign(ctx context.Context, st ServiceStore, v *Voucher, cache map[string]*campaign.Campaign) (*campaign.Campaign, error) {
	if v.CampaignID == nil {
		return nil, nil
	}
	if c, ok := cache[*v.CampaignID]; ok {
		return c, nil
	}
	c, err := st.GetCampaign(ctx, v.ProjectID, *v.CampaignID)
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
	if cache != nil {
		cache[*v.CampaignID] = c
	}
	return c, nil
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

// EmitCreated records voucher.created for vouchers vs of project projectID
// just stored through st by an import (the caller's transaction), each
// with the payload of a voucher created alone (data {voucher, campaign},
// as emit writes it); vs are presented in place. Nothing is built when no
// active webhook configuration of the project lists voucher.created, so
// an import without listeners costs one read per call.
func (s *Service) EmitCreated(ctx context.Context, st ServiceStore, projectID string, vs []*Voucher) error {
	if len(vs) == 0 {
		return nil
	}
	if ok, err := st.Heard(ctx, projectID, EventCreated, s.env.Clock.Now()); err != nil || !ok {
		return err
	}
	if err := s.fillAssignments(ctx, st, projectID, vs); err != nil {
		return err
	}
	p := presenter{s: s, st: st, campaigns: map[string]*string{}, categories: map[string]*campaign.Category{}}
	camps := map[string]*campaign.Campaign{}
	evs := make([]*promotype.Event, 0, len(vs))
	for _, v := range vs {
		if err := p.present(ctx, v); err != nil {
			return err
		}
		c, err := s.eventCampaign(ctx, st, v, camps)
		if err != nil {
			return err
		}
		ev, err := promotype.NewEvent(s.env, projectID, EventCreated, v.ID, map[string]any{"voucher": v, "campaign": c})
		if err != nil {
			return err
		}
		evs = append(evs, ev)
	}
	return st.AppendEvents(ctx, evs...)
}

// Kept returns the vouchers of vs an insert stored: all but those at the
// indexes rejected (InsertVouchers' answer); vs itself when none was.
func Kept(vs []*Voucher, rejected []int) []*Voucher {
	if len(rejected) == 0 {
		return vs
	}
	taken := make([]bool, len(vs))
	for _, k := range rejected {
		taken[k] = true
	}
	out := make([]*Voucher, 0, len(vs)-len(rejected))
	for k, v := range vs {
		if !taken[k] {
			out = append(out, v)
		}
	}
	return out
}
