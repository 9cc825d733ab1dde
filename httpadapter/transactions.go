package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/redemption"
)

// transactionRoutes are the balances of gift and loyalty cards: the manual
// balance change and the cards' transaction ledger (scope vouchers). A
// card is addressed by code or id.
func (s *server) transactionRoutes() []route {
	red := s.engine.Redemptions()
	return []route{
		{http.MethodPost, "/v1/vouchers/{code}/balance", appKey, withBody(func(c *call, in redemption.BalanceParams) (*redemption.Balance, error) {
			return red.AddBalance(c.ctx(), c.projectID, c.path("code"), in)
		})},
		{http.MethodGet, "/v1/vouchers/{code}/transactions", appKey, withoutBody(func(c *call) (*redemption.TransactionList, error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			limit, err := intParam(q, "limit")
			if err != nil {
				return nil, err
			}
			if q.Has("limit") && limit == 0 {
				limit = -1 // refused by the range check
			}
			return red.Transactions(c.ctx(), c.projectID, c.path("code"), redemption.TransactionListParams{
				Limit: limit, Order: q.Get("order"), StartingAfterID: q.Get("starting_after_id")})
		})},
	}
}
