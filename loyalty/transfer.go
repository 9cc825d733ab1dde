package loyalty

import (
	"context"
	"slices"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// TransferParams is one source of a transfer (POST /v1/loyalties/
// {campaignId}/members/{memberId}/transfers takes an array of them): the
// card points come from, how many, and why.
type TransferParams struct {
	Code     string  `json:"code"`
	Points   Int     `json:"points"`
	Reason   *string `json:"reason"`
	SourceID *string `json:"source_id"`
}

// maxTransferSources bounds the sources of one transfer.
const maxTransferSources = 100

// Transfer moves points from the source cards in to the card member of
// the program ref (the destination), all of it in one transaction: each
// source gets a POINTS_TRANSFER_OUT (its subtracted points grow) and the
// destination a POINTS_TRANSFER_IN naming it (its points grow). Cards
// must have holders; a source may be of another program or customer, not
// the destination itself. More points than a source's balance is 400
// loyalty_card_points_exceeded, and nothing moves. The cards are locked in
// id order, so concurrent transfers between the same cards cannot
// deadlock. It returns the destination card after the transfer.
func (s *Service) Transfer(ctx context.Context, projectID, ref, member string, in []TransferParams) (*voucher.Voucher, error) {
	if len(in) == 0 || len(in) > maxTransferSources {
		return nil, promotype.InvalidPayload("Payload must be an array of 1 to %d transfers", maxTransferSources)
	}
	for _, t := range in {
		switch {
		case t.Code == "":
			return nil, promotype.InvalidPayload("Property .code of a transfer is required")
		case t.Points < 1 || t.Points > MaxPoints:
			return nil, promotype.InvalidPayload("Property .points of a transfer must be between 1 and %d", int64(MaxPoints))
		}
	}
	campaignID, err := s.programID(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	var out *voucher.Voucher
	err = s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		dest, err := cardIn(ctx, s.deps.Vouchers, st, projectID, campaignID, member)
		if err != nil {
			return err
		}
		sources := make([]*voucher.Voucher, len(in))
		ids := []string{dest.ID}
		for i, t := range in {
			if sources[i], err = cardIn(ctx, s.deps.Vouchers, st, projectID, "", t.Code); err != nil {
				return err
			}
			if sources[i].ID == dest.ID {
				return promotype.InvalidPayload("A card cannot transfer points to itself (%s)", t.Code)
			}
			ids = append(ids, sources[i].ID)
		}
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			if err := st.LockVoucher(ctx, projectID, id); err != nil {
				return err
			}
		}
		for i, t := range in {
			if err := s.transferOne(ctx, st, projectID, sources[i].ID, dest.ID, t); err != nil {
				return err
			}
		}
		out, err = st.GetVoucher(ctx, projectID, dest.ID)
		if err != nil {
			return err
		}
		out, err = s.deps.Vouchers.Present(ctx, st, out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// transferOne moves t.Points from card sourceID to card destID (both
// locked) in st's transaction.
func (s *Service) transferOne(ctx context.Context, st ServiceStore, projectID, sourceID, destID string, t TransferParams) error {
	src, err := st.GetVoucher(ctx, projectID, sourceID)
	if err != nil {
		return err
	}
	dst, err := st.GetVoucher(ctx, projectID, destID)
	if err != nil {
		return err
	}
	for _, c := range []*voucher.Voucher{src, dst} {
		if c.HolderID == nil || *c.HolderID == "" {
			return promotype.BadRequest("invalid_customer", "Invalid customer", "Customer must be a holder of a loyalty card (%s).", c.Code)
		}
	}
	if src.LoyaltyCard == nil || src.LoyaltyCard.Balance < int64(t.Points) {
		return promotype.BadRequest("loyalty_card_points_exceeded", "loyalty card points exceeded", "%s", src.Code)
	}
	outID, inID := s.env.IDs.NewID(redemption.PrefixTransaction), s.env.IDs.NewID(redemption.PrefixTransaction)
	srcAfter, _, err := s.deps.Redemptions.Move(ctx, st, projectID, src.ID, redemption.Movement{ID: outID, RelatedTransactionID: &inID,
		Amount: -int64(t.Points), Type: redemption.TxPointsTransferOut, Operation: redemption.OperationManual,
		Source: promotype.Ptr(redemption.SourceAPI), Reason: t.Reason, SourceID: t.SourceID,
		Details: redemption.TransactionDetails{DestinationVoucher: txCard(dst, int64(t.Points))}})
	if err != nil {
		return err
	}
	_, _, err = s.deps.Redemptions.Move(ctx, st, projectID, dst.ID, redemption.Movement{ID: inID, RelatedTransactionID: &outID,
		Amount: int64(t.Points), Type: redemption.TxPointsTransferIn, Operation: redemption.OperationManual,
		Source: promotype.Ptr(redemption.SourceAPI), Reason: t.Reason, SourceID: t.SourceID,
		Details: redemption.TransactionDetails{SourceVoucher: txCard(srcAfter, 0)}})
	return err
}

// txCard is card v as a transfer's transaction names it, with delta
// points still to arrive on it.
func txCard(v *voucher.Voucher, delta int64) *redemption.TxCard {
	c := &redemption.TxCard{ID: v.ID, Code: v.Code, Type: string(v.Type), Campaign: promotype.ClonePtr(v.Campaign),
		CampaignID: promotype.ClonePtr(v.CampaignID), IsReferralCode: v.IsReferralCode}
	if v.LoyaltyCard != nil {
		c.LoyaltyCard = &redemption.TxCardLoyalty{Points: v.LoyaltyCard.Points + delta, Balance: v.LoyaltyCard.Balance + delta}
	}
	return c
}
