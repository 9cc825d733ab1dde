package redemption

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// BalanceParams is the body of POST /v1/vouchers/{code}/balance: the
// credits (gift card, cents) or points (loyalty card) to add, negative to
// remove, with the caller's own transaction id and reason.
type BalanceParams struct {
	Amount   *int64  `json:"amount"`
	SourceID *string `json:"source_id"`
	Reason   *string `json:"reason"`
}

// SourceAPI is the source of a transaction made through the API.
const SourceAPI = "API"

// OperationManual is the operation type of a manual balance change.
const OperationManual = "MANUAL"

// AddBalance adds in.Amount to (or, negative, removes it from) the balance
// of the gift card or loyalty card with code or id ref, in
// one transaction with its voucher transaction (CREDITS_ADDITION /
// CREDITS_REMOVAL, POINTS_ADDITION / POINTS_REMOVAL) and its events. An
// addition raises the card's lifetime amount (points), a removal its
// subtracted amount (points); the answer's total is their difference. The
// card's row is locked, so a concurrent redemption spends from the new
// balance and neither change is lost. A removal larger than the balance,
// a card of another type and a loyalty card without holder are refused
// with 400 invalid_add_balance_params; an unknown card is a 404.
func (s *RedemptionService) AddBalance(ctx context.Context, projectID, ref string, in BalanceParams) (*Balance, error) {
	switch {
	case in.Amount == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'amount'")
	case *in.Amount == 0:
		return nil, invalidBalance("Property .amount must not be 0")
	case *in.Amount > order.MaxAmount || *in.Amount < -order.MaxAmount:
		return nil, promotype.InvalidPayload("Property .amount must be between %d and %d", -order.MaxAmount, order.MaxAmount)
	}
	var out *Balance
	err := s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		v, err := s.vouchers.Resolve(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		_, out, err = s.Move(ctx, st, projectID, v.ID, Movement{Amount: *in.Amount, SourceID: in.SourceID,
			Source: promotype.Ptr(SourceAPI), Reason: in.Reason, Operation: OperationManual})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Movement is one change of a card's balance that another use case makes
// in its own transaction (Move): a manual change, or loyalty points an
// earning rule gives.
type Movement struct {
	// Amount is the credits (gift card) or points (loyalty card) to add;
	// negative removes them. It must not be 0.
	Amount int64
	// Type is the transaction type when it is not the manual one the
	// sign gives (POINTS_ADDITION / POINTS_REMOVAL, CREDITS_...): an
	// addition of points named otherwise (POINTS_ACCRUAL).
	Type string
	// Operation is the answer's operation_type (MANUAL, AUTOMATIC).
	Operation                string
	SourceID, Source, Reason *string
	// Details are the transaction's details besides its balance.
	Details TransactionDetails
	// ID is the transaction's id ("": a new one); RelatedTransactionID
	// names the other transaction of a pair (a transfer's).
	ID                   string
	RelatedTransactionID *string
	// PendingDelta changes the loyalty card's pending points in the same
	// update (an activation takes its points out of them).
	PendingDelta int64
	// Expiry says when loyalty points added expire (the zero value: as
	// the card's program says).
	Expiry Expiry
}

// Move applies m to the card cardID in st's transaction: it locks the
// card's row (so a concurrent redemption spends from the new balance and
// neither change is lost), changes its balance, writes the voucher
// transaction and appends its events. It returns the card as the change
// left it (presented) and the balance the change answers. A removal
// larger than the balance, a card of another type and a loyalty card
// without holder are refused with 400 invalid_add_balance_params.
func (s *RedemptionService) Move(ctx context.Context, st RedeemStore, projectID, cardID string, m Movement) (*voucher.Voucher, *Balance, error) {
	v, err := st.GetVoucherForUpdate(ctx, projectID, cardID)
	if err != nil {
		return nil, nil, err
	}
	typ, err := changeBalance(v, m.Amount, s.env.Clock.Now())
	if err != nil {
		return nil, nil, err
	}
	if m.PendingDelta != 0 && v.LoyaltyCard != nil {
		v.LoyaltyCard.PendingPoints = promotype.Ptr(deref64(v.LoyaltyCard.PendingPoints) + m.PendingDelta)
	}
	if m.Type != "" {
		typ = m.Type
	}
	if err := s.pointsChanged(ctx, st, v, m.Amount, m.Expiry, false); err != nil {
		return nil, nil, err
	}
	if err := st.UpdateVoucher(ctx, v); err != nil {
		return nil, nil, err
	}
	shown, err := s.vouchers.Present(ctx, st, v.Clone())
	if err != nil {
		return nil, nil, err
	}
	out := CardBalance(shown)
	out.Amount, out.OperationType = promotype.Ptr(m.Amount), m.Operation
	if m.ID == "" {
		m.ID = s.env.IDs.NewID(PrefixTransaction)
	}
	t := &Transaction{ID: m.ID, SourceID: m.SourceID, VoucherID: v.ID,
		CampaignID: promotype.ClonePtr(v.CampaignID), Source: m.Source, Reason: m.Reason, RelatedTransactionID: m.RelatedTransactionID,
		Type: typ, Details: m.Details, CreatedAt: s.env.Clock.Now(), ProjectID: projectID}
	t.Details.Balance = CardBalance(shown)
	if m.Type != "" { // the ledger of manual changes has answered without it
		t.Details.Balance.OperationType = m.Operation
	}
	if out.Type == BalanceLoyalty {
		t.Details.Balance.Points = promotype.Ptr(m.Amount)
	} else {
		t.Details.Balance.Amount = promotype.Ptr(m.Amount)
	}
	var added *Balance
	if m.Amount > 0 {
		added = out
	}
	if err := s.insertMovement(ctx, st, t, shown, added); err != nil {
		return nil, nil, err
	}
	return shown, out, nil
}

func invalidBalance(format string, args ...any) error {
	return promotype.BadRequest("invalid_add_balance_params", "Invalid add balance params", format, args...)
}

// changeBalance applies amount to card v (locked and read in the caller's
// transaction) and returns the transaction type it makes.
func changeBalance(v *voucher.Voucher, amount int64, now promotype.Time) (string, error) {
	v.UpdatedAt = &now
	switch {
	case v.Type == campaign.GiftVoucher && v.Gift != nil:
		g := v.Gift
		if amount < 0 {
			if g.Balance+amount < 0 {
				return "", invalidBalance("Cannot subtract %d from the balance %d of voucher %s", -amount, g.Balance, v.Code)
			}
			g.SubtractedAmount -= amount
			g.Balance += amount
			return TxCreditsRemoval, nil
		}
		if g.Amount > maxBalance-amount || g.Balance > maxBalance-amount {
			return "", invalidBalance("The balance of voucher %s cannot exceed %d", v.Code, maxBalance)
		}
		g.Amount += amount
		g.Balance += amount
		return TxCreditsAddition, nil
	case v.Type == campaign.LoyaltyCard && v.LoyaltyCard != nil:
		if v.HolderID == nil || *v.HolderID == "" {
			return "", invalidBalance("Loyalty card %s must be assigned to a holder", v.Code)
		}
		l := v.LoyaltyCard
		if amount < 0 {
			if l.Balance+amount < 0 {
				return "", invalidBalance("Cannot subtract %d points from the balance %d of loyalty card %s", -amount, l.Balance, v.Code)
			}
			l.SubtractedPoints = promotype.Ptr(deref64(l.SubtractedPoints) - amount)
			l.Balance += amount
			return TxPointsRemoval, nil
		}
		if l.Points > maxBalance-amount || l.Balance > maxBalance-amount {
			return "", invalidBalance("The balance of loyalty card %s cannot exceed %d", v.Code, maxBalance)
		}
		l.Points += amount
		l.Balance += amount
		return TxPointsAddition, nil
	}
	return "", invalidBalance("Voucher %s is neither a gift card nor a loyalty card", v.Code)
}

// maxBalance bounds a card's lifetime amount and balance, so that no sum
// of them overflows.
const maxBalance = int64(1) << 53
