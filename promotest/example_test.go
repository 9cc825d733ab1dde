package promotest_test

import (
	"context"
	"fmt"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotest"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// printTB is a promotest.TB that prints what a *testing.T would report,
// so the example shows it; in a test, pass t.
type printTB struct{}

func (printTB) Helper()                           {}
func (printTB) Errorf(format string, args ...any) { fmt.Printf("error: "+format+"\n", args...) }
func (printTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// A checkout test: a gift card redeemed twice and one redemption rolled
// back; the harness checks what is left. The last check fails on purpose,
// to show what a test would report.
func Example() {
	ctx := context.Background()
	h := promotest.New(printTB{}) // in a test: promotest.New(t)
	fmt.Println(h)

	_, err := h.Engine.Vouchers().Create(ctx, h.ProjectID, voucher.Params{Code: promo.Ptr("GIFT-50"),
		Type: promo.Ptr(campaign.GiftVoucher), Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](5000)}})
	if err != nil {
		panic(err)
	}
	redeem := func(amount int64) string {
		r, err := h.Engine.Redemptions().Redeem(ctx, h.ProjectID, redemption.ValidationParams{
			Redeemables: []redemption.RedeemableParams{{Object: "voucher", ID: "GIFT-50"}},
			Order:       &order.Params{Amount: promo.Ptr(amount)},
		}, redemption.RedeemOptions{})
		if err != nil {
			panic(err)
		}
		return r.Redemptions[0].ID
	}
	redeem(1500)
	second := redeem(1000)
	if _, err := h.Engine.Redemptions().Rollback(ctx, h.ProjectID, second, redemption.RollbackParams{}); err != nil {
		panic(err)
	}

	h.RequireVoucherRedeemed("GIFT-50", 1)
	h.RequireGiftBalance("GIFT-50", 3500)
	h.RequireRedemptions(map[string]int{"SUCCESS": 2})
	h.RequireVoucherRedeemed("GIFT-50", 2) // fails: rolled back
	// Output:
	// promotest harness: project proj_00000000000000000001 at 2026-01-02T10:00:00Z
	// error: voucher GIFT-50: redeemed quantity 1, want 2
}
