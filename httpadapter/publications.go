package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
)

// publicationRoutes are the publications endpoints (scope publications)
// and a customer's wallet (scope customers).
func (s *server) publicationRoutes() []route {
	pubs := s.engine.Publications()
	return []route{
		{http.MethodPost, "/v1/publications", appKey, withBody(func(c *call, in publication.CreateParams) (*publication.Publication, error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			if in.JoinOnce, err = boolParam(q, "join_once"); err != nil {
				return nil, err
			}
			return pubs.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/publications", appKey, s.hostedList("publications", withoutBody(func(c *call) (*promotype.List[*publication.Publication], error) {
			p, err := publicationListParams(c)
			if err != nil {
				return nil, err
			}
			return pubs.List(c.ctx(), c.projectID, p)
		}))},
		{http.MethodGet, "/v1/customers/{customerId}/redeemables", appKey, withoutBody(func(c *call) (*publication.Wallet, error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			var p publication.WalletParams
			if p.ListParams, err = listParams(q); err != nil {
				return nil, err
			}
			p.StartingAfterID = q.Get("starting_after_id")
			return pubs.Wallet(c.ctx(), c.projectID, c.path("customerId"), p)
		})},
	}
}

// publicationListParams reads the query of GET /v1/publications.
func publicationListParams(c *call) (publication.ListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return publication.ListParams{}, err
	}
	var p publication.ListParams
	if p.ListParams, err = listParams(q); err != nil {
		return p, err
	}
	str := func(name string) *string {
		if !q.Has(name) {
			return nil
		}
		v := q.Get(name)
		return &v
	}
	p.Campaign, p.Customer, p.Voucher = str("campaign"), str("customer"), str("voucher")
	p.Result, p.VoucherType, p.SourceID = str("result"), str("voucher_type"), str("source_id")
	if q.Has("is_referral_code") {
		b, err := boolParam(q, "is_referral_code")
		if err != nil {
			return p, err
		}
		p.IsReferralCode = &b
	}
	return p, nil
}
