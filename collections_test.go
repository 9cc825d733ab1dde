package promo_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// TestCollectionsInPromotions: a discount applicable_to a STATIC or an
// AUTO_UPDATE collection prices the lines it holds (an AUTO_UPDATE one
// follows a product change at once), and an order.items.any rule naming a
// collection passes only when a line is in it.
func TestCollectionsInPromotions(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Catalog()
		product := func(src string, price int64, brand string) *catalog.Product {
			return must[*catalog.Product](t)(cs.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: &src, Name: &src,
				Price: &price, Metadata: promotype.Metadata{"brand": brand}}))
		}
		mug, pen, tv := product("mug", 2000, "acme"), product("pen", 8000, "other"), product("tv", 185000, "acme")
		tv55 := must[*catalog.SKU](t)(cs.CreateSKU(ctx, f.project, tv.ID, catalog.SKUParams{SourceID: promoPtr("tv-55"), Price: promoPtr(int64(150000))}))
		static := must[*catalog.Collection](t)(cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t,
			`{"type":"STATIC","name":"Picked","products":[{"id":"mug","object":"product"},{"id":"`+tv55.ID+`","object":"sku"}]}`)))
		auto := must[*catalog.Collection](t)(cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t,
			`{"type":"AUTO_UPDATE","name":"Cheap acme","filter":{"junction":"and","metadata.brand":{"conditions":{"$is":["acme"]}},"price":{"conditions":{"$less_than":[10000]}}}}`)))

		c := promotionCampaign(t, f, "Collections")
		itemsTier := func(name, collectionID string) *campaign.PromotionTier {
			vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
				`{"name":"`+name+`","applicable_to":{"included":[{"object":"products_collection","id":"`+collectionID+`"}]}}`)))
			return must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
				`{"name":"`+name+`","validation_rules":["`+vr.ID+`"],"action":{"discount":{"type":"AMOUNT","amount_off":1000,"effect":"APPLY_TO_ITEMS"}}}`)))
		}
		staticTier, autoTier := itemsTier("static", static.ID), itemsTier("auto", auto.ID)
		anyRule := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"has a cheap acme","rules":{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"`+auto.ID+`","object":"products_collection"}]}}}}`)))
		ruleTier := must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"rule","validation_rules":["`+anyRule.ID+`"],"action":{"discount":{"type":"AMOUNT","amount_off":500}}}`)))

		// lineDiscounts answers, per tier, the discount of each line.
		lineDiscounts := func(items string) map[string][]int64 {
			t.Helper()
			in := decode[promotion.ValidationParams](t, `{"order":{"items":`+items+`}}`)
			res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
			out := map[string][]int64{}
			for _, p := range res.Promotions {
				var ds []int64
				for _, it := range p.Order.Order().Items {
					ds = append(ds, it.DiscountAmount)
				}
				out[p.ID] = ds
			}
			return out
		}
		cart := `[{"product_id":"` + mug.ID + `","quantity":1},{"product_id":"` + pen.ID + `","quantity":1},{"sku_id":"` + tv55.ID + `","quantity":1},{"product_id":"` + tv.ID + `","quantity":1}]`
		want := map[string][]int64{
			staticTier.ID: {1000, 0, 1000, 0}, // mug and the tv-55 SKU line, not the tv product line
			autoTier.ID:   {1000, 0, 0, 0},    // acme under 100.00: the mug
			ruleTier.ID:   {0, 0, 0, 0},       // an order discount: the rule holds (a mug)
		}
		if d := cmp.Diff(want, lineDiscounts(cart)); d != "" {
			t.Errorf("before the change (-want +got):\n%s", d)
		}

		// The pen becomes acme: the AUTO_UPDATE collection holds it now.
		f.clock.Advance(time.Minute)
		must[*catalog.Product](t)(cs.UpdateProduct(ctx, f.project, pen.ID, catalog.ProductParams{Metadata: promotype.Metadata{"brand": "acme"}}))
		want[autoTier.ID] = []int64{1000, 1000, 0, 0}
		if d := cmp.Diff(want, lineDiscounts(cart)); d != "" {
			t.Errorf("after the pen became acme (-want +got):\n%s", d)
		}

		// Without a cheap acme line the rule fails, and the AUTO_UPDATE
		// tier discounts no line (an item discount touching no line is
		// valid for nothing, as for a product entry).
		tvOnly := `[{"product_id":"` + tv.ID + `","quantity":1},{"sku_id":"` + tv55.ID + `","quantity":1}]`
		if d := cmp.Diff(map[string][]int64{staticTier.ID: {0, 1000}, autoTier.ID: {0, 0}}, lineDiscounts(tvOnly)); d != "" {
			t.Errorf("tv only (-want +got):\n%s", d)
		}

		// A deleted collection holds nothing.
		if err := cs.DeleteCollection(ctx, f.project, static.ID); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(map[string][]int64{staticTier.ID: {0, 0}, autoTier.ID: {0, 0}}, lineDiscounts(tvOnly)); d != "" {
			t.Errorf("static collection deleted (-want +got):\n%s", d)
		}
	})
}

// TestCollectionMembers lists what a STATIC and an AUTO_UPDATE collection
// hold, with paging, and refuses bad collections.
func TestCollectionMembers(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Catalog()
		var ids []string
		for i, src := range []string{"a", "b", "c", "d"} {
			f.clock.Advance(time.Second)
			p := must[*catalog.Product](t)(cs.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promoPtr(src),
				Price: promoPtr(int64(1000 * (i + 1)))}))
			ids = append(ids, p.ID)
		}
		f.clock.Advance(time.Second)
		sku := must[*catalog.SKU](t)(cs.CreateSKU(ctx, f.project, "a", catalog.SKUParams{SourceID: promoPtr("a-1"), Price: promoPtr(int64(500))}))
		auto := must[*catalog.Collection](t)(cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t,
			`{"type":"AUTO_UPDATE","name":"Under 30","filter":{"junction":"and","price":{"conditions":{"$less_than":[3000]}}}}`)))
		members := func(ref string, p promotype.ListParams) ([]string, int) {
			t.Helper()
			l := must[*promotype.List[catalog.CollectionMember]](t)(cs.ListCollectionMembers(ctx, f.project, ref, p))
			var got []string
			for _, m := range l.Data {
				if m.SKU != nil {
					got = append(got, m.SKU.ID)
					if m.Parent == nil || m.Parent.ID != ids[0] {
						t.Errorf("sku %s without its product: %+v", m.SKU.ID, m.Parent)
					}
				} else {
					got = append(got, m.Product.ID)
				}
			}
			return got, l.Total
		}
		got, total := members(auto.ID, promotype.ListParams{})
		diff(t, "auto members", []string{sku.ID, ids[1], ids[0]}, got)
		if total != 3 {
			t.Errorf("total %d", total)
		}
		got, _ = members("Under 30", promotype.ListParams{Limit: 2, Page: 2, Order: "created_at"})
		diff(t, "auto page 2 oldest first", []string{sku.ID}, got)

		must[*catalog.Collection](t)(cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t,
			`{"type":"STATIC","name":"Two","products":[{"id":"d","object":"product"},{"id":"a-1","object":"sku"},{"id":"d","object":"product"}]}`)))
		got, total = members("Two", promotype.ListParams{})
		diff(t, "static members in listed order, once", []string{ids[3], sku.ID}, got)
		if total != 2 {
			t.Errorf("static total %d", total)
		}

		for _, tc := range []struct{ name, body, key string }{
			{"no type", `{"name":"x"}`, "invalid_payload"},
			{"filter on static", `{"name":"x","type":"STATIC","filter":{"junction":"and"}}`, "invalid_payload"},
			{"auto without filter", `{"name":"x","type":"AUTO_UPDATE"}`, "invalid_payload"},
			{"unknown field", `{"name":"x","type":"AUTO_UPDATE","filter":{"junction":"and","color":{"conditions":{"$is":["red"]}}}}`, "invalid_payload"},
			{"unknown operator", `{"name":"x","type":"AUTO_UPDATE","filter":{"junction":"and","price":{"conditions":{"$near":[1]}}}}`, "invalid_payload"},
			{"no junction", `{"name":"x","type":"AUTO_UPDATE","filter":{"price":{"conditions":{"$is":[1]}}}}`, "invalid_payload"},
			{"text bound", `{"name":"x","type":"AUTO_UPDATE","filter":{"junction":"and","price":{"conditions":{"$more_than":["lots"]}}}}`, "invalid_payload"},
			{"bad object", `{"name":"x","type":"STATIC","products":[{"id":"a","object":"thing"}]}`, "invalid_payload"},
		} {
			_, err := cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t, tc.body))
			wantErr(t, err, 400, tc.key)
		}
		_, err := cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t, `{"name":"x","type":"STATIC","products":[{"id":"nope","object":"product"}]}`))
		wantErr(t, err, 404, "not_found")
		_, err = cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t, `{"name":"Two","type":"STATIC","products":[]}`))
		wantErr(t, err, 409, "duplicate_found")

		// A rule names only collections that exist.
		for _, body := range []string{
			`{"name":"x","applicable_to":{"excluded":[{"object":"products_collection","id":"pc_nope"}]}}`,
			`{"name":"x","rules":{"logic":"1","1":{"name":"order.items.every","conditions":{"$is":[{"id":"pc_nope","object":"products_collection"}]}}}}`,
		} {
			_, err := f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t, body))
			wantErr(t, err, 404, "not_found")
		}
		vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"ok","applicable_to":{"included":[{"object":"products_collection","id":"`+auto.ID+`"}]}}`)))
		_, err = f.eng.ValidationRules().Update(ctx, f.project, vr.ID, ruleParams(t,
			`{"rules":{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"pc_nope","object":"products_collection"}]}}}}`))
		wantErr(t, err, 404, "not_found")
	})
}

func promoPtr[T any](v T) *T { return &v }

// TestCollectionsInStackableValidation: a voucher whose rule and
// applicable_to name collections is checked and priced by POST
// /v1/validations as by the promotion validation.
func TestCollectionsInStackableValidation(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Catalog()
		mug := must[*catalog.Product](t)(cs.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promoPtr("mug"),
			Price: promoPtr(int64(2000)), Metadata: promotype.Metadata{"brand": "acme"}}))
		tv := must[*catalog.Product](t)(cs.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promoPtr("tv"), Price: promoPtr(int64(90000))}))
		acme := must[*catalog.Collection](t)(cs.CreateCollection(ctx, f.project, decode[catalog.CollectionParams](t,
			`{"type":"AUTO_UPDATE","name":"Acme","filter":{"junction":"and","metadata.brand":{"conditions":{"$is":["acme"]}}}}`)))
		vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"acme in the cart","rules":{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"`+acme.ID+`","object":"products_collection"}]}}},`+
				`"applicable_to":{"included":[{"object":"products_collection","id":"`+acme.ID+`"}]}}`)))
		in := decode[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":50,"effect":"APPLY_TO_ITEMS"},"validation_rules":["`+vr.ID+`"]}`)
		in.Code = promoPtr("ACME50")
		must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
		validate := func(items string) *redemption.Validation {
			t.Helper()
			return must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, decode[redemption.ValidationParams](t,
				`{"redeemables":[{"object":"voucher","id":"ACME50"}],"order":{"items":`+items+`}}`)))
		}
		got := validate(`[{"product_id":"` + mug.ID + `","quantity":1},{"product_id":"` + tv.ID + `","quantity":1}]`)
		if !got.Valid || got.Order.TotalDiscountAmount != 1000 || got.Order.Items[0].DiscountAmount != 1000 || got.Order.Items[1].DiscountAmount != 0 {
			t.Errorf("mug and tv: valid %v, order %+v", got.Valid, got.Order)
		}
		if got := validate(`[{"product_id":"` + tv.ID + `","quantity":1}]`); got.Valid {
			t.Errorf("tv only: valid, want the rule to fail")
		}
	})
}
