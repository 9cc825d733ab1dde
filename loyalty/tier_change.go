package loyalty

import (
	"context"
	"slices"

	"github.com/promoengine/promo/promotype"
)

// TierChange is a change of the tier a member holds that earning rules on
// its tier event have yet to earn on. The change's transaction records it
// (the points cannot be moved inside the change that moves the card's
// points), and the scheduler earns on it after that transaction commits,
// once: it deletes the change in the transaction that earns.
type TierChange struct {
	ProjectID  string
	ID         string // the id of the change's activity
	VoucherID  string
	CustomerID string
	CampaignID string
	// TierID is the tier the member holds after the change, or the one
	// they left.
	TierID    string
	Event     string // a tier event
	CreatedAt promotype.Time
}

// tierChangePage is how many changes one transaction earns on.
const tierChangePage = 100

// hearsTierEvent reports whether a rule of pr earns on event for a tier
// of program campaignID: a rule on that event naming the tier, or any
// tier of its own program.
func (pr *projectRules) hearsTierEvent(event, campaignID, tierID string) bool {
	return slices.ContainsFunc(pr.rules, func(r *EarningRule) bool { return r.hearsTier(event, campaignID, tierID) })
}

// hearsTier reports whether rule r earns on event for tier tierID of
// program campaignID.
func (r *EarningRule) hearsTier(event, campaignID, tierID string) bool {
	return r.Event == event && r.LoyaltyTier != nil &&
		(r.LoyaltyTier.ID == tierID || (r.LoyaltyTier.ID == AnyTier && r.CampaignID() == campaignID))
}

// EarnTierChanges earns, up to limit, on the project's recorded tier
// changes, oldest first, and reports how many it took: each change in a
// transaction that deletes it (of replicas reading the same change, one
// deletes it and earns; the others earn nothing), in which every active
// rule on its event for its tier credits the member's card of the rule's
// program, as Triggered does for other events.
func (s *Service) EarnTierChanges(ctx context.Context, projectID string, limit int) (int, error) {
	changes, err := s.store.TierChanges(ctx, projectID, min(limit, tierChangePage))
	if err != nil || len(changes) == 0 {
		return 0, err
	}
	n := 0
	for _, c := range changes {
		err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
			taken, err := st.DeleteTierChange(ctx, projectID, c.ID)
			if !taken || err != nil {
				return err
			}
			return s.earnTierChange(ctx, st, c)
		})
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// earnTierChange earns on change c in st's transaction.
func (s *Service) earnTierChange(ctx context.Context, st ServiceStore, c *TierChange) error {
	pr, err := s.projectRules(ctx, st, c.ProjectID)
	if err != nil {
		return err
	}
	ev := &promotype.Event{ID: c.ID, ProjectID: c.ProjectID, Type: c.Event, EntityID: c.CustomerID, CreatedAt: c.CreatedAt}
	e := earning{s: s, st: st, projectID: c.ProjectID, customerID: c.CustomerID, event: ev, sourceID: c.ID, eventType: c.Event,
		programs: pr.programs, tiers: pr.tiers}
	for _, r := range pr.rules {
		if !r.hearsTier(c.Event, c.CampaignID, c.TierID) {
			continue
		}
		if err := e.earn(ctx, r); err != nil {
			return err
		}
	}
	return nil
}
