package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// headerIdempotencyKey makes a retried redemption answer its first result.
const headerIdempotencyKey = "Idempotency-Key"

// redemptionRoutes are redemptions, rollbacks and the ledger reads (scope
// redemptions), and the legacy single redemptions (scopes vouchers and
// promotions).
func (s *server) redemptionRoutes() []route {
	red := s.engine.Redemptions()
	legacy := func(redeem func(c *call, in redemption.LegacyRedeemParams, opt redemption.RedeemOptions) (*redemption.Redemption, error)) handler {
		return withBody(func(c *call, in redemption.LegacyRedeemParams) (*redemption.Redemption, error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			if q.Has("tracking_id") && in.TrackingID == nil {
				v := q.Get("tracking_id")
				in.TrackingID = &v
			}
			return redeem(c, in, c.redeemOptions())
		})
	}
	return []route{
		{http.MethodPost, "/v1/redemptions", appKey, withBody(func(c *call, in redemption.ValidationParams) (*redemption.Redemptions, error) {
			return red.Redeem(c.ctx(), c.projectID, in, c.redeemOptions())
		})},
		{http.MethodGet, "/v1/redemptions", appKey, s.hostedList("redemptions", withoutBody(func(c *call) (*promotype.List[*redemption.Redemption], error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			p, err := listParams(q)
			if err != nil {
				return nil, err
			}
			in := redemption.ListParams{ListParams: p, Result: q["result"], Campaign: q.Get("campaign"), Customer: q.Get("customer")}
			if err := createdRange(q, &in.CreatedBefore, &in.CreatedAfter); err != nil {
				return nil, err
			}
			return red.List(c.ctx(), c.projectID, in)
		}))},
		{http.MethodGet, "/v1/redemptions/{redemptionId}", appKey, withoutBody(func(c *call) (*redemption.Redemption, error) {
			return red.Get(c.ctx(), c.projectID, c.path("redemptionId"))
		})},
		{http.MethodPost, "/v1/redemptions/{redemptionId}/rollback", appKey, withBody(func(c *call, in redemption.RollbackParams) (*redemption.Redemption, error) {
			if err := c.rollbackQuery(&in); err != nil {
				return nil, err
			}
			// The hosted single rollback refuses a stacked redemption.
			out, err := red.Rollback(c.ctx(), c.projectID, c.path("redemptionId"), in, redemption.SingleOnly())
			if err != nil {
				return nil, err
			}
			return out.Head(), nil
		})},
		{http.MethodPost, "/v1/redemptions/{parentRedemptionId}/rollbacks", appKey, withBody(func(c *call, in redemption.RollbackParams) (*redemption.RollbackStack, error) {
			if err := c.rollbackQuery(&in); err != nil {
				return nil, err
			}
			return red.Rollback(c.ctx(), c.projectID, c.path("parentRedemptionId"), in)
		})},

		// Legacy (JS SDK v2), deprecated.
		{http.MethodGet, "/v1/vouchers/{code}/redemption", appKey, withoutBody(voucherRedemptions(red))},
		{http.MethodPost, "/v1/vouchers/{code}/redemption", appKey, legacy(func(c *call, in redemption.LegacyRedeemParams, opt redemption.RedeemOptions) (*redemption.Redemption, error) {
			return red.RedeemVoucher(c.ctx(), c.projectID, c.path("code"), in, opt)
		})},
		{http.MethodPost, "/v1/promotions/tiers/{tierId}/redemption", appKey, legacy(func(c *call, in redemption.LegacyRedeemParams, opt redemption.RedeemOptions) (*redemption.Redemption, error) {
			return red.RedeemTier(c.ctx(), c.projectID, c.path("tierId"), in, opt)
		})},
	}
}

// redeemOptions are the caller (channel) and the Idempotency-Key header.
func (c *call) redeemOptions() redemption.RedeemOptions {
	return redemption.RedeemOptions{IdempotencyKey: c.r.Header.Get(headerIdempotencyKey), ChannelID: c.clientID}
}

// rollbackQuery reads the query parameters reason and tracking_id of a
// rollback; the body's win when both are sent.
func (c *call) rollbackQuery(in *redemption.RollbackParams) error {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return err
	}
	for name, dst := range map[string]**string{"reason": &in.Reason, "tracking_id": &in.TrackingID} {
		if q.Has(name) && *dst == nil {
			v := q.Get(name)
			*dst = &v
		}
	}
	return nil
}
