package loyalty

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// MemberActivity lists the activity of the card member (code or id) of the
// program ref ("" for any program): its holder's activities in the card's
// program (points added, earned, spent, moved; the card's publication),
// newest first unless p orders otherwise. A card without holder has none.
func (s *Service) MemberActivity(ctx context.Context, projectID, ref, member string, p customer.ActivityParams) (*customer.ActivityList, error) {
	card, err := s.memberCard(ctx, projectID, ref, member)
	if err != nil {
		return nil, err
	}
	if card.HolderID == nil {
		return promotype.NewCursorList([]*customer.Activity{}, 1, func(a *customer.Activity) string { return a.ID }), nil
	}
	p.CampaignID = deref(card.CampaignID)
	return s.deps.Customers.Activities(ctx, projectID, *card.HolderID, p)
}
