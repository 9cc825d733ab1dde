package voucher

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// StandaloneItem is an item of POST /v1/vouchers/import: a voucher
// without a campaign, with its code.
type StandaloneItem struct {
	Code     *string               `json:"code"`
	Type     *campaign.VoucherType `json:"type"`
	Discount *campaign.Discount    `json:"discount"`
	Gift     *GiftParams           `json:"gift"`
	Common
}

// StandaloneVoucher returns the voucher an import item makes without a
// campaign (not stored), checked as Create checks a voucher; its error
// is the reason the item cannot be imported. Its metadata is checked
// apart (CheckMetadata), outside the importing transaction.
func (s *Service) StandaloneVoucher(ctx context.Context, st ServiceStore, projectID string, item StandaloneItem, now promotype.Time) (*Voucher, error) {
	if err := checkItem(item.Code, item.Common); err != nil {
		return nil, err
	}
	typ := item.Type
	if typ == nil {
		typ = inferType(item.Discount, item.Gift, nil)
	}
	if typ == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'type'")
	}
	if *typ == campaign.LoyaltyCard {
		return nil, promotype.InvalidPayload("A LOYALTY_CARD cannot be imported without its loyalty campaign")
	}
	v := &Voucher{
		ID:        s.env.IDs.NewID(promotype.PrefixVoucher),
		ProjectID: projectID,
		Type:      *typ,
		Code:      *item.Code,
		Active:    true,
		Metadata:  promotype.Metadata{},
		CreatedAt: now,
	}
	if err := typed(v, item.Discount, item.Gift, nil, true); err != nil {
		return nil, err
	}
	if err := item.Common.apply(v); err != nil {
		return nil, err
	}
	if err := s.setCategory(ctx, st, projectID, v, item.Category, item.CategoryID); err != nil {
		return nil, err
	}
	return v, nil
}
