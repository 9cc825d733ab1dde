package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/redemption"
)

// transactionRoutes are the balances of gift and loyalty cards: the manual
// balance change and the transaction ledger of a card (scope vouchers; a
// card is addressed by code or id) or of a campaign's cards (scope
// campaigns; the campaign by id or name).
func (s *server) transactionRoutes() []route {
	red := s.engine.Redemptions()
	return []route{
		{http.MethodPost, "/v1/vouchers/{code}/balance", appKey, withBody(func(c *call, in redemption.BalanceParams) (*redemption.Balance, error) {
			return red.AddBalance(c.ctx(), c.projectID, c.path("code"), in)
		})},
		{http.MethodGet, "/v1/vouchers/{code}/transactions", appKey, withoutBody(func(c *call) (*redemption.TransactionList, error) {
			in, err := transactionListParams(c)
			if err != nil {
				return nil, err
			}
			return red.Transactions(c.ctx(), c.projectID, c.path("code"), in)
		})},
		{http.MethodGet, "/v1/campaigns/{campaignId}/transactions", appKey, withoutBody(func(c *call) (*redemption.TransactionList, error) {
			in, err := transactionListParams(c)
			if err != nil {
				return nil, err
			}
			return red.CampaignTransactions(c.ctx(), c.projectID, c.path("campaignId"), in)
		})},
	}
}

// transactionListParams reads limit, order, starting_after_id and filters.
func transactionListParams(c *call) (redemption.TransactionListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return redemption.TransactionListParams{}, err
	}
	limit, err := intParam(q, "limit")
	if err != nil {
		return redemption.TransactionListParams{}, err
	}
	if q.Has("limit") && limit == 0 {
		limit = -1 // refused by the range check
	}
	f, err := parseFilters(q)
	if err != nil {
		return redemption.TransactionListParams{}, err
	}
	return redemption.TransactionListParams{Limit: limit, Order: q.Get("order"), StartingAfterID: q.Get("starting_after_id"), Filter: f}, nil
}
