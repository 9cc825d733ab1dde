package promo_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

func decode[T any](t *testing.T, js string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// promotionCampaign creates a PROMOTION campaign.
func promotionCampaign(t *testing.T, f fixture, name string) *campaign.Campaign {
	t.Helper()
	return must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project,
		decode[campaign.Params](t, `{"name":"`+name+`","campaign_type":"PROMOTION"}`)))
}

// cart72100 is the six-line cart of the hosted service's documented examples (72100).
const cart72100 = `{"items":[{"price":2900,"quantity":1},{"price":3100,"quantity":1},{"price":2900,"quantity":1},` +
	`{"price":1700,"quantity":1},{"price":1500,"quantity":1},{"price":60000,"quantity":1}]}`

func TestPromotionTierLifecycle(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		pt := f.eng.PromotionTiers()
		c := promotionCampaign(t, f, "Promos")
		a := must[*campaign.PromotionTier](t)(pt.Create(ctx, f.project, c.ID, decode[campaign.TierParams](t, `{"name":"A","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`)))
		b := must[*campaign.PromotionTier](t)(pt.Create(ctx, f.project, c.ID, decode[campaign.TierParams](t, `{"name":"B","hierarchy":5}`)))
		cc := must[*campaign.PromotionTier](t)(pt.Create(ctx, f.project, c.ID, decode[campaign.TierParams](t, `{"name":"C"}`)))
		if a.Hierarchy != 1 || b.Hierarchy != 5 || cc.Hierarchy != 6 {
			t.Errorf("hierarchies %d %d %d, want 1 5 6", a.Hierarchy, b.Hierarchy, cc.Hierarchy)
		}
		if a.Object != "promotion_tier" || a.PromotionID != c.ID || a.Campaign == nil || a.Campaign.ID != c.ID || !a.Active {
			t.Errorf("tier = %+v", a)
		}
		voucherCamp := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project,
			decode[campaign.Params](t, `{"name":"Coupons","voucher":{"discount":{"type":"AMOUNT","amount_off":1}}}`)))
		if _, err := pt.Create(ctx, f.project, voucherCamp.ID, decode[campaign.TierParams](t, `{"name":"x"}`)); err == nil {
			t.Errorf("a tier in a DISCOUNT_COUPONS campaign was accepted")
		}
		l := must[*promoList](t)(pt.List(ctx, f.project, c.ID, campaign.TierListParams{}))
		if l.Total != 3 {
			t.Errorf("list total %d", l.Total)
		}
		must[*campaign.PromotionTier](t)(pt.SetActive(ctx, f.project, b.ID, false))
		yes := true
		l = must[*promoList](t)(pt.List(ctx, f.project, "", campaign.TierListParams{IsAvailable: &yes}))
		if l.Total != 2 {
			t.Errorf("available total %d, want 2", l.Total)
		}
		// active cannot change through an update, but its current value is
		// accepted (a tier read and sent back).
		no := false
		if _, err := pt.Update(ctx, f.project, a.ID, campaign.TierParams{Active: &no}); err == nil {
			t.Errorf("update accepted a change of active")
		}
		if _, err := pt.Update(ctx, f.project, a.ID, campaign.TierParams{Active: &yes}); err != nil {
			t.Errorf("update with active unchanged: %v", err)
		}
		if err := pt.Delete(ctx, f.project, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := pt.Get(ctx, f.project, a.ID); err == nil {
			t.Errorf("deleted tier still found")
		}
		got := must[*campaign.Campaign](t)(f.eng.Campaigns().Get(ctx, f.project, c.ID))
		if got.Promotion.Total != 2 || got.Promotion.Data[0].ID != b.ID {
			t.Errorf("campaign promotion list: %+v", got.Promotion)
		}

		// Deleting the campaign deletes its tiers, their assignments and its stacks.
		vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"R","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1]}},"logic":"1"}}`)))
		must[*campaign.PromotionTier](t)(pt.Update(ctx, f.project, cc.ID, campaign.TierParams{ValidationRules: []string{vr.ID}}))
		st := must[*campaign.PromotionStack](t)(f.eng.PromotionStacks().Create(ctx, f.project, c.ID, campaign.StackParams{
			Name: promo.Ptr("S"), Tiers: &campaign.StackTiersParams{IDs: []string{cc.ID, b.ID}}}))
		if n := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Get(ctx, f.project, vr.ID)).AssignmentsCount; n != 1 {
			t.Errorf("assignments_count %d, want 1", n)
		}
		must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, c.ID, false))
		if _, err := pt.Get(ctx, f.project, cc.ID); err == nil {
			t.Errorf("tier of a deleted campaign still found")
		}
		if _, err := f.eng.PromotionStacks().Find(ctx, f.project, st.ID); err == nil {
			t.Errorf("stack of a deleted campaign still found")
		}
		if n := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Get(ctx, f.project, vr.ID)).AssignmentsCount; n != 0 {
			t.Errorf("assignments_count after campaign delete %d, want 0", n)
		}
	})
}

type promoList = promotype.List[*campaign.PromotionTier]

func TestValidatePromotionsAmountOnOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := promotionCampaign(t, f, "Promos")
		pt := f.eng.PromotionTiers()
		tier := must[*campaign.PromotionTier](t)(pt.Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"100 off","banner":"Save","action":{"discount":{"type":"AMOUNT","amount_off":100}},"metadata":{"k":"v"}}`)))
		in := decode[promotion.ValidationParams](t, `{"customer":{"source_id":"alice"},"order":`+cart72100+`}`)
		res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
		if !res.Valid || len(res.Promotions) != 1 {
			t.Fatalf("result = %+v", res)
		}
		p := res.Promotions[0]
		o := p.Order.Order()
		if p.ID != tier.ID || p.DiscountAmount != 100 || p.AppliedDiscountAmount != 100 || o.Amount != 72100 ||
			o.TotalDiscountAmount != 100 || o.TotalAmount != 72000 || o.AppliedDiscountAmount != 100 || o.TotalAppliedDiscountAmount != 100 {
			t.Errorf("E1: tier %s discount %d applied %d; order amount %d total_discount %d total %d applied %d total_applied %d",
				p.ID, p.DiscountAmount, p.AppliedDiscountAmount, o.Amount, o.TotalDiscountAmount, o.TotalAmount, o.AppliedDiscountAmount, o.TotalAppliedDiscountAmount)
		}
		for _, it := range o.Items {
			if it.SubtotalAmount != it.Amount {
				t.Errorf("line subtotal %d != amount %d", it.SubtotalAmount, it.Amount)
			}
		}
		if p.Campaign.ID != c.ID || p.Object != "promotion_tier" || *p.Banner != "Save" || p.Hierarchy != 1 || p.TrackingID != res.TrackingID {
			t.Errorf("tier result = %+v", p)
		}
		again := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
		if again.TrackingID != res.TrackingID || len(res.TrackingID) != len("track_")+20 {
			t.Errorf("tracking ids %q %q", res.TrackingID, again.TrackingID)
		}

		// Another project sees none of this project's tiers.
		p2 := must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Other"}))
		if res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, p2.ID, in, promotion.ValidationQuery{})); res.Valid {
			t.Errorf("another project validated this project's tier: %+v", res)
		}
		// A filter naming another tier keeps none; a disabled tier is gone
		// at once (the cache follows writes through the engine).
		none := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{PromotionIDs: []string{"promo_other"}}))
		if none.Valid || len(none.Promotions) != 0 {
			t.Errorf("filtered = %+v", none)
		}
		must[*campaign.PromotionTier](t)(pt.SetActive(ctx, f.project, tier.ID, false))
		off := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
		if off.Valid || len(off.Promotions) != 0 {
			t.Errorf("disabled tier validated: %+v", off)
		}
		must[*campaign.PromotionTier](t)(pt.SetActive(ctx, f.project, tier.ID, true))
		must[*campaign.Campaign](t)(f.eng.Campaigns().Disable(ctx, f.project, c.ID))
		off = must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
		if off.Valid {
			t.Errorf("tier of a disabled campaign validated")
		}
	})
}

func TestValidatePromotionsItemsWithRule(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		product := func(src string, price int64) *catalog.Product {
			return must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: &src, Name: &src, Price: &price}))
		}
		mug, pen, tv := product("mug", 2000), product("pen", 8000), product("tv", 185000)
		vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"Gold customers","rules":{"1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},"logic":"1"},`+
				`"applicable_to":{"included":[{"object":"product","id":"`+mug.ID+`"},{"object":"product","id":"`+pen.ID+`"}],"excluded":[{"object":"product","id":"`+tv.ID+`"}]}}`)))
		c := promotionCampaign(t, f, "Promos")
		tier := must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"1000 off each","validation_rules":["`+vr.ID+`"],"action":{"discount":{"type":"AMOUNT","amount_off":1000,"effect":"APPLY_TO_ITEMS"}}}`)))
		order := `{"items":[{"product_id":"` + mug.ID + `","quantity":1},{"product_id":"` + pen.ID + `","quantity":1},{"product_id":"` + tv.ID + `","quantity":1}]}`

		silver := decode[promotion.ValidationParams](t, `{"customer":{"source_id":"bob","metadata":{"tier":"silver"}},"order":`+order+`}`)
		if res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, silver, promotion.ValidationQuery{})); res.Valid {
			t.Errorf("silver customer validated: %+v", res)
		}
		gold := decode[promotion.ValidationParams](t, `{"customer":{"source_id":"ann","metadata":{"tier":"gold"}},"order":`+order+`}`)
		res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, gold, promotion.ValidationQuery{}))
		if !res.Valid || len(res.Promotions) != 1 {
			t.Fatalf("gold = %+v", res)
		}
		p := res.Promotions[0]
		o := p.Order.Order()
		// E7: order 195000, lines mug 2000 and pen 8000 matched → 1000 + 1000.
		if p.ID != tier.ID || p.DiscountAmount != 2000 || o.Amount != 195000 || o.ItemsDiscountAmount != 2000 || o.TotalAmount != 193000 {
			t.Errorf("E7: discount %d; amount %d items_discount %d total %d", p.DiscountAmount, o.Amount, o.ItemsDiscountAmount, o.TotalAmount)
		}
		if o.Items[0].DiscountAmount != 1000 || o.Items[1].DiscountAmount != 1000 || o.Items[2].DiscountAmount != 0 {
			t.Errorf("line discounts %d %d %d", o.Items[0].DiscountAmount, o.Items[1].DiscountAmount, o.Items[2].DiscountAmount)
		}
		if p.ApplicableTo.Total != 2 || p.InapplicableTo.Total != 1 || p.InapplicableTo.Data[0].ID != tv.ID {
			t.Errorf("applicable_to %+v inapplicable_to %+v", p.ApplicableTo, p.InapplicableTo)
		}
		// Updating the rule is seen at once.
		f.clock.Advance(time.Minute)
		must[*rule.ValidationRule](t)(f.eng.ValidationRules().Update(ctx, f.project, vr.ID, ruleParams(t,
			`{"rules":{"1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["platinum"]}},"logic":"1"}}`)))
		if res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, gold, promotion.ValidationQuery{})); res.Valid {
			t.Errorf("rule update not seen: %+v", res)
		}
		// audienceRulesOnly still checks customer rules.
		if res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, gold, promotion.ValidationQuery{AudienceRulesOnly: true})); res.Valid {
			t.Errorf("audience only: customer rule ignored")
		}
	})
}

func TestEvaluateStackRunningTotals(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := promotionCampaign(t, f, "Promos")
		pt := f.eng.PromotionTiers()
		tier := func(body string) string {
			return must[*campaign.PromotionTier](t)(pt.Create(ctx, f.project, c.ID, decode[campaign.TierParams](t, body))).ID
		}
		items := tier(`{"name":"1000 off items","action":{"discount":{"type":"AMOUNT","amount_off":1000,"effect":"APPLY_TO_ITEMS"}}}`)
		pct := tier(`{"name":"40 percent","action":{"discount":{"type":"PERCENT","percent_off":40}}}`)
		off := tier(`{"name":"30 off","action":{"discount":{"type":"AMOUNT","amount_off":30}}}`)
		closed := tier(`{"name":"Closed","active":false,"action":{"discount":{"type":"AMOUNT","amount_off":5}}}`)
		st := must[*campaign.PromotionStack](t)(f.eng.PromotionStacks().Create(ctx, f.project, c.ID, campaign.StackParams{
			Name: promo.Ptr("E10"), Tiers: &campaign.StackTiersParams{IDs: []string{items, closed, pct, off}}}))
		if st.Tiers.HierarchyMode != "MANUAL" || st.Object != "promotion_stack" {
			t.Errorf("stack = %+v", st)
		}
		in := decode[promotion.ValidationParams](t, `{"order":{"items":[{"price":2000,"quantity":1},{"price":700,"quantity":1}]}}`)
		ev := must[*promotion.StackEvaluation](t)(f.eng.Promotions().EvaluateStack(ctx, f.project, st.ID, in))
		// E10 without the loyalty and gift steps: items 1000 + 700 (capped)
		// → total 1000; 40% of 1000 = 400 → 600; 30 → 570.
		want := []struct {
			valid    bool
			discount int64
			total    int64
		}{{true, 1700, 1000}, {false, 0, 1000}, {true, 400, 600}, {true, 30, 570}}
		if len(ev.Steps) != len(want) {
			t.Fatalf("steps %d", len(ev.Steps))
		}
		for i, w := range want {
			s := ev.Steps[i]
			if s.Valid != w.valid || s.DiscountAmount != w.discount || s.Order.TotalAmount != w.total {
				t.Errorf("step %d (%s): valid %v discount %d total %d, want %+v", i, s.TierID, s.Valid, s.DiscountAmount, s.Order.TotalAmount, w)
			}
		}
		if ev.Order.TotalAmount != 570 || ev.Order.TotalDiscountAmount != 2130 {
			t.Errorf("final order total %d total_discount %d, want 570 2130", ev.Order.TotalAmount, ev.Order.TotalDiscountAmount)
		}
		if _, err := f.eng.Promotions().EvaluateStack(ctx, f.project, "stack_nope", in); err == nil {
			t.Errorf("unknown stack evaluated")
		}
	})
}

// TestValidatePromotionsExpandCategory fills a valid tier's categories only
// when options.expand asks for "category".
func TestValidatePromotionsExpandCategory(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := must[*campaign.Category](t)(f.eng.Campaigns().CreateCategory(ctx, f.project, decode[campaign.CategoryParams](t, `{"name":"Summer","hierarchy":1}`)))
		c := promotionCampaign(t, f, "Promos")
		must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"100 off","category_id":"`+cat.ID+`","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`)))
		for _, tc := range []struct {
			options string
			want    []string
		}{
			{``, nil},
			{`,"options":{"expand":["category"]}`, []string{cat.ID}},
		} {
			in := decode[promotion.ValidationParams](t, `{"order":`+cart72100+tc.options+`}`)
			res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
			if len(res.Promotions) != 1 {
				t.Fatalf("%d valid tiers, want 1", len(res.Promotions))
			}
			p := res.Promotions[0]
			var got []string
			for _, c := range p.Categories {
				got = append(got, c.ID)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || p.CategoryID == nil || *p.CategoryID != cat.ID {
				t.Errorf("options %q: categories (-want +got):\n%s category_id %v", tc.options, diff, p.CategoryID)
			}
		}
	})
}

// TestDeleteTierLeavesStacks drops a deleted tier's id from the stacks of
// its campaign; a stack left without tiers is deleted with it.
func TestDeleteTierLeavesStacks(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		pt, ps := f.eng.PromotionTiers(), f.eng.PromotionStacks()
		c := promotionCampaign(t, f, "Promos")
		tier := func(name string) string {
			return must[*campaign.PromotionTier](t)(pt.Create(ctx, f.project, c.ID, decode[campaign.TierParams](t, `{"name":"`+name+`"}`))).ID
		}
		a, b := tier("A"), tier("B")
		stack := func(ids ...string) *campaign.PromotionStack {
			return must[*campaign.PromotionStack](t)(ps.Create(ctx, f.project, c.ID, campaign.StackParams{
				Name: promo.Ptr("S"), Tiers: &campaign.StackTiersParams{IDs: ids}}))
		}
		both, onlyA := stack(b, a), stack(a)
		if err := pt.Delete(ctx, f.project, a); err != nil {
			t.Fatal(err)
		}
		got := must[*campaign.PromotionStack](t)(ps.Find(ctx, f.project, both.ID))
		if diff := cmp.Diff([]string{b}, got.Tiers.IDs); diff != "" || got.UpdatedAt == nil {
			t.Errorf("stack tiers after the delete (-want +got):\n%s updated_at %v", diff, got.UpdatedAt)
		}
		if _, err := ps.Find(ctx, f.project, onlyA.ID); err == nil {
			t.Errorf("a stack of the deleted tier alone still exists")
		}
	})
}

// TestValidatePromotionsSeesCatalogChanges: a unit discount adds a catalog
// product priced when the project's tiers are compiled; a change of that
// price, and the product's delete, are seen by the next validation through
// the same engine.
func TestValidatePromotionsSeesCatalogChanges(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		gift := must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{
			Name: promo.Ptr("Gift"), Price: promo.Ptr(int64(700))}))
		c := promotionCampaign(t, f, "Gifts")
		must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"two gifts","action":{"discount":{"type":"UNIT","unit_off":2,"unit_type":"`+gift.ID+`","effect":"ADD_NEW_ITEMS"}}}`)))
		in := promotion.ValidationParams{Order: order.Params{Items: []order.ItemParams{order.PricedItem(5000, 1)}}}
		type answer struct {
			Discounts []int64
			Total     int64
		}
		validate := func() answer {
			t.Helper()
			res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
			var a answer
			for _, p := range res.Promotions {
				a.Discounts = append(a.Discounts, p.DiscountAmount)
				a.Total += p.Order.Amounts().TotalAmount
			}
			return a
		}
		if diff := cmp.Diff(answer{Discounts: []int64{1400}, Total: 5000}, validate()); diff != "" {
			t.Errorf("gift at 700 (-want +got):\n%s", diff)
		}
		must[*catalog.Product](t)(f.eng.Catalog().UpdateProduct(ctx, f.project, gift.ID, catalog.ProductParams{Price: promo.Ptr(int64(900))}))
		if diff := cmp.Diff(answer{Discounts: []int64{1800}, Total: 5000}, validate()); diff != "" {
			t.Errorf("gift repriced at 900 (-want +got):\n%s", diff)
		}
		if err := f.eng.Catalog().DeleteProduct(ctx, f.project, gift.ID, false); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(answer{}, validate()); diff != "" {
			t.Errorf("gift deleted: the tier cannot price (-want +got):\n%s", diff)
		}
	})
}

// TestPromotionCacheIsPerProject: a write in one project drops only that
// project's compiled tiers; another project's validations keep using
// theirs (counted by Promotions().Stats()).
func TestPromotionCacheIsPerProject(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		other := must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Other"})).ID
		in := decode[promotion.ValidationParams](t, `{"order":`+cart72100+`}`)
		validate := func(projectID string) {
			t.Helper()
			must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, projectID, in, promotion.ValidationQuery{}))
		}
		validate(f.project)
		validate(other)
		base := f.eng.Promotions().Stats()
		// Refreshes are left out: on a slow machine a snapshot may pass its
		// one-second TTL and be refreshed in the background.
		noRefreshes := cmpopts.IgnoreFields(promotion.Stats{}, "Refreshes")
		if diff := cmp.Diff(promotion.Stats{Projects: 2, Builds: 2}, base, noRefreshes); diff != "" {
			t.Errorf("after one validation per project (-want +got):\n%s", diff)
		}
		c := promotionCampaign(t, f, "Promos")
		must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"100 off","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`)))
		must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{Name: promo.Ptr("Mug")}))
		validate(other)
		validate(other)
		if diff := cmp.Diff(promotion.Stats{Projects: 2, Builds: 2}, f.eng.Promotions().Stats(), noRefreshes); diff != "" {
			t.Errorf("the other project rebuilt after writes in this one (-want +got):\n%s", diff)
		}
		validate(f.project)
		if diff := cmp.Diff(promotion.Stats{Projects: 2, Builds: 3}, f.eng.Promotions().Stats(), noRefreshes); diff != "" {
			t.Errorf("this project after its writes (-want +got):\n%s", diff)
		}
	})
}
