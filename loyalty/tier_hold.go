package loyalty

import (
	"context"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// TierHold is a loyalty card's hold of a tier of its program: from
// StartDate, until ExpirationDate (nil: as long as what qualifies for it
// stays in its range). A card holds at most one tier. Dates are days
// (YYYY-MM-DD) in the project's time zone.
type TierHold struct {
	ProjectID      string
	VoucherID      string
	CampaignID     string
	CustomerID     string
	TierID         string
	StartDate      string
	ExpirationDate *string
	// Due is the instant the hold ends (the start of the day after
	// ExpirationDate), when the scheduler computes it again; nil: never.
	Due       *promotype.Time
	CreatedAt promotype.Time
	UpdatedAt promotype.Time
}

// Clone returns a copy of h.
func (h *TierHold) Clone() *TierHold {
	c := *h
	c.ExpirationDate = promotype.ClonePtr(h.ExpirationDate)
	c.Due = promotype.ClonePtr(h.Due)
	return &c
}

// expiration is the hold as a member's tier shows it.
func (h *TierHold) expiration() *TierExpiration {
	start := h.StartDate
	return &TierExpiration{CustomerID: h.CustomerID, CampaignID: h.CampaignID, TierID: h.TierID, StartDate: &start,
		ExpirationDate: promotype.ClonePtr(h.ExpirationDate), CreatedAt: h.CreatedAt, UpdatedAt: promotype.Ptr(h.UpdatedAt)}
}

// tierEvent is the data of a customer.loyalty.tier.* activity.
type tierEvent struct {
	Customer    map[string]any  `json:"customer"`
	Campaign    map[string]any  `json:"campaign"`
	Voucher     map[string]any  `json:"voucher"`
	LoyaltyTier *Tier           `json:"loyalty_tier,omitempty"`
	From        *Tier           `json:"loyalty_tier_from,omitempty"`
	Expiration  *TierExpiration `json:"expiration,omitempty"`
}

// heldTier is the tier card holds today (nil: none), as its stored hold
// says; a hold that starts in a later period does not count yet.
func (s *Service) heldTier(ctx context.Context, st ServiceStore, tiers []*Tier, card *voucher.Voucher) (*Tier, error) {
	if len(tiers) == 0 {
		return nil, nil
	}
	h, err := st.GetTierHold(ctx, card.ProjectID, card.ID)
	if h == nil || err != nil {
		return nil, err
	}
	p, err := st.GetProject(ctx, card.ProjectID)
	if err != nil {
		return nil, err
	}
	if h.StartDate > s.env.Clock.Now().In(p.Location()).Format(dateLayout) {
		return nil, nil
	}
	for _, t := range tiers {
		if t.ID == h.TierID {
			return t, nil
		}
	}
	return nil, nil
}

// retier computes, in st's transaction, the tier card holds after a change
// of its points (or when its hold ended), stores the hold, and records the
// change as a customer.loyalty.tier.* activity of its holder. With
// refresh, a tier kept gets the end its program's settings give it now
// (no activity). A card of a program without tiers costs nothing.
func (s *Service) retier(ctx context.Context, st ServiceStore, card *voucher.Voucher, refresh bool) error {
	cid := deref(card.CampaignID)
	if card.LoyaltyCard == nil || cid == "" {
		return nil
	}
	pr, err := s.projectRules(ctx, st, card.ProjectID)
	if err != nil {
		return err
	}
	tiers := pr.tiers[cid]
	if len(tiers) == 0 {
		return nil
	}
	x := pr.tierRules[cid]
	stored, err := st.GetTierHold(ctx, card.ProjectID, card.ID)
	if err != nil {
		return err
	}
	p, err := st.GetProject(ctx, card.ProjectID)
	if err != nil {
		return err
	}
	loc := p.Location()
	now := s.env.Clock.Now()
	today := civil(now.In(loc).Date())
	var cur *hold
	if stored != nil {
		for _, t := range tiers {
			if t.ID == stored.TierID {
				cur = storedHold(t, stored)
			}
		}
	}
	value := card.LoyaltyCard.Balance
	if x.QualificationType == QualifyPointsInPeriod {
		from := periodStart(today, periodMonths[x.QualificationPeriod])
		start := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc)
		if value, err = st.CollectedPoints(ctx, card.ProjectID, card.ID, promotype.Time{Time: start.UTC()}); err != nil {
			return err
		}
	}
	next, change := x.nextHold(tiers, cur, value, today)
	if change == "" && refresh && cur != nil && !x.startsNextPeriod() {
		if h := x.holdFrom(cur.tier, cur.start); !sameDay(h.end, cur.end) {
			next = &h
		}
	}
	if change == "" && next == cur {
		if stored != nil && cur == nil { // its tier is gone
			return st.DeleteTierHold(ctx, card.ProjectID, card.ID)
		}
		return nil
	}
	var h *TierHold
	if next == nil {
		if err := st.DeleteTierHold(ctx, card.ProjectID, card.ID); err != nil {
			return err
		}
	} else {
		h = &TierHold{ProjectID: card.ProjectID, VoucherID: card.ID, CampaignID: cid, CustomerID: deref(card.HolderID),
			TierID: next.tier.ID, StartDate: next.start.Format(dateLayout), CreatedAt: now, UpdatedAt: now}
		if stored != nil {
			h.CreatedAt = stored.CreatedAt
		}
		if next.end != nil {
			on := next.end.Format(dateLayout)
			due, err := dueAfter(on, loc)
			if err != nil {
				return err
			}
			h.ExpirationDate, h.Due = &on, &due
		}
		if err := st.PutTierHold(ctx, h); err != nil {
			return err
		}
	}
	if change == "" {
		return nil
	}
	return s.tierChanged(ctx, st, card, change, cur, next, h, pr.hearsTierEvent)
}

// sameDay reports whether two optional days are equal.
func sameDay(a, b *time.Time) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && a.Equal(*b))
}

// storedHold is the stored hold h of tier t.
func storedHold(t *Tier, h *TierHold) *hold {
	start, _ := time.Parse(dateLayout, h.StartDate)
	out := &hold{tier: t, start: start}
	if h.ExpirationDate != nil {
		if end, err := time.Parse(dateLayout, *h.ExpirationDate); err == nil {
			out.end = &end
		}
	}
	return out
}

// tierChanged records a change of the tier card holds in its holder's
// activity (customer.loyalty.tier.<change>), and, when a rule earns on it
// (heard), as a TierChange to earn on.
func (s *Service) tierChanged(ctx context.Context, st ServiceStore, card *voucher.Voucher, change string, from, to *hold, h *TierHold,
	heard func(event, campaignID, tierID string) bool) error {
	holder := deref(card.HolderID)
	if holder == "" {
		return nil
	}
	cid := deref(card.CampaignID)
	data := tierEvent{
		Customer: map[string]any{"id": holder, "object": "customer"},
		Campaign: map[string]any{"id": cid, "object": "campaign"},
		Voucher:  map[string]any{"id": card.ID, "code": card.Code, "object": "voucher"},
	}
	if to != nil {
		data.LoyaltyTier = to.tier.Clone().normalize()
		data.Expiration = h.expiration()
	}
	if from != nil && (to == nil || from.tier.ID != to.tier.ID) {
		data.From = from.tier.Clone().normalize()
	}
	typ := "customer.loyalty.tier." + change
	ev, err := promotype.NewEvent(s.env, card.ProjectID, typ, holder, data)
	if err != nil {
		return err
	}
	if err := st.AppendEvents(ctx, ev.For(holder, typ).InCampaign(cid, string(campaign.LoyaltyProgram))); err != nil {
		return err
	}
	tier := from
	if to != nil {
		tier = to
	}
	if !heard(typ, cid, tier.tier.ID) {
		return nil
	}
	return st.InsertTierChanges(ctx, &TierChange{ProjectID: card.ProjectID, ID: ev.ID, VoucherID: card.ID, CustomerID: holder,
		CampaignID: cid, TierID: tier.tier.ID, Event: typ, CreatedAt: ev.CreatedAt})
}
