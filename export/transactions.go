package export

import (
	"context"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// TransactionsParams is the body of POST /v1/vouchers/{code}/transactions/export
// and POST /v1/campaigns/{campaignId}/transactions/export: the parameters
// of a voucher_transactions export (order, fields, filters).
type TransactionsParams struct {
	Parameters *RequestParameters `json:"parameters"`
}

// VoucherReader is what a transactions export of one card reads to find
// the card.
type VoucherReader interface {
	GetVoucher(ctx context.Context, projectID, id string) (*voucher.Voucher, error)
	FindVoucherByCode(ctx context.Context, projectID, code string) (*voucher.Voucher, error)
}

// ExportVoucherTransactions records a voucher_transactions export of the
// transactions of the gift or loyalty card with code or id ref (POST
// /v1/vouchers/{code}/transactions/export; 404 for no such voucher), as
// Create does with the filter voucher_id $in [the card's id] added.
func (s *Service) ExportVoucherTransactions(ctx context.Context, projectID, ref string, in TransactionsParams) (*Export, error) {
	var id string
	err := s.tx(ctx, func(ctx context.Context, tx JobStore) error {
		v, err := promotype.Resolve(ctx, "voucher", ref, projectID, tx.GetVoucher, tx.FindVoucherByCode)
		if err == nil {
			id = v.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.createScoped(ctx, projectID, ObjectTransactions, "voucher_id", id, in)
}

// ExportCampaignTransactions records a voucher_transactions export of the
// transactions of the cards of the campaign with id or name ref (POST
// /v1/campaigns/{campaignId}/transactions/export; 404 for no such
// campaign), as Create does with the filter campaign_id $in [its id]
// added (the OpenAPI's example answer shows it so).
func (s *Service) ExportCampaignTransactions(ctx context.Context, projectID, ref string, in TransactionsParams) (*Export, error) {
	return s.exportOfCampaign(ctx, projectID, ObjectTransactions, ref, in)
}

// ExportCampaignPointsExpiration records a points_expiration export of the
// points buckets of the cards of the campaign with id or name ref (POST
// /v1/loyalties/{campaignId}/points-expiration/export; 404 for no such
// campaign), as Create does with the filter campaign_id $in [its id]
// added. It lists ACTIVE and EXPIRED buckets.
func (s *Service) ExportCampaignPointsExpiration(ctx context.Context, projectID, ref string, in TransactionsParams) (*Export, error) {
	return s.exportOfCampaign(ctx, projectID, ObjectPointsExpiration, ref, in)
}

// exportOfCampaign records an export of object limited to the campaign
// with id or name ref.
func (s *Service) exportOfCampaign(ctx context.Context, projectID, object, ref string, in TransactionsParams) (*Export, error) {
	var id string
	err := s.tx(ctx, func(ctx context.Context, tx JobStore) error {
		c, err := promotype.Resolve(ctx, "campaign", ref, projectID, tx.GetCampaign, tx.FindCampaignByName)
		if err == nil {
			id = c.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.createScoped(ctx, projectID, object, "campaign_id", id, in)
}

// createScoped creates an export of object whose filters also hold field
// $in [id]. The request's own filters may not name field, and
// their junction must be and (an or would widen the route's scope).
func (s *Service) createScoped(ctx context.Context, projectID, object, field, id string, in TransactionsParams) (*Export, error) {
	p := RequestParameters{}
	if in.Parameters != nil {
		p = *in.Parameters
	}
	filters := make(map[string]any, len(p.Filters)+1)
	for k, v := range p.Filters {
		filters[k] = v
	}
	if _, ok := filters[field]; ok {
		return nil, invalid("Property .parameters.filters.%s is set by the path of this export", field)
	}
	if j, ok := filters["junction"]; ok {
		if s, _ := j.(string); !strings.EqualFold(s, string(promotype.JunctionAnd)) {
			return nil, invalid("Property .parameters.filters.junction must be and in this export (the path limits its records)")
		}
	}
	filters[field] = map[string]any{"conditions": map[string]any{"$in": []any{id}}}
	p.Filters = filters
	return s.Create(ctx, projectID, CreateParams{ExportedObject: promotype.Ptr(object), Parameters: &p})
}
