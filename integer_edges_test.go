package promo_test

import (
	"math"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// Every number a write accepts is one the rest of the engine (and both
// stores) can use; the others are refused with 400 and store nothing.
func TestIntegerEdgesRefusedAtWrite(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		promos := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Promos"), CampaignType: promo.Ptr(campaign.Promotion)})
		amount := func(s string) voucher.Params {
			p := discountParams("A")
			p.Discount.AmountOff = promo.Ptr(promotype.NewDecimal(s))
			return p
		}
		fixed := func(s string) voucher.Params {
			p := discountParams("A")
			p.Discount = &campaign.Discount{Type: campaign.DiscountFixed, FixedAmount: promo.Ptr(promotype.NewDecimal(s))}
			return p
		}
		limit := func(s string) voucher.Params {
			p := discountParams("A")
			p.Discount = percentOff("10")
			p.Discount.AmountLimit = promo.Ptr(promotype.NewDecimal(s))
			return p
		}
		coin := func(ratio string, points int64) reward.Params {
			return reward.Params{Name: promo.Ptr("Coins"), Parameters: &reward.Parameters{
				Coin: &reward.CoinParams{ExchangeRatio: promotype.NewDecimal(ratio), PointsRatio: promo.Ptr(points)}}}
		}
		tests := []struct {
			name    string
			call    func() error
			details string
		}{
			{"category hierarchy above integer", func() error {
				_, err := f.eng.Campaigns().CreateCategory(ctx, f.project, campaign.CategoryParams{Name: promo.Ptr("C"), Hierarchy: promo.Ptr(9007199254740991)})
				return err
			}, "Property .hierarchy must be <= 2147483647"},
			{"tier hierarchy above integer", func() error {
				_, err := f.eng.PromotionTiers().Create(ctx, f.project, promos.ID, campaign.TierParams{Name: promo.Ptr("T"), Hierarchy: promo.Ptr(math.MaxInt64)})
				return err
			}, "Property .hierarchy must be <= 2147483647"},
			{"product price above 2^53-1", func() error {
				_, err := f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("p"), Price: promo.Ptr(order.MaxAmount + 1)})
				return err
			}, "Property .price must be <= 9007199254740991"},
			{"product price 2^63-1", func() error {
				_, err := f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("p"), Price: promo.Ptr[int64](math.MaxInt64)})
				return err
			}, "Property .price must be <= 9007199254740991"},
			{"amount_off 1e300", func() error { _, err := f.eng.Vouchers().Create(ctx, f.project, amount("1e300")); return err },
				"Property .discount.amount_off must be <= 9007199254740991"},
			{"amount_off 2^53", func() error {
				_, err := f.eng.Vouchers().Create(ctx, f.project, amount("9007199254740992"))
				return err
			},
				"Property .discount.amount_off must be <= 9007199254740991"},
			{"amount_off fraction", func() error { _, err := f.eng.Vouchers().Create(ctx, f.project, amount("1.5")); return err },
				"Property .discount.amount_off must be an integer (an amount in the smallest currency unit)"},
			{"fixed_amount 1e300", func() error { _, err := f.eng.Vouchers().Create(ctx, f.project, fixed("1e300")); return err },
				"Property .discount.fixed_amount must be <= 9007199254740991"},
			{"amount_limit fraction", func() error { _, err := f.eng.Vouchers().Create(ctx, f.project, limit("0.5")); return err },
				"Property .discount.amount_limit must be an integer (an amount in the smallest currency unit)"},
			{"exchange_ratio 1e300", func() error { _, err := f.eng.Rewards().Create(ctx, f.project, coin("1e300", 1)); return err },
				"Property .parameters.coin.exchange_ratio must be <= 9007199254740991"},
			{"points_ratio 2^63-1", func() error { _, err := f.eng.Rewards().Create(ctx, f.project, coin("1", math.MaxInt64)); return err },
				"Property .parameters.coin.points_ratio must be <= 9007199254740991"},
		}
		products := func() int {
			return must[*promo.List[*catalog.Product]](t)(f.eng.Catalog().ListProducts(ctx, f.project, promo.ListParams{})).Total
		}
		productsBefore := products() // the built-in shipping product
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				if e := wantErr(t, tc.call(), 400, "invalid_payload"); e.Details != tc.details {
					t.Errorf("details %q\nwant    %q", e.Details, tc.details)
				}
			})
		}
		cats := must[*promo.List[*campaign.Category]](t)(f.eng.Campaigns().ListCategories(ctx, f.project, promo.ListParams{}))
		rews := must[*promo.List[*reward.Reward]](t)(f.eng.Rewards().List(ctx, f.project, promo.ListParams{}))
		if cats.Total != 0 || products() != productsBefore || rews.Total != 0 || listVouchers(t, f, voucher.ListParams{}).Total != 0 {
			t.Errorf("refused writes stored something: %d categories, %d products, %d rewards", cats.Total, products()-productsBefore, rews.Total)
		}

		// The largest accepted values are kept exactly by the store.
		cat := must[*campaign.Category](t)(f.eng.Campaigns().CreateCategory(ctx, f.project, campaign.CategoryParams{Name: promo.Ptr("Top"), Hierarchy: promo.Ptr(campaign.MaxHierarchy)}))
		cats = must[*promo.List[*campaign.Category]](t)(f.eng.Campaigns().ListCategories(ctx, f.project, promo.ListParams{}))
		if len(cats.Data) != 1 || cats.Data[0].Hierarchy != campaign.MaxHierarchy || cat.Hierarchy != campaign.MaxHierarchy {
			t.Errorf("category hierarchy %d, listed %+v", cat.Hierarchy, cats.Data)
		}
		p := must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("p"), Price: promo.Ptr(order.MaxAmount)}))
		if got := must[*catalog.Product](t)(f.eng.Catalog().GetProduct(ctx, f.project, p.ID)); got.Price == nil || *got.Price != order.MaxAmount {
			t.Errorf("product price %v", got.Price)
		}
		createVoucher(t, f, amount("9007199254740991"))

		// A tier after one at the largest hierarchy cannot get "highest + 1".
		top := must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, promos.ID, campaign.TierParams{Name: promo.Ptr("Top"), Hierarchy: promo.Ptr(campaign.MaxHierarchy)}))
		if top.Hierarchy != campaign.MaxHierarchy {
			t.Errorf("tier hierarchy %d", top.Hierarchy)
		}
		_, err := f.eng.PromotionTiers().Create(ctx, f.project, promos.ID, campaign.TierParams{Name: promo.Ptr("Next")})
		if e := wantErr(t, err, 400, "invalid_payload"); e.Details != "Property .hierarchy is required: the campaign's tiers already reach the largest hierarchy 2147483647" {
			t.Errorf("next tier: %q", e.Details)
		}
	})
}
