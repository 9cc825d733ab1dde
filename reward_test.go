package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
)

func TestRewardShapes(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		prod := must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("mug"), Attributes: []string{"color"}}))
		sku := must[*catalog.SKU](t)(f.eng.Catalog().CreateSKU(ctx, f.project, "mug", catalog.SKUParams{SourceID: promo.Ptr("mug-red")}))
		rw := f.eng.Rewards()
		tests := []struct {
			name string
			in   reward.Params
			want reward.Reward
		}{
			{"campaign", reward.Params{Name: promo.Ptr("100 points"), Parameters: &reward.Parameters{
				Campaign: &reward.CampaignParams{ID: "camp_1", Type: "LOYALTY_PROGRAM", Balance: promo.Ptr[int64](100)}}},
				reward.Reward{Name: "100 points", Type: reward.TypeCampaign, Parameters: reward.Parameters{
					Campaign: &reward.CampaignParams{ID: "camp_1", Type: "LOYALTY_PROGRAM", Balance: promo.Ptr[int64](100)}}}},
			{"coin with default points ratio", reward.Params{Name: promo.Ptr("Pay with points"), Type: promo.Ptr(reward.TypeCoin), Parameters: &reward.Parameters{
				Coin: &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("0.1")}}},
				reward.Reward{Name: "Pay with points", Type: reward.TypeCoin, Parameters: reward.Parameters{
					Coin: &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("0.1"), PointsRatio: promo.Ptr[int64](1)}}}},
			{"material by source ids", reward.Params{Name: promo.Ptr("Mug"), Stock: promo.Ptr[int64](5),
				Attributes: &reward.Attributes{ImageURL: promo.Ptr("https://img.example/mug.jpg"), Description: promo.Ptr("A mug")},
				Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: "mug", SKUID: promo.Ptr("mug-red")}}},
				reward.Reward{Name: "Mug", Type: reward.TypeMaterial, Stock: promo.Ptr[int64](5),
					Attributes: &reward.Attributes{ImageURL: promo.Ptr("https://img.example/mug.jpg"), Description: promo.Ptr("A mug")},
					Parameters: reward.Parameters{Product: &reward.ProductParams{ID: prod.ID, SKUID: &sku.ID}}}},
		}
		for _, tc := range tests {
			got := must[*reward.Reward](t)(rw.Create(ctx, f.project, tc.in))
			want := tc.want
			want.ID, want.ProjectID, want.CreatedAt, want.Object = got.ID, f.project, at(0), "reward"
			want.Redeemed = promo.Ptr[int64](0)
			want.Metadata = promo.Metadata{}
			diff(t, tc.name, &want, got)
			diff(t, tc.name+" (get)", &want, must[*reward.Reward](t)(rw.Get(ctx, f.project, got.ID)))
		}
	})
}

func TestRewardRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("mug")}))
		must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("hat")}))
		must[*catalog.SKU](t)(f.eng.Catalog().CreateSKU(ctx, f.project, "hat", catalog.SKUParams{SourceID: promo.Ptr("hat-1")}))
		name := promo.Ptr("R")
		gift := func(b *int64) *reward.Parameters {
			return &reward.Parameters{Campaign: &reward.CampaignParams{ID: "camp_1", Type: "GIFT_VOUCHERS", Balance: b}}
		}
		coin := &reward.Parameters{Coin: &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("1")}}
		tests := []struct {
			name      string
			in        reward.Params
			code      int
			key, want string
		}{
			{"no name", reward.Params{Parameters: coin}, 400, "invalid_payload", "Payload must have required property 'name'"},
			{"no parameters", reward.Params{Name: name}, 400, "invalid_payload", "Payload must have required property 'parameters'"},
			{"two shapes", reward.Params{Name: name, Parameters: &reward.Parameters{Coin: coin.Coin, Product: &reward.ProductParams{ID: "mug"}}}, 400, "invalid_payload",
				"Property .parameters must have exactly one of the properties 'campaign', 'coin', 'product'"},
			{"type does not match shape", reward.Params{Name: name, Type: promo.Ptr(reward.TypeMaterial), Parameters: coin}, 400, "invalid_payload", "Property .type must match the parameters given (COIN)"},
			{"unknown type", reward.Params{Name: name, Type: promo.Ptr(reward.Type("FOO")), Parameters: coin}, 400, "invalid_payload",
				"Property .type must be equal to one of the allowed values: CAMPAIGN, COIN, MATERIAL"},
			{"gift without balance", reward.Params{Name: name, Parameters: gift(nil)}, 400, "invalid_balance",
				"Property 'parameters.campaign.balance' must be greater than zero for campaign type: GIFT_VOUCHERS"},
			{"gift with zero balance", reward.Params{Name: name, Parameters: gift(promo.Ptr[int64](0))}, 400, "invalid_balance",
				"Property 'parameters.campaign.balance' must be greater than zero for campaign type: GIFT_VOUCHERS"},
			{"discount coupons with balance", reward.Params{Name: name, Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: "c", Type: "DISCOUNT_COUPONS", Balance: promo.Ptr[int64](5)}}},
				400, "invalid_payload", "Property .parameters.campaign.balance is not allowed for campaign type: DISCOUNT_COUPONS"},
			{"unknown campaign type", reward.Params{Name: name, Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: "c", Type: "PROMOTION"}}},
				400, "invalid_payload", "Property .parameters.campaign.type must be equal to one of the allowed values: DISCOUNT_COUPONS, GIFT_VOUCHERS, LOYALTY_PROGRAM"},
			{"coin ratio zero", reward.Params{Name: name, Parameters: &reward.Parameters{Coin: &reward.CoinParams{}}}, 400, "invalid_payload", "Property .parameters.coin.exchange_ratio must be > 0"},
			{"missing product", reward.Params{Name: name, Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: "nope"}}}, 404, "not_found", "Cannot find product with id nope"},
			{"SKU of another product", reward.Params{Name: name, Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: "mug", SKUID: promo.Ptr("hat-1")}}},
				400, "invalid_payload", "Property .parameters.product.sku_id names a SKU of another product (prod_00000000000000000003)"},
			{"stock on a coin reward", reward.Params{Name: name, Stock: promo.Ptr[int64](1), Parameters: coin}, 400, "invalid_payload", "Property .stock is allowed only for MATERIAL rewards"},
			{"negative stock", reward.Params{Name: name, Stock: promo.Ptr[int64](-1), Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: "mug"}}},
				400, "invalid_payload", "Property .stock must be >= 0"},
			{"gif image", reward.Params{Name: name, Attributes: &reward.Attributes{ImageURL: promo.Ptr("https://x.example/a.gif")}, Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: "mug"}}},
				400, "invalid_payload", "Property .attributes.image_url must be an HTTPS URL of a .png or .jpg file"},
		}
		for _, tc := range tests {
			_, err := f.eng.Rewards().Create(ctx, f.project, tc.in)
			if e := wantErr(t, err, tc.code, tc.key); e.Details != tc.want {
				t.Errorf("%s: details %q, want %q", tc.name, e.Details, tc.want)
			}
		}
		if l := must[*promo.List[*reward.Reward]](t)(f.eng.Rewards().List(ctx, f.project, promo.ListParams{})); l.Total != 0 {
			t.Errorf("refused creates stored %d rewards", l.Total)
		}
	})
}

func TestRewardUpdateAndDelete(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		rw := f.eng.Rewards()
		r := must[*reward.Reward](t)(rw.Create(ctx, f.project, reward.Params{Name: promo.Ptr("Gift"), Metadata: promo.Metadata{"a": 1.0},
			Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: "camp_1", Type: "GIFT_VOUCHERS", Balance: promo.Ptr[int64](1000)}}}))
		f.clock.Advance(time.Minute)
		got := must[*reward.Reward](t)(rw.Update(ctx, f.project, r.ID, reward.Params{Name: promo.Ptr("Bigger gift"),
			Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: "camp_1", Type: "GIFT_VOUCHERS", Balance: promo.Ptr[int64](2000)}}}))
		if got.Name != "Bigger gift" || *got.Parameters.Campaign.Balance != 2000 || got.Metadata["a"] != 1.0 || !got.UpdatedAt.Equal(at(time.Minute)) {
			t.Errorf("update gave %+v", got)
		}
		_, err := rw.Update(ctx, f.project, r.ID, reward.Params{Parameters: &reward.Parameters{Coin: &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("1")}}})
		wantErr(t, err, 400, "invalid_payload")
		_, err = rw.Update(ctx, f.project, r.ID, reward.Params{Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: "camp_1", Type: "GIFT_VOUCHERS", Balance: promo.Ptr[int64](0)}}})
		wantErr(t, err, 400, "invalid_balance")
		if still := must[*reward.Reward](t)(rw.Get(ctx, f.project, r.ID)); *still.Parameters.Campaign.Balance != 2000 {
			t.Error("a refused update changed the reward")
		}
		must[struct{}](t)(struct{}{}, rw.Delete(ctx, f.project, r.ID))
		_, err = rw.Get(ctx, f.project, r.ID)
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "reward" || e.ResourceID != r.ID {
			t.Errorf("404 names %s %s", e.ResourceType, e.ResourceID)
		}
		wantErr(t, rw.Delete(ctx, f.project, r.ID), 404, "not_found")
	})
}
