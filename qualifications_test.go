package promo_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// qualFixture is the stackable validation fixture plus what the
// qualification scenarios tell apart: a campaign of generated vouchers
// (not public; offered as a campaign while it has a free one), one of them
// published to ann, a loyalty card of ann's whose campaign pays with
// points, a promotion tier on roses only, a promotion stack.
func qualFixture(t *testing.T, f *stackFixture) {
	t.Helper()
	eng, p := f.eng, f.project
	f.ids["drop"] = must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Drop","vouchers_count":3,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":150}}}`))).ID
	club := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Club","campaign_type":"LOYALTY_PROGRAM","vouchers_count":2,"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":500}}}`))).ID
	must[int](t)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100}))
	pub := must[*publication.Publication](t)(eng.Publications().Create(ctx, p, publication.CreateParams{
		Campaign: &publication.CampaignRef{Name: promotype.Ptr("Drop")},
		Customer: &customer.Params{SourceID: promotype.Ptr("ann"), Metadata: promotype.Metadata{"vip": true}}}))
	f.ids["annVoucher"] = pub.Voucher.Code
	// 10 points pay 1.00: ann's 500 points pay 50.00.
	f.ids["coin"] = must[*reward.Reward](t)(eng.Rewards().Create(ctx, p, js[reward.Params](t,
		`{"name":"Pay with points","type":"COIN","parameters":{"coin":{"exchange_ratio":1,"points_ratio":10}}}`))).ID
	must[*reward.Assignment](t)(eng.Rewards().CreateAssignment(ctx, p, f.ids["coin"], js[reward.AssignmentParams](t,
		`{"campaign":"`+club+`"}`)))
	card := must[*publication.Publication](t)(eng.Publications().Create(ctx, p, publication.CreateParams{
		Campaign: &publication.CampaignRef{Name: promotype.Ptr("Club")}, Customer: &customer.Params{SourceID: promotype.Ptr("ann")}}))
	f.ids["annCard"] = card.Voucher.Code
	rosesRule := must[*rule.ValidationRule](t)(eng.ValidationRules().Create(ctx, p, js[rule.Params](t, `{"name":"Roses","rules":{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"`+f.ids["roses"]+`","object":"product"}]}},"logic":"1"}}`))).ID
	onRoses := must[*rule.ValidationRule](t)(eng.ValidationRules().Create(ctx, p, js[rule.Params](t, `{"name":"On roses","applicable_to":{"included":[{"object":"product","id":"`+f.ids["roses"]+`","effect":"APPLY_TO_EVERY"}]}}`))).ID
	camp := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t, `{"name":"Flowers","campaign_type":"PROMOTION"}`))).ID
	f.ids["tierRoses"] = must[*campaign.PromotionTier](t)(eng.PromotionTiers().Create(ctx, p, camp, js[campaign.TierParams](t,
		`{"name":"Roses 10","banner":"Roses!","action":{"discount":{"type":"AMOUNT","amount_off":10,"effect":"APPLY_TO_ORDER"}},"validation_rules":["`+rosesRule+`"]}`))).ID
	f.ids["tierRosesItems"] = must[*campaign.PromotionTier](t)(eng.PromotionTiers().Create(ctx, p, camp, js[campaign.TierParams](t,
		`{"name":"Roses items","action":{"discount":{"type":"PERCENT","percent_off":10,"effect":"APPLY_TO_ITEMS"}},"validation_rules":["`+onRoses+`"]}`))).ID
	f.ids["stack"] = must[*campaign.PromotionStack](t)(eng.PromotionStacks().Create(ctx, p, camp, js[campaign.StackParams](t,
		`{"name":"Both","tiers":{"ids":["`+f.ids["tierRoses"]+`","`+f.ids["tierRosesItems"]+`"],"hierarchy_mode":"MANUAL"}}`))).ID
}

// ids returns "object:id" of each qualified redeemable, sorted.
func qualifiedIDs(q *redemption.Qualification) []string {
	out := []string{}
	for _, r := range q.Redeemables.Data {
		out = append(out, r.Object+":"+r.ID)
	}
	slices.Sort(out)
	return out
}

// TestQualificationScenarios runs each scenario on every store against a
// fixture whose redeemables tell them apart.
func TestQualificationScenarios(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			qualFixture(t, f)
			id := func(k string) string { return f.ids[k] }
			roses := `"order":{"items":[{"product_id":"` + id("roses") + `","quantity":1}]}`
			big := `"order":{"amount":20000}`
			ann := `"customer":{"source_id":"ann","metadata":{"vip":true}}`
			// Public vouchers applicable to an order of 20000 without
			// items: the standalone discount and gift vouchers with no
			// rule, and GNcuPKGe whose item discount has no effect (the
			// default stacking rules redeem it anyway, so a validation
			// answers APPLICABLE).
			public := []string{"voucher:39vnjyS8", "voucher:GNcuPKGe", "voucher:M3X8IwW8", "voucher:a2pl4qJw", "voucher:dBj56oqJ"}
			tiers := []string{"promotion_tier:" + id("tier30"), "promotion_tier:" + id("tier40"), "promotion_tier:" + id("tier8000"),
				"promotion_tier:" + id("tierRosesItems")}
			public = append(public, "campaign:"+id("drop")) // a free code of Drop applies
			tests := []struct {
				name  string
				body  string
				rules bool // under redeemables_application_mode ALL
				want  []string
			}{
				{name: "ALL, no customer", body: `{` + big + `,"options":{"limit":50}}`, want: append(slices.Clone(public), tiers...)},
				{name: "ALL, ann", body: `{` + big + `,` + ann + `,"options":{"limit":50}}`,
					want: append(append(slices.Clone(public), tiers...), "voucher:VIPONLY", "voucher:"+id("annVoucher"), "voucher:"+id("annCard"))},
				{name: "CUSTOMER_WALLET", body: `{"scenario":"CUSTOMER_WALLET",` + big + `,` + ann + `}`,
					want: []string{"voucher:" + id("annVoucher"), "voucher:" + id("annCard")}},
				{name: "CUSTOMER_WALLET, nothing to pay", body: `{"scenario":"CUSTOMER_WALLET","order":{"amount":0},` + ann + `}`,
					want: []string{"voucher:" + id("annVoucher")}},
				{name: "filter resource_type campaign", body: `{` + big + `,"options":{"filters":{"resource_type":{"conditions":{"$is":["campaign"]}}}}}`,
					want: []string{"campaign:" + id("drop")}},
				{name: "CUSTOMER_WALLET without customer", body: `{"scenario":"CUSTOMER_WALLET",` + big + `}`, want: []string{}},
				{name: "PRODUCTS", body: `{"scenario":"PRODUCTS",` + roses + `,"options":{"limit":50}}`,
					want: []string{"promotion_tier:" + id("tierRoses"), "promotion_tier:" + id("tierRosesItems"), "voucher:GNcuPKGe"}},
				{name: "PRODUCTS_DISCOUNT", body: `{"scenario":"PRODUCTS_DISCOUNT",` + roses + `,"options":{"limit":50}}`,
					want: []string{"promotion_tier:" + id("tierRosesItems"), "voucher:GNcuPKGe"}},
				{name: "PRODUCTS_DISCOUNT_BY_CUSTOMER", body: `{"scenario":"PRODUCTS_DISCOUNT_BY_CUSTOMER",` + roses + `,` + ann + `}`,
					want: []string{"promotion_tier:" + id("tierRosesItems")}},
				{name: "PROMOTION_STACKS", body: `{"scenario":"PROMOTION_STACKS",` + roses + `}`, want: []string{"promotion_stack:" + id("stack")}},
				{name: "PROMOTION_STACKS, stacking rules ALL", body: `{"scenario":"PROMOTION_STACKS",` + big + `}`, rules: true, want: []string{}},
				{name: "filter resource_type", body: `{` + big + `,"options":{"limit":50,"filters":{"resource_type":{"conditions":{"$in":["promotion_tier"]}}}}}`, want: tiers},
				{name: "filter code", body: `{` + big + `,"options":{"filters":{"code":{"conditions":{"$is":["39vnjyS8"]}}}}}`, want: []string{"voucher:39vnjyS8"}},
				{name: "filter holder_role", body: `{` + big + `,` + ann + `,"options":{"filters":{"holder_role":{"conditions":{"$is":["OWNER"]}}}}}`,
					want: []string{"voucher:" + id("annVoucher"), "voucher:" + id("annCard")}},
				{name: "filter campaign_type or voucher_type", body: `{` + big + `,"options":{"limit":50,"filters":{"junction":"or",` +
					`"campaign_type":{"conditions":{"$is":["PROMOTION"]}},"voucher_type":{"conditions":{"$is":["GIFT_VOUCHER"]}}}}}`,
					want: append([]string{"voucher:M3X8IwW8", "voucher:dBj56oqJ"}, tiers...)},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if tt.rules {
						sr := must[*redemption.StackingRules](t)(f.eng.StackingRules().Create(ctx, f.project, js[redemption.StackingRulesParams](t, `{"redeemables_application_mode":"ALL"}`)))
						defer func() { must[struct{}](t)(struct{}{}, f.eng.StackingRules().Delete(ctx, f.project, sr.ID)) }()
					}
					q := must[*redemption.Qualification](t)(f.eng.Qualifications().Qualify(ctx, f.project, js[redemption.QualificationParams](t, tt.body)))
					slices.Sort(tt.want)
					diff(t, "qualified", tt.want, qualifiedIDs(q))
				})
			}
		})
	}
}

// TestQualificationPaging walks ALL page by page with the cursor and
// checks the sorting rules.
func TestQualificationPaging(t *testing.T) {
	eachStore(t, func(t *testing.T, fx fixture) {
		eng, p := fx.eng, fx.project
		for i := range 7 {
			fx.clock.Advance(time.Second)
			code := fmt.Sprintf("CODE%d", i)
			in := js[voucher.Params](t, fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":%d}}`, 100+10*((i*3)%7)))
			in.Code = &code
			createVoucher(t, fx, in)
		}
		var got []string
		var after *redemption.Cursor
		for range 5 {
			q := must[*redemption.Qualification](t)(eng.Qualifications().Qualify(ctx, p, redemption.QualificationParams{
				Order: js[*order.Params](t, `{"amount":1000}`), Options: &redemption.QualificationOptions{Limit: promotype.Ptr(3), StartingAfter: after}}))
			for _, r := range q.Redeemables.Data {
				got = append(got, r.ID)
			}
			if q.Redeemables.Total != len(q.Redeemables.Data) {
				t.Errorf("total %d, %d items", q.Redeemables.Total, len(q.Redeemables.Data))
			}
			if !q.Redeemables.HasMore {
				break
			}
			after = q.Redeemables.MoreStartingAfter
		}
		diff(t, "pages", []string{"CODE6", "CODE5", "CODE4", "CODE3", "CODE2", "CODE1", "CODE0"}, got)

		best := must[*redemption.Qualification](t)(eng.Qualifications().Qualify(ctx, p, js[redemption.QualificationParams](t,
			`{"order":{"amount":1000},"options":{"limit":50,"sorting_rule":"BEST_DEAL"}}`)))
		var amounts []int64
		for _, r := range best.Redeemables.Data {
			amounts = append(amounts, r.Order.TotalAppliedDiscountAmount)
		}
		if !slices.IsSortedFunc(amounts, func(a, b int64) int { return int(b - a) }) || len(amounts) != 7 {
			t.Errorf("BEST_DEAL amounts %v", amounts)
		}
	})
}

// TestQualificationRefusals: malformed requests are 400 invalid_payload.
func TestQualificationRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, fx fixture) {
		for _, body := range []string{
			`{"scenario":"EVERYTHING"}`,
			`{"options":{"limit":101}}`,
			`{"options":{"limit":0}}`,
			`{"options":{"sorting_rule":"RANDOM"}}`,
			`{"options":{"expand":["order"]}}`,
			`{"options":{"filters":{"colour":{"conditions":{"$is":["red"]}}}}}`,
			`{"options":{"filters":{"junction":"xor"}}}`,
			`{"options":{"filters":{"code":{}}}}`,
			`{"session":{"type":"UNLOCK"}}`,
		} {
			_, err := fx.eng.Qualifications().Qualify(ctx, fx.project, js[redemption.QualificationParams](t, body))
			if err == nil {
				t.Errorf("%s: no error", body)
				continue
			}
			wantErr(t, err, 400, "invalid_payload")
		}
	})
}

// TestQualificationAudienceOnly: AUDIENCE_ONLY checks the customer rules
// alone: a tier whose order rule the cart fails qualifies, a voucher whose
// customer rule the customer fails does not.
func TestQualificationAudienceOnly(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			qualFixture(t, f)
			got := func(customer string) []string {
				q := must[*redemption.Qualification](t)(f.eng.Qualifications().Qualify(ctx, f.project, js[redemption.QualificationParams](t,
					`{"scenario":"AUDIENCE_ONLY","order":{"amount":20000},"customer":`+customer+`,"options":{"limit":50}}`)))
				return qualifiedIDs(q)
			}
			bob := got(`{"source_id":"bob","metadata":{"vip":false}}`)
			if !slices.Contains(bob, "promotion_tier:"+f.ids["tierRoses"]) || slices.Contains(bob, "voucher:VIPONLY") {
				t.Errorf("bob (not vip), no roses in the cart: %v", bob)
			}
			ann := got(`{"source_id":"ann","metadata":{"vip":true}}`)
			if !slices.Contains(ann, "voucher:VIPONLY") || !slices.Contains(ann, "voucher:"+f.ids["annVoucher"]) {
				t.Errorf("ann (vip): %v", ann)
			}
		})
	}
}
