package redemption

import (
	"context"
	"errors"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// present fills what a stored row shows besides its document: the
// rollback that undid it.
func present(r *Redemption) *Redemption {
	if r.Ledger.RolledBackBy != "" && r.Ledger.RolledBackAt != nil {
		r.RelatedRedemptions = &Related{Rollbacks: []RelatedRow{{ID: r.Ledger.RolledBackBy, Date: *r.Ledger.RolledBackAt, RollbackOrderMode: r.Ledger.RollbackMode}}}
	}
	if r.Metadata == nil {
		r.Metadata = promotype.Metadata{}
	}
	return r
}

// Get returns a redemption or rollback by id (r_, rf_, rr_, rrf_).
func (s *RedemptionService) Get(ctx context.Context, projectID, id string) (*Redemption, error) {
	r, err := s.store.GetRedemption(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return present(r), nil
}

// ListParams are what GET /v1/redemptions accepts besides the common list
// parameters: result (SUCCESS, FAILURE; several), campaign (a name),
// customer (an id or source id).
type ListParams struct {
	promotype.ListParams
	Result   []string
	Campaign string
	Customer string
	// CreatedBefore and CreatedAfter bound the rows' dates (exclusive).
	CreatedBefore, CreatedAfter *promotype.Time
}

// List lists redemptions and rollbacks, newest first by default. A
// customer or campaign that does not exist matches nothing.
func (s *RedemptionService) List(ctx context.Context, projectID string, in ListParams) (_ *promotype.List[*Redemption], err error) {
	if in.ListParams.Filter, err = s.campaignNameConditions(ctx, projectID, in.ListParams.Filter); err != nil {
		return nil, err
	}
	if in.ListParams.Filter, err = userLoginConditions(in.ListParams.Filter); err != nil {
		return nil, err
	}
	q, err := in.ListParams.Query(RedemptionListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	for _, r := range in.Result {
		if r != ResultSuccess && r != ResultFailure {
			return nil, promotype.InvalidQueryParams("Property .result must be equal to one of the allowed values: SUCCESS, FAILURE")
		}
	}
	q.Must = append(q.Must, promotype.Within("created_at", in.CreatedBefore, in.CreatedAfter)...)
	if len(in.Result) > 0 {
		q.Must = append(q.Must, promotype.Condition{Field: "result", Op: promotype.OpIn, Values: in.Result})
	}
	none := func() (*promotype.List[*Redemption], error) {
		return promotype.NewList([]*Redemption{}, 0, q), nil
	}
	if in.Customer != "" {
		c, err := findCustomer(ctx, s.store, projectID, customerRef(in.Customer))
		if err != nil {
			return nil, err
		}
		if c == nil {
			return none()
		}
		q.Must = append(q.Must, promotype.Condition{Field: "customer_id", Op: promotype.OpIn, Values: []string{c.ID}})
	}
	if in.Campaign != "" {
		c, err := s.store.FindCampaignByName(ctx, projectID, in.Campaign)
		if errors.Is(err, promotype.ErrNotFound) {
			return none()
		}
		if err != nil {
			return nil, err
		}
		q.Must = append(q.Must, promotype.Condition{Field: "related_object_parent_id", Op: promotype.OpIn, Values: []string{c.ID}})
	}
	rs, total, err := s.store.ListRedemptions(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		present(r)
	}
	return promotype.NewList(rs, total, q), nil
}

// VoucherRedemptions is the answer of GET /v1/vouchers/{code}/redemption:
// a voucher's redemptions, failures and rollbacks, newest first.
type VoucherRedemptions struct {
	Quantity          *int64        `json:"quantity"`
	RedeemedQuantity  int64         `json:"redeemed_quantity"`
	RedeemedAmount    *int64        `json:"redeemed_amount,omitempty"`
	Object            string        `json:"object"`
	URL               string        `json:"url"`
	DataRef           string        `json:"data_ref"`
	Total             int           `json:"total"`
	RedemptionEntries []*Redemption `json:"redemption_entries"`
}

// customerRef is a customer named by id or source id.
func customerRef(ref string) *customer.Params {
	return &customer.Params{ID: &ref, SourceID: &ref}
}

// CustomerSummary is a customer's redemption summary, read from the
// counters the ledger keeps (customer.Service.SetRedemptionSummary takes it).
func (s *RedemptionService) CustomerSummary(ctx context.Context, projectID, customerID string) (customer.RedemptionSummary, error) {
	var out customer.RedemptionSummary
	fields := map[string]*int64{
		"total_redeemed": &out.TotalRedeemed, "total_failed": &out.TotalFailed, "total_succeeded": &out.TotalSucceeded,
		"total_rolled_back": &out.TotalRolledBack, "total_rollback_failed": &out.TotalRollbackFailed,
		"total_rollback_succeeded": &out.TotalRollbackSucceeded,
		"gift_redeemed_amount":     &out.Gift.RedeemedAmount, "loyalty_redeemed_points": &out.LoyaltyCard.RedeemedPoints,
	}
	keys := make([]string, 0, len(fields))
	for name := range fields {
		keys = append(keys, customerKey(customerID, name))
	}
	got, err := s.store.Counters(ctx, projectID, keys...)
	if err != nil {
		return out, err
	}
	for name, dst := range fields {
		*dst = got[customerKey(customerID, name)]
	}
	return out, nil
}
