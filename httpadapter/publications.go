package httpadapter

import (
	"net/http"
	"strings"

	"github.com/promoengine/promo/customer"
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
		{http.MethodGet, "/v1/publications/create", appKey, withoutBody(func(c *call) (*publication.Publication, error) {
			in, err := publicationFromQuery(c)
			if err != nil {
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
	p.Campaign, p.Customer, p.Voucher = stringParam(q, "campaign"), stringParam(q, "customer"), stringParam(q, "voucher")
	p.Result, p.VoucherType, p.SourceID = stringParam(q, "result"), stringParam(q, "voucher_type"), stringParam(q, "source_id")
	if q.Has("is_referral_code") {
		b, err := boolParam(q, "is_referral_code")
		if err != nil {
			return p, err
		}
		p.IsReferralCode = &b
	}
	return p, nil
}

// publicationFromQuery reads the query of GET /v1/publications/create: the
// body of POST /v1/publications as deepObject parameters (customer[source_id],
// campaign[name], campaign[count], metadata[key], ...). Metadata values are
// strings, as a query carries them.
func publicationFromQuery(c *call) (publication.CreateParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return publication.CreateParams{}, err
	}
	var in publication.CreateParams
	if in.JoinOnce, err = boolParam(q, "join_once"); err != nil {
		return in, err
	}
	in.Voucher, in.SourceID, in.Channel = stringParam(q, "voucher"), stringParam(q, "source_id"), stringParam(q, "channel")
	if name := stringParam(q, "campaign"); name != nil {
		in.Campaign = &publication.CampaignRef{Name: name}
	}
	if name, id := stringParam(q, "campaign[name]"), stringParam(q, "campaign[id]"); name != nil || id != nil || q.Has("campaign[count]") {
		in.Campaign = &publication.CampaignRef{Name: name, ID: id}
		if q.Has("campaign[count]") {
			n, err := intParam(q, "campaign[count]")
			if err != nil {
				return in, err
			}
			in.Campaign.Count = &n
		}
	}
	var cust customer.Params
	set := false
	for name, dst := range map[string]**string{"id": &cust.ID, "source_id": &cust.SourceID, "name": &cust.Name,
		"email": &cust.Email, "phone": &cust.Phone, "description": &cust.Description, "birthdate": &cust.Birthdate} {
		if v := stringParam(q, "customer["+name+"]"); v != nil {
			*dst, set = v, true
		}
	}
	metadata := func(prefix string) promotype.Metadata {
		var m promotype.Metadata
		for key, values := range q {
			k, ok := strings.CutPrefix(key, prefix+"[")
			k, closed := strings.CutSuffix(k, "]")
			if !ok || !closed || k == "" || strings.ContainsAny(k, "[]") || len(values) == 0 {
				continue // not a metadata[key] parameter, or a nested one
			}
			if m == nil {
				m = promotype.Metadata{}
			}
			m[k] = values[0]
		}
		return m
	}
	if cust.Metadata = metadata("customer[metadata]"); cust.Metadata != nil {
		set = true
	}
	if set {
		in.Customer = &cust
	}
	in.Metadata = metadata("metadata")
	return in, nil
}
