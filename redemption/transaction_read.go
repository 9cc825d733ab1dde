package redemption

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// TransactionListParams are what GET /v1/vouchers/{code}/transactions
// accepts: limit 1–100 (default 10), order id (oldest first) or -id
// (newest first, the default), and the cursor starting_after_id.
type TransactionListParams struct {
	Limit           int
	Order           string
	StartingAfterID string
	// Filter narrows a campaign's transactions (fields id and voucher_id,
	// the string operators); a card's list takes none.
	Filter promotype.Filter
}

// TransactionList is a page of a card's (or a campaign's) transactions.
type TransactionList = promotype.CursorList[*Transaction]

// Transactions lists the transactions of the gift card or loyalty card
// with code or id ref, newest first by default. Transactions have opaque
// ids, so order "id" is the order they were made in (the hosted service's
// ids grow with time). A page that is not the last names its last
// transaction in more_starting_after, the cursor of the next.
func (s *RedemptionService) Transactions(ctx context.Context, projectID, ref string, in TransactionListParams) (*TransactionList, error) {
	p, limit, err := transactionPage(in)
	if err != nil {
		return nil, err
	}
	if len(in.Filter.Conditions) > 0 {
		return nil, promotype.InvalidQueryParams("The transactions of a voucher take no filters")
	}
	v, err := s.vouchers.Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	p.VoucherID = v.ID
	return s.transactions(ctx, projectID, p, limit, "voucher "+v.Code)
}

// transactionPage checks the list parameters and returns the store page
// (one more than the limit, to know whether there are more) and the limit.
func transactionPage(in TransactionListParams) (TransactionPage, int, error) {
	limit := in.Limit
	if limit == 0 {
		limit = promotype.DefaultLimit
	}
	if limit < 1 || limit > promotype.MaxLimit {
		return TransactionPage{}, 0, promotype.InvalidQueryParams("Property .limit must be between 1 and %d", promotype.MaxLimit)
	}
	f, err := in.Filter.Resolve(TransactionFields, promotype.Time{}) // no time fields
	if err != nil {
		return TransactionPage{}, 0, err
	}
	p := TransactionPage{AfterID: in.StartingAfterID, Limit: limit + 1, Desc: true, Filter: f}
	switch in.Order {
	case "", "-id":
	case "id":
		p.Desc = false
	default:
		return TransactionPage{}, 0, promotype.InvalidQueryParams("Property .order must be one of id, -id")
	}
	return p, limit, nil
}

// CampaignTransactions lists the transactions of the cards of the gift
// card or loyalty campaign with id or name ref (GET
// /v1/campaigns/{campaignId}/transactions), as Transactions does for one
// card; another campaign has none.
func (s *RedemptionService) CampaignTransactions(ctx context.Context, projectID, ref string, in TransactionListParams) (*TransactionList, error) {
	p, limit, err := transactionPage(in)
	if err != nil {
		return nil, err
	}
	c, err := promotype.Resolve(ctx, "campaign", ref, projectID, s.store.GetCampaign, s.store.FindCampaignByName)
	if err != nil {
		return nil, err
	}
	p.CampaignID = c.ID
	return s.transactions(ctx, projectID, p, limit, "campaign "+c.ID)
}

func (s *RedemptionService) transactions(ctx context.Context, projectID string, p TransactionPage, limit int, of string) (*TransactionList, error) {
	ts, err := s.store.ListTransactions(ctx, projectID, p)
	if errors.Is(err, promotype.ErrNotFound) && p.AfterID != "" {
		return nil, promotype.InvalidQueryParams("Property .starting_after_id must name a transaction of %s", of)
	}
	if err != nil {
		return nil, err
	}
	return promotype.NewCursorList(ts, limit, func(t *Transaction) string { return t.ID }), nil
}
