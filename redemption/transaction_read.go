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
}

// TransactionList is a page of a card's transactions.
type TransactionList struct {
	Object            string         `json:"object"`
	DataRef           string         `json:"data_ref"`
	Data              []*Transaction `json:"data"`
	HasMore           bool           `json:"has_more"`
	MoreStartingAfter *string        `json:"more_starting_after"`
}

// Transactions lists the transactions of the gift card or loyalty card
// with code or id ref, newest first by default. Transactions have opaque
// ids, so order "id" is the order they were made in (the hosted service's
// ids grow with time). A page that is not the last names its last
// transaction in more_starting_after, the cursor of the next.
func (s *RedemptionService) Transactions(ctx context.Context, projectID, ref string, in TransactionListParams) (*TransactionList, error) {
	limit := in.Limit
	if limit == 0 {
		limit = promotype.DefaultLimit
	}
	if limit < 1 || limit > promotype.MaxLimit {
		return nil, promotype.InvalidQueryParams("Property .limit must be between 1 and %d", promotype.MaxLimit)
	}
	p := TransactionPage{AfterID: in.StartingAfterID, Limit: limit + 1, Desc: true}
	switch in.Order {
	case "", "-id":
	case "id":
		p.Desc = false
	default:
		return nil, promotype.InvalidQueryParams("Property .order must be one of id, -id")
	}
	v, err := s.vouchers.Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	ts, err := s.store.ListTransactions(ctx, projectID, v.ID, p)
	if errors.Is(err, promotype.ErrNotFound) && p.AfterID != "" {
		return nil, promotype.InvalidQueryParams("Property .starting_after_id must name a transaction of voucher %s", v.Code)
	}
	if err != nil {
		return nil, err
	}
	out := &TransactionList{Object: "list", DataRef: "data", Data: ts}
	if len(ts) > limit {
		out.Data, out.HasMore = ts[:limit], true
		out.MoreStartingAfter = &ts[limit-1].ID
	}
	return out, nil
}
