package promo_test

import (
	"context"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// A checkout holds a single-use voucher for its cart with a LOCK session
// while the customer pays: another cart is refused, the cart's own
// redemption uses the held unit. ReleaseSession gives a unit back early.
func ExampleEngine_Validations_session() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	in := params[voucher.Params](`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"redemption":{"quantity":1}}`)
	in.Code = promo.Ptr("WELCOME")
	if _, err := eng.Vouchers().Create(ctx, projectID, in); err != nil {
		panic(err)
	}
	cart := func(s *redemption.SessionParams) redemption.ValidationParams {
		return redemption.ValidationParams{
			Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: "WELCOME"}},
			Order:       &order.Params{Amount: promo.Ptr(int64(2000))},
			Session:     s,
		}
	}
	v, err := eng.Validations().Validate(ctx, projectID, cart(&redemption.SessionParams{Type: redemption.SessionLock, Key: "cart-1"}))
	if err != nil {
		panic(err)
	}
	fmt.Println("cart-1:", v.Valid, v.Session.Key, v.Session.TTL, v.Session.TTLUnit)

	other, err := eng.Validations().Validate(ctx, projectID, cart(nil))
	if err != nil {
		panic(err)
	}
	fmt.Println("another cart:", other.Valid, other.InapplicableRedeemables[0].Result.Error.Key)

	r, err := eng.Redemptions().Redeem(ctx, projectID, cart(&redemption.SessionParams{Key: "cart-1"}), redemption.RedeemOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("cart-1 redeemed:", r.Redemptions[0].Result, r.Redemptions[0].Session.Key)

	err = eng.Validations().ReleaseSession(ctx, projectID, "WELCOME", "cart-1")
	fmt.Println("release after use:", promotype.AsError(err).Key)
	// Output:
	// cart-1: true cart-1 7 DAYS
	// another cart: false quantity_exceeded
	// cart-1 redeemed: SUCCESS cart-1
	// release after use: not_found
}
