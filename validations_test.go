package promo_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// js decodes a JSON literal into a T (the request types of the Go API are
// those of the REST API).
func js[T any](t testing.TB, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// stackFixture is an engine over a store with what the stackable
// validation tests redeem.
type stackFixture struct {
	eng     *promo.Engine
	store   storage.Store
	project string
	ids     map[string]string
}

func newStackFixture(t testing.TB, st storage.Store) *stackFixture {
	t.Helper()
	eng := must[*promo.Engine](t)(promo.New(st, promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(&promotype.SequentialIDs{})))
	p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"})).ID
	f := &stackFixture{eng: eng, store: st, project: p, ids: map[string]string{}}
	product := func(name string, price int64) string {
		return must[*catalog.Product](t)(eng.Catalog().CreateProduct(ctx, p, js[catalog.ProductParams](t, fmt.Sprintf(`{"name":%q,"price":%d}`, name, price)))).ID
	}
	f.ids["watchflix"], f.ids["roses"] = product("Watchflix", 2000), product("Roses", 700)
	both := must[*rule.ValidationRule](t)(eng.ValidationRules().Create(ctx, p, js[rule.Params](t, `{"name":"Both","applicable_to":{"included":[`+
		`{"object":"product","id":"`+f.ids["watchflix"]+`","effect":"APPLY_TO_EVERY"},{"object":"product","id":"`+f.ids["roses"]+`","effect":"APPLY_TO_EVERY"}]}}`))).ID
	vip := must[*rule.ValidationRule](t)(eng.ValidationRules().Create(ctx, p, js[rule.Params](t,
		`{"name":"VIP","rules":{"1":{"name":"customer.metadata","property":"vip","conditions":{"$is":[true]}},"logic":"1"}}`))).ID
	vouchers := map[string]string{
		"GNcuPKGe": `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1000,"effect":"APPLY_TO_ITEMS"},"validation_rules":["` + both + `"]}`,
		"M3X8IwW8": `{"type":"GIFT_VOUCHER","gift":{"amount":5000}}`,
		"dBj56oqJ": `{"type":"GIFT_VOUCHER","gift":{"amount":20500}}`,
		"39vnjyS8": `{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":20}}`,
		"a2pl4qJw": `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1000}}`,
		"ONCE":     `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1}}`,
		"MONDAYS":  `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"validity_day_of_week":[1]}`,
		"VIPONLY":  `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"validation_rules":["` + vip + `"]}`,
	}
	for code, body := range vouchers {
		in := js[voucher.Params](t, body)
		in.Code = &code
		must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
	}
	// ONCE has been redeemed once (redemptions are not built yet: the
	// counter is set in the store).
	v := must[*voucher.Voucher](t)(st.FindVoucherByCode(ctx, p, "ONCE"))
	v.RedeemedQuantity = 1
	if err := st.UpdateVoucher(ctx, v); err != nil {
		t.Fatal(err)
	}
	loyalty := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}}`))).ID
	if _, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10}); err != nil {
		t.Fatal(err)
	}
	card := js[voucher.Params](t, `{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}`)
	card.Code, card.CampaignID = promotype.Ptr("AnsvocvP"), &loyalty
	must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, card))
	f.ids["reward"] = must[*reward.Reward](t)(eng.Rewards().Create(ctx, p, js[reward.Params](t,
		`{"name":"Mug","type":"MATERIAL","parameters":{"product":{"id":"`+f.ids["roses"]+`"}}}`))).ID
	must[*reward.Assignment](t)(eng.Rewards().CreateAssignment(ctx, p, f.ids["reward"], js[reward.AssignmentParams](t,
		`{"campaign":"`+loyalty+`","parameters":{"loyalty":{"points":4}}}`))) // the mug costs 4 points
	f.ids["coin"] = must[*reward.Reward](t)(eng.Rewards().Create(ctx, p, js[reward.Params](t,
		`{"name":"Pay with points","type":"COIN","parameters":{"coin":{"exchange_ratio":20,"points_ratio":100}}}`))).ID

	camp := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t, `{"name":"Promotions","campaign_type":"PROMOTION"}`))).ID
	tier := func(key, body string) {
		f.ids[key] = must[*campaign.PromotionTier](t)(eng.PromotionTiers().Create(ctx, p, camp, js[campaign.TierParams](t, body))).ID
	}
	tier("tier40", `{"name":"40%","action":{"discount":{"type":"PERCENT","percent_off":40,"effect":"APPLY_TO_ORDER"}}}`)
	tier("tier30", `{"name":"30","action":{"discount":{"type":"AMOUNT","amount_off":30,"effect":"APPLY_TO_ORDER"}}}`)
	tier("tier8000", `{"name":"8000","action":{"discount":{"type":"AMOUNT","amount_off":8000,"effect":"APPLY_TO_ORDER"}}}`)
	tier("tierLater", `{"name":"Later","start_date":"2026-06-01T00:00:00Z","action":{"discount":{"type":"AMOUNT","amount_off":1}}}`)
	f.ids["order"] = must[*order.Order](t)(eng.Orders().Create(ctx, p, js[order.Params](t, `{"amount":10000,"discount_amount":9200}`))).ID
	return f
}

// TestStackableValidation reproduces W1, W3 and E10 through the Go API on
// every store, and the per-redeemable errors that a
// validation can meet before redemptions exist.
func TestStackableValidation(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			id := func(k string) string { return f.ids[k] }
			e10 := redemption.StackingRulesParams{ApplicableRedeemablesLimit: promotype.Ptr(30)}
			tests := []struct {
				name   string
				rules  *redemption.StackingRulesParams
				body   string
				valid  bool
				status []string // each redeemable, "STATUS" or "STATUS:key", in application order
				total  int64    // final total_amount
				disc   int64    // final total_discount_amount
			}{
				{name: "W1", body: `{"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":100}},{"object":"voucher","id":"39vnjyS8"},` +
					`{"object":"promotion_tier","id":"` + id("tier8000") + `"}],"order":{"amount":200000}}`,
					valid: true, status: []string{"APPLICABLE", "APPLICABLE", "APPLICABLE"}, total: 151920, disc: 48080},
				{name: "W3", body: `{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"id":"` + id("order") + `"}}`,
					valid: true, status: []string{"APPLICABLE"}, total: 0, disc: 10000},
				{name: "E10", rules: &e10, body: `{"redeemables":[{"object":"voucher","id":"GNcuPKGe"},` +
					`{"object":"voucher","id":"AnsvocvP","reward":{"id":"` + id("reward") + `","points":4}},{"object":"voucher","id":"M3X8IwW8","gift":{"credits":100}},` +
					`{"object":"promotion_tier","id":"` + id("tier40") + `"},{"object":"promotion_tier","id":"` + id("tier30") + `"}],` +
					`"order":{"items":[{"product_id":"` + id("watchflix") + `","quantity":1},{"product_id":"` + id("roses") + `","quantity":1}]}}`,
					valid: true, status: []string{"APPLICABLE", "APPLICABLE", "APPLICABLE", "APPLICABLE", "APPLICABLE"}, total: 510, disc: 2190},
				{name: "pay with points", body: `{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"` + id("coin") + `","points":100}}],"order":{"amount":6000}}`,
					valid: true, status: []string{"APPLICABLE"}, total: 4000, disc: 2000},
				{name: "quantity_exceeded", body: `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`,
					status: []string{"INAPPLICABLE:quantity_exceeded"}, total: 1000},
				{name: "voucher_not_active_now", body: `{"redeemables":[{"object":"voucher","id":"MONDAYS"}],"order":{"amount":1000}}`,
					status: []string{"INAPPLICABLE:voucher_not_active_now"}, total: 1000},
				{name: "promotion_not_active_now", body: `{"redeemables":[{"object":"promotion_tier","id":"` + id("tierLater") + `"}],"order":{"amount":1000}}`,
					status: []string{"INAPPLICABLE:promotion_not_active_now"}, total: 1000},
				{name: "customer_rules_violated", body: `{"customer":{"source_id":"bob","metadata":{"vip":false}},"redeemables":[{"object":"voucher","id":"VIPONLY"}],"order":{"amount":1000}}`,
					status: []string{"INAPPLICABLE:customer_rules_violated"}, total: 1000},
				{name: "customer rules met", body: `{"customer":{"source_id":"ann","metadata":{"vip":true}},"redeemables":[{"object":"voucher","id":"VIPONLY"}],"order":{"amount":1000}}`,
					valid: true, status: []string{"APPLICABLE"}, total: 900, disc: 100},
				{name: "loyalty_card_points_exceeded", body: `{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"` + id("coin") + `","points":101}}],"order":{"amount":6000}}`,
					status: []string{"INAPPLICABLE:loyalty_card_points_exceeded"}, total: 6000},
				{name: "unknown reward", body: `{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"rew_missing"}}],"order":{"amount":6000}}`,
					status: []string{"INAPPLICABLE:not_found"}, total: 6000},
				{name: "missing_amount", body: `{"redeemables":[{"object":"voucher","id":"M3X8IwW8"}],"order":{"amount":0}}`,
					status: []string{"INAPPLICABLE:missing_amount"}, total: 0},
			}
			t.Run("an answer is the caller's own", func(t *testing.T) {
				body := `{"redeemables":[{"object":"promotion_tier","id":"` + id("tier30") + `"}],"order":{"amount":1000}}`
				first := must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, js[redemption.ValidationParams](t, body)))
				r := first.Redeemables[0]
				r.Result.Discount.AmountOff = promotype.Ptr(promotype.NewDecimal("999"))
				r.Metadata["x"] = "y"
				again := must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, js[redemption.ValidationParams](t, body)))
				if got := again.Redeemables[0]; got.Result.Discount.AmountOff.String() != "30" || len(got.Metadata) != 0 || again.Order.TotalAmount != 970 {
					t.Errorf("after mutating an answer: amount_off %s, metadata %v, total %d", got.Result.Discount.AmountOff, got.Metadata, again.Order.TotalAmount)
				}
			})
			t.Run("another project sees none of these", func(t *testing.T) {
				b := must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Other"})).ID
				stored := must[*redemption.StackingRules](t)(f.eng.StackingRules().Create(ctx, f.project,
					redemption.StackingRulesParams{RedeemablesLimit: promotype.Ptr(3), ApplicableRedeemablesLimit: promotype.Ptr(3)}))
				defer func() {
					if err := f.eng.StackingRules().Delete(ctx, f.project, stored.ID); err != nil {
						t.Fatal(err)
					}
				}()
				var keys []string
				var got *redemption.Validation
				for _, body := range []string{`{"redeemables":[{"object":"voucher","id":"a2pl4qJw"},{"object":"promotion_tier","id":"` + id("tier30") + `"}]}`,
					`{"redeemables":[{"object":"promotion_stack","id":"stack_x"}]}`} {
					got = must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, b, js[redemption.ValidationParams](t, body)))
					for _, r := range got.Redeemables {
						keys = append(keys, r.Result.Error.Key)
					}
				}
				diff(t, "errors in project b", []string{"not_found", "not_found", "not_found"}, keys)
				if got.StackingRules.RedeemablesLimit != 30 {
					t.Errorf("project b's rules: redeemables_limit %d, want the default 30", got.StackingRules.RedeemablesLimit)
				}
				_, err := f.eng.StackingRules().Get(ctx, b, stored.ID)
				wantErr(t, err, 404, "not_found")
				wantErr(t, f.eng.StackingRules().Delete(ctx, b, stored.ID), 404, "not_found")
			})
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					sr := f.eng.StackingRules()
					if tc.rules != nil {
						r := must[*redemption.StackingRules](t)(sr.Create(ctx, f.project, *tc.rules))
						defer func() {
							if err := sr.Delete(ctx, f.project, r.ID); err != nil {
								t.Fatal(err)
							}
						}()
					}
					got := must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, js[redemption.ValidationParams](t, tc.body)))
					var status []string
					for _, r := range got.Redeemables {
						s := string(r.Status)
						if r.Result.Details != nil && r.Status != redemption.Applicable {
							s += ":" + r.Result.Details.Key
						}
						status = append(status, s)
					}
					diff(t, "statuses", tc.status, status)
					if got.Valid != tc.valid || got.Order == nil || got.Order.TotalAmount != tc.total || got.Order.TotalDiscountAmount != tc.disc {
						t.Errorf("valid %v, order %+v; want valid %v, total %d, discount %d", got.Valid, got.Order, tc.valid, tc.total, tc.disc)
					}
				})
			}
		})
	}
}
