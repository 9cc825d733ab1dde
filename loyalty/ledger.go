package loyalty

import (
	"context"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// Expiration types of a manual point addition.
const (
	ExpireByProgramRules = "PROGRAM_RULES"
	NonExpiring          = "NON_EXPIRING"
	ExpireOnCustomDate   = "CUSTOM_DATE"
)

// BalanceParams is the body of POST /v1/loyalties/{campaignId}/members/
// {memberId}/balance: points to add to a member's card, or, negative, to
// remove from it.
type BalanceParams struct {
	Points Int `json:"points"`
	// ExpirationType says when added points expire: PROGRAM_RULES (the
	// default: by the program's expiration_rules), NON_EXPIRING, or
	// CUSTOM_DATE: at the end of ExpirationDate (YYYY-MM-DD, today or
	// later, in the project's time zone).
	ExpirationType string  `json:"expiration_type"`
	ExpirationDate *string `json:"expiration_date"`
	Reason         *string `json:"reason"`
	SourceID       *string `json:"source_id"`
}

// AddBalance adds in.Points to the card member (code or id) of the program
// ref ("" for any program), or removes them when negative, and answers the
// card's balance after the change: a POINTS_ADDITION or POINTS_REMOVAL
// transaction written in the same transaction. A card without holder, a
// removal beyond the balance and 0 points are refused (400); an unknown
// card, or one of another program, is 404.
func (s *Service) AddBalance(ctx context.Context, projectID, ref, member string, in BalanceParams) (*redemption.Balance, error) {
	switch {
	case in.Points == 0:
		return nil, promotype.InvalidPayload("Property .points must be a whole number other than 0")
	case in.Points > MaxPoints || in.Points < -MaxPoints:
		return nil, promotype.InvalidPayload("Property .points must be between %d and %d", -int64(MaxPoints), int64(MaxPoints))
	}
	var expiry redemption.Expiry
	switch in.ExpirationType {
	case "", ExpireByProgramRules, NonExpiring:
		if in.ExpirationDate != nil {
			return nil, promotype.InvalidPayload("Property .expiration_date is allowed only with expiration_type CUSTOM_DATE")
		}
		expiry.Never = in.ExpirationType == NonExpiring
	case ExpireOnCustomDate:
		on, err := s.customExpiry(ctx, projectID, in.ExpirationDate)
		if err != nil {
			return nil, err
		}
		expiry.On = on
	default:
		return nil, promotype.InvalidPayload("Property .expiration_type must be one of PROGRAM_RULES, CUSTOM_DATE, NON_EXPIRING")
	}
	if in.Points < 0 {
		expiry = redemption.Expiry{}
	}
	campaignID, err := s.programID(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	var out *redemption.Balance
	err = s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		card, err := cardIn(ctx, s.deps.Vouchers, st, projectID, campaignID, member)
		if err != nil {
			return err
		}
		_, out, err = s.deps.Redemptions.Move(ctx, st, projectID, card.ID, redemption.Movement{Amount: int64(in.Points),
			SourceID: in.SourceID, Source: promotype.Ptr(redemption.SourceAPI), Reason: in.Reason, Operation: redemption.OperationManual,
			Expiry: expiry})
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Points, out.Amount = out.Amount, nil // a loyalty answer names the points moved points
	return out, nil
}

// customExpiry checks a CUSTOM_DATE addition's expiration date (YYYY-MM-DD,
// or a timestamp whose date is taken): present, and not before today in
// the project's time zone.
func (s *Service) customExpiry(ctx context.Context, projectID string, date *string) (string, error) {
	if date == nil || *date == "" {
		return "", promotype.BadRequest("invalid_expiration_date", "Invalid Expiration Date", "Property .expiration_date is required with expiration_type CUSTOM_DATE")
	}
	on := *date
	if len(on) > len(dateLayout) {
		on = on[:len(dateLayout)]
	}
	if _, err := time.Parse(dateLayout, on); err != nil {
		return "", promotype.InvalidPayload("Property .expiration_date cannot be recognized as a ISO-8601 compliant date")
	}
	loc, err := s.location(ctx, s.store, projectID)
	if err != nil {
		return "", err
	}
	if on < s.env.Clock.Now().In(loc).Format(dateLayout) {
		return "", promotype.BadRequest("invalid_expiration_date", "Invalid Expiration Date", "Expiration date cannot be set in the past")
	}
	return on, nil
}

// Transactions lists the ledger of the card member of the program ref
// ("" for any program), newest first.
func (s *Service) Transactions(ctx context.Context, projectID, ref, member string, in redemption.TransactionListParams) (*redemption.TransactionList, error) {
	card, err := s.memberCard(ctx, projectID, ref, member)
	if err != nil {
		return nil, err
	}
	return s.deps.Redemptions.Transactions(ctx, projectID, card.ID, in)
}

// ProgramTransactions lists the ledger of every card of the program ref.
func (s *Service) ProgramTransactions(ctx context.Context, projectID, ref string, in redemption.TransactionListParams) (*redemption.TransactionList, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.deps.Redemptions.CampaignTransactions(ctx, projectID, c.ID, in)
}

// programID is the id of the program ref, "" for ref "".
func (s *Service) programID(ctx context.Context, projectID, ref string) (string, error) {
	if ref == "" {
		return "", nil
	}
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return "", err
	}
	return c.ID, nil
}
