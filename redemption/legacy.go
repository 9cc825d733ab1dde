package redemption

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// VoucherValidationParams is the body of the legacy (deprecated)
// POST /v1/vouchers/{code}/validate. Session LOCK
// reserves what the voucher promises, as in ValidationParams.
type VoucherValidationParams struct {
	Customer   *customer.Params   `json:"customer"`
	Order      *order.Params      `json:"order"`
	Gift       *GiftParams        `json:"gift"`
	Reward     *RewardParams      `json:"reward"`
	Session    *SessionParams     `json:"session,omitempty"`
	TrackingID *string            `json:"tracking_id"`
	Metadata   promotype.Metadata `json:"metadata"`
	Options    *ValidationOptions `json:"options"`
}

// VoucherValidation is the answer of the legacy voucher validation: a
// usable voucher with what it gives and the order it prices, or (also a
// 200) valid false with the reason and the error.
type VoucherValidation struct {
	Valid          bool                             `json:"valid"`
	Code           string                           `json:"code"`
	ApplicableTo   *promotype.List[discount.Target] `json:"applicable_to,omitempty"`
	InapplicableTo *promotype.List[discount.Target] `json:"inapplicable_to,omitempty"`
	Campaign       *string                          `json:"campaign,omitempty"`
	CampaignID     *string                          `json:"campaign_id,omitempty"`
	Metadata       promotype.Metadata               `json:"metadata"`
	Discount       *discount.Discount               `json:"discount,omitempty"`
	Gift           *LegacyGift                      `json:"gift,omitempty"`
	Loyalty        *LegacyLoyalty                   `json:"loyalty,omitempty"`
	Reward         *LegacyReward                    `json:"reward,omitempty"`
	Order          *order.Order                     `json:"order,omitempty"`
	StartDate      *promotype.Time                  `json:"start_date,omitempty"`
	ExpirationDate *promotype.Time                  `json:"expiration_date,omitempty"`
	Reason         string                           `json:"reason,omitempty"`
	Error          *promotype.Error                 `json:"error,omitempty"`
	TrackingID     string                           `json:"tracking_id"`
	Session        *Session                         `json:"session,omitempty"` // a LOCK request's session (valid only)
}

// LegacyGift is a gift card as the legacy validation shows it: the card's
// credits before the redemption.
type LegacyGift struct {
	Amount  int64           `json:"amount"`
	Balance int64           `json:"balance"`
	Effect  discount.Effect `json:"effect,omitempty"`
}

// LegacyLoyalty is the points a loyalty card pays.
type LegacyLoyalty struct {
	PointsCost int64 `json:"points_cost"`
}

// LegacyReward is the reward a loyalty card pays for.
type LegacyReward struct {
	ID     string `json:"id"`
	Points int64  `json:"points"`
}

// ValidateVoucher validates one voucher by code (or id) as the legacy
// endpoint does: alone, whatever the stacking rules. An unknown code is a
// 404; a loyalty card without a reward (missing_reward)
// or a gift card on items none of which has an amount
// (missing_order_items_amount) is a 400; any other reason the voucher
// cannot be used is a 200 with valid false. Nothing is stored.
func (s *Service) ValidateVoucher(ctx context.Context, projectID, code string, in VoucherValidationParams) (*VoucherValidation, error) {
	if code == "" {
		return nil, promotype.NotFound("voucher", code)
	}
	p := RedeemableParams{Object: ObjectVoucher, ID: code, Gift: in.Gift, Reward: in.Reward}
	params := ValidationParams{Redeemables: []RedeemableParams{p}, Order: in.Order, Customer: in.Customer,
		Session: in.Session, TrackingID: in.TrackingID, Metadata: in.Metadata, Options: in.Options}
	if err := checkRedeemables(params.Redeemables); err != nil {
		return nil, err
	}
	sess, err := checkSession(in.Session, newSessionKey(s.env.IDs))
	if err != nil {
		return nil, err
	}
	r, out, tracking, err := s.evaluateLocked(ctx, projectID, params, DefaultStackingRules(), sess)
	if err != nil {
		return nil, err
	}
	st, sh := &out.Steps[0], &r.shows[0]
	v := &VoucherValidation{Code: code, TrackingID: tracking, Metadata: promotype.Metadata{}}
	if sh.voucher != nil {
		v.Code = sh.voucher.Code
		if sh.voucher.Metadata != nil {
			v.Metadata = sh.voucher.Metadata
		}
	}
	if st.Status == Inapplicable {
		switch st.Error.Key {
		case "not_found", "missing_reward", "missing_order_items_amount":
			return nil, st.Error
		}
		v.Reason, v.Error = st.Error.Message, st.Error
		return v, nil
	}
	v.Valid = true
	v.Session = sess.echo()
	res := r.present(st)
	v.ApplicableTo, v.InapplicableTo, v.Order = res.ApplicableTo, res.InapplicableTo, st.Order
	if sh.campaignID != "" {
		v.Campaign, v.CampaignID = &sh.campaignName, &sh.campaignID
	}
	c, vo := st.Candidate, sh.voucher
	v.StartDate, v.ExpirationDate = vo.StartDate, vo.ExpirationDate
	switch {
	case c.Gift != nil:
		v.Gift = &LegacyGift{Balance: c.Gift.Balance, Effect: c.Gift.Effect}
		if vo.Gift != nil {
			v.Gift.Amount = vo.Gift.Amount
		}
	case c.Loyalty != nil:
		v.Loyalty = &LegacyLoyalty{PointsCost: st.Points}
		v.Reward = &LegacyReward{ID: in.Reward.ID, Points: st.Points}
	default:
		v.Discount = sh.discount
	}
	return v, nil
}
