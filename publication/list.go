package publication

import (
	"context"
	"errors"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// List lists the publications of a project (GET /v1/publications), newest
// first by default.
func (s *Service) List(ctx context.Context, projectID string, p ListParams) (*promotype.List[*Publication], error) {
	q, err := p.ListParams.Query(ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	is := func(field, v string) {
		q.Must = append(q.Must, promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}})
	}
	if p.Campaign != nil {
		c, err := s.campaigns.Resolve(ctx, s.store, projectID, *p.Campaign)
		switch {
		case err == nil:
			is("campaign_id", c.ID)
		case errors.Is(err, promotype.ErrNotFound):
			return promotype.NewList([]*Publication{}, 0, q), nil
		default:
			return nil, err
		}
	}
	if p.Customer != nil {
		id := *p.Customer
		if c, err := customer.Resolve(ctx, s.store, projectID, id); err == nil {
			id = c.ID
		} else if !errors.Is(err, promotype.ErrNotFound) {
			return nil, err
		}
		is("customer_id", id)
	}
	if p.Voucher != nil {
		is("voucher_code", *p.Voucher)
	}
	if p.Result != nil {
		if *p.Result != "SUCCESS" && *p.Result != "FAILURE" {
			return nil, promotype.InvalidQueryParams("Property .result must be one of SUCCESS, FAILURE")
		}
		is("result", *p.Result)
	}
	if p.VoucherType != nil {
		switch *p.VoucherType {
		case "discount":
			is("voucher_type", "DISCOUNT_VOUCHER")
		case "loyalty":
			is("voucher_type", "LOYALTY_CARD")
		default:
			return nil, promotype.InvalidQueryParams("Property .voucher_type must be one of discount, loyalty")
		}
	}
	if p.IsReferralCode != nil && *p.IsReferralCode { // the filter works for true only
		is("is_referral_code", "true")
	}
	if p.SourceID != nil {
		is("source_id", *p.SourceID)
	}
	items, total, err := s.store.ListPublications(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	customers := map[string]*Customer{}
	for _, it := range items {
		if err := s.presentListed(ctx, s.store, it, customers); err != nil {
			return nil, err
		}
	}
	return promotype.NewList(items, total, q), nil
}

// Wallet is a page of a customer's wallet, in the hosted list shape:
// MoreStartingAfter is the cursor of the next page when there is one.
type Wallet struct {
	Object            string    `json:"object"`
	DataRef           string    `json:"data_ref"`
	Data              []*Holder `json:"data"`
	Total             int       `json:"total"`
	HasMore           bool      `json:"has_more"`
	MoreStartingAfter *string   `json:"more_starting_after,omitempty"`
}

// Wallet lists the vouchers customer ref (an id or source id) holds (GET
// /v1/customers/{customerId}/redeemables), each with the voucher as it is
// now and its status; 404 when there is no such customer.
func (s *Service) Wallet(ctx context.Context, projectID, ref string, p WalletParams) (*Wallet, error) {
	now := s.env.Clock.Now()
	p.Page = 0
	q, err := p.ListParams.Query(WalletSpec, now)
	if err != nil {
		return nil, err
	}
	c, err := customer.Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	q.Limit++ // one more tells whether there is a next page
	items, total, err := s.store.ListHolders(ctx, projectID, c.ID, p.StartingAfterID, q)
	if err != nil {
		return nil, err
	}
	more := len(items) > limit
	items = items[:min(len(items), limit)]
	for _, h := range items {
		v, err := s.store.GetVoucher(ctx, projectID, h.RedeemableID)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			continue // deleted since: no redeemable to show
		case err != nil:
			return nil, err
		}
		if v, err = s.vouchers.Present(ctx, s.store, v); err != nil {
			return nil, err
		}
		h.Redeemable = &Held{Type: "voucher", Voucher: v, Status: heldStatus(v, now)}
	}
	out := &Wallet{Object: "list", DataRef: promotype.DataRefData, Data: items, Total: total, HasMore: more}
	if out.Data == nil {
		out.Data = []*Holder{}
	}
	if out.HasMore && len(items) > 0 {
		out.MoreStartingAfter = promotype.Ptr(items[len(items)-1].ID)
	}
	return out, nil
}
