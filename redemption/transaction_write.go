package redemption

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// recordMovements writes the voucher transactions of ledger rows that
// moved a card's balance (a redemption spending gift credits or loyalty
// points, a rollback giving them back) and their events, in the caller's
// transaction. Each row's Voucher is the card as the row left it; o is the
// stored order of the rows (nil: none).
func (s *RedemptionService) recordMovements(ctx context.Context, st RedeemStore, rows []*Redemption, o *order.Order) error {
	for _, r := range rows {
		sp := r.Ledger.Spend
		if r.Ledger.VoucherID == "" || r.Voucher == nil || (sp.Credits == 0 && sp.Points == 0) {
			continue
		}
		t := &Transaction{ID: s.env.IDs.NewID(PrefixTransaction), VoucherID: r.Ledger.VoucherID,
			CampaignID: r.Voucher.CampaignID, CreatedAt: r.Date, ProjectID: r.Ledger.ProjectID}
		redemptionID := r.ID
		if r.Object == ObjectRollback {
			redemptionID = deref(r.Redemption)
			t.Details.Rollback = &TxRef{ID: r.ID}
		}
		t.Details.Redemption = &TxRef{ID: redemptionID}
		if o != nil {
			t.Details.Order = &TxOrder{ID: o.ID, SourceID: promotype.ClonePtr(o.SourceID)}
		}
		bal := CardBalance(r.Voucher)
		switch {
		case sp.Credits > 0:
			t.Type, bal.Amount = TxCreditsRedemption, promotype.Ptr(-sp.Credits)
		case sp.Credits < 0:
			t.Type, bal.Amount = TxCreditsRefund, promotype.Ptr(-sp.Credits)
		case sp.Points > 0:
			t.Type, bal.Points = TxPointsRedemption, promotype.Ptr(-sp.Points)
		default:
			t.Type, bal.Points = TxPointsRefund, promotype.Ptr(-sp.Points)
		}
		if r.Reward != nil && bal.Points != nil {
			t.Details.Reward = &TxReward{ID: r.Reward.ID}
		}
		t.Details.Balance = bal
		if err := s.pointsChanged(ctx, st, r.Voucher, -sp.Points, Expiry{}, true); err != nil {
			return err
		}
		if err := s.insertMovement(ctx, st, t, r.Voucher, nil); err != nil {
			return err
		}
	}
	return nil
}

// CardBalance is the balance of gift or loyalty card v (its amounts left
// empty): what a transaction's details and a balance answer show.
func CardBalance(v *voucher.Voucher) *Balance {
	b := &Balance{Object: "balance", RelatedObject: BalanceRelated{Type: "voucher", ID: v.ID}}
	switch {
	case v.Gift != nil:
		b.Type, b.Total, b.Balance = BalanceGift, v.Gift.Amount-v.Gift.SubtractedAmount, v.Gift.Balance
	case v.LoyaltyCard != nil:
		l := v.LoyaltyCard
		b.Type, b.Total, b.Balance = BalanceLoyalty, l.Points-deref64(l.SubtractedPoints), l.Balance
	}
	return b
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// insertMovement stores transaction t of card v and appends its events:
// the card kind's transaction.created and, with added (a manual addition's
// answer), its balance or points added event, which the card holder's
// activity log records too.
func (s *RedemptionService) insertMovement(ctx context.Context, st RedeemStore, t *Transaction, v *voucher.Voucher, added *Balance) error {
	if h, ok := ctx.Value(heldKey{}).(*heldTransactions); ok {
		h.ts = append(h.ts, t) // a group transaction inserts them after its last redemption
	} else if err := st.InsertTransactions(ctx, t); err != nil {
		return err
	}
	created, addedEvent, activity, campaignType := EventGiftTransactionCreated, EventGiftBalanceAdded, customer.ActivityGiftBalanceAdded, "GIFT_VOUCHERS"
	if t.Details.Balance.Type == BalanceLoyalty {
		created, addedEvent, activity, campaignType = EventLoyaltyTransactionCreated, EventLoyaltyPointsAdded, customer.ActivityLoyaltyPointsAdded, "LOYALTY_PROGRAM"
	}
	if err := promotype.AppendEvent(ctx, st, s.env, t.ProjectID, created, t.ID, map[string]any{"voucher": v, "transaction": t}); err != nil {
		return err
	}
	if added == nil {
		return nil
	}
	ev, err := promotype.NewEvent(s.env, t.ProjectID, addedEvent, v.ID, map[string]any{"voucher": v, "balance": added, "transaction": t})
	if err != nil {
		return err
	}
	campaignID := deref(v.CampaignID)
	if campaignID == "" {
		campaignType = ""
	}
	return st.AppendEvents(ctx, ev.For(deref(v.HolderID), activity).InCampaign(campaignID, campaignType))
}
