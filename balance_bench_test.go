package promo_test

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkAddBalance measures POST /v1/vouchers/{code}/balance through
// the Go API (the card locked, updated, its transaction and events
// written in one transaction) on each store, and BenchmarkGiftRedeem a
// single gift card redemption with its CREDITS_REDEMPTION row.
func BenchmarkAddBalance(b *testing.B) {
	benchGift(b, func(b *testing.B, eng *promo.Engine, projectID string) {
		amount := int64(100)
		for b.Loop() {
			if _, err := eng.Redemptions().AddBalance(ctx, projectID, "BENCHGIFT", redemption.BalanceParams{Amount: &amount}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkGiftRedeem(b *testing.B) {
	benchGift(b, func(b *testing.B, eng *promo.Engine, projectID string) {
		var in redemption.ValidationParams
		if err := json.Unmarshal([]byte(`{"redeemables":[{"object":"voucher","id":"BENCHGIFT","gift":{"credits":1}}],"order":{"amount":1000}}`), &in); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := eng.Redemptions().Redeem(ctx, projectID, in, redemption.RedeemOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchGift(b *testing.B, run func(b *testing.B, eng *promo.Engine, projectID string)) {
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			eng, p := benchProject(b, newStore)
			in := voucher.Params{Code: promo.Ptr("BENCHGIFT")}
			if err := json.Unmarshal([]byte(`{"type":"GIFT_VOUCHER","gift":{"amount":100000000}}`), &in); err != nil {
				b.Fatal(err)
			}
			if _, err := eng.Vouchers().Create(ctx, p.ID, in); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			run(b, eng, p.ID)
		})
	}
}
