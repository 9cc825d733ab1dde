package httpadapter_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
)

// validationFixture creates what the stackable validation tests redeem:
// the E10 cart's products, vouchers (an item discount under a rule's
// applicable_to, a loyalty card, gift cards, percent and amount codes),
// a PROMOTION campaign with tiers and a stack, a stored order carrying an
// earlier discount (W3), and a few unusable vouchers. It returns their ids.
func validationFixture(h *harness) map[string]string {
	ids := map[string]string{}
	post := func(target, body string) map[string]any {
		return h.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
	}
	ids["watchflix"] = post("/v1/products", `{"name":"Watchflix","source_id":"test_prod_id_2","price":2000}`)["id"].(string)
	ids["roses"] = post("/v1/products", `{"name":"Bouquet - Romantic Roses","price":700}`)["id"].(string)
	ids["rule"] = post("/v1/validation-rules", `{"name":"Both products","applicable_to":{"included":[`+
		`{"object":"product","id":"`+ids["watchflix"]+`","effect":"APPLY_TO_EVERY"},`+
		`{"object":"product","id":"`+ids["roses"]+`","effect":"APPLY_TO_EVERY"}]}}`)["id"].(string)
	ids["bigCart"] = post("/v1/validation-rules", `{"name":"Big carts","error":{"message":"Spend 100.00 first"},`+
		`"rules":{"1":{"name":"order.amount","conditions":{"$more_than":[10000]}},"logic":"1"}}`)["id"].(string)
	post("/v1/vouchers/GNcuPKGe", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1000,"effect":"APPLY_TO_ITEMS"},"validation_rules":["`+ids["rule"]+`"]}`)
	ids["second"] = post("/v1/categories", `{"name":"Second","hierarchy":2}`)["id"].(string)
	loyalty := post("/v1/campaigns", `{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM","category_id":"`+ids["second"]+`",`+
		`"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}}`)["id"].(string)
	h.runActions()
	post("/v1/vouchers/AnsvocvP", `{"type":"LOYALTY_CARD","loyalty_card":{"points":100},"campaign_id":"`+loyalty+`"}`)
	ids["reward"] = post("/v1/rewards", `{"name":"Mug","type":"MATERIAL","parameters":{"product":{"id":"`+ids["roses"]+`"}}}`)["id"].(string)
	post("/v1/vouchers/M3X8IwW8", `{"type":"GIFT_VOUCHER","gift":{"amount":5000}}`)
	post("/v1/vouchers/ITEMSGIFT", `{"type":"GIFT_VOUCHER","gift":{"amount":5000,"effect":"APPLY_TO_ITEMS"}}`)
	post("/v1/vouchers/dBj56oqJ", `{"type":"GIFT_VOUCHER","gift":{"amount":20500}}`)
	post("/v1/vouchers/39vnjyS8", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":20}}`)
	post("/v1/vouchers/a2pl4qJw", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1000}}`)
	post("/v1/vouchers/BIGCART", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"validation_rules":["`+ids["bigCart"]+`"]}`)
	post("/v1/vouchers/OFF", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500}}`)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/OFF/disable"}, http.StatusOK)
	post("/v1/vouchers/OLD", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"expiration_date":"2025-12-31T00:00:00Z"}`)
	post("/v1/vouchers/SOON", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"start_date":"2026-06-01T00:00:00Z"}`)

	camp := post("/v1/campaigns", `{"name":"Promotions","campaign_type":"PROMOTION"}`)["id"].(string)
	ids["campaign"] = camp
	ids["tier40"] = post("/v1/promotions/"+camp+"/tiers", `{"name":"40% off","action":{"discount":{"type":"PERCENT","percent_off":40,"effect":"APPLY_TO_ORDER"}}}`)["id"].(string)
	ids["tier30"] = post("/v1/promotions/"+camp+"/tiers", `{"name":"30 off","action":{"discount":{"type":"AMOUNT","amount_off":30,"effect":"APPLY_TO_ORDER"}}}`)["id"].(string)
	ids["tier8000"] = post("/v1/promotions/"+camp+"/tiers", `{"name":"80.00 off","action":{"discount":{"type":"AMOUNT","amount_off":8000,"effect":"APPLY_TO_ORDER"}}}`)["id"].(string)
	ids["tierOff"] = post("/v1/promotions/"+camp+"/tiers", `{"name":"Disabled","action":{"discount":{"type":"AMOUNT","amount_off":1}}}`)["id"].(string)
	h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/tiers/" + ids["tierOff"] + "/disable"}, http.StatusOK)
	ids["stack"] = post("/v1/promotions/"+camp+"/stacks", `{"name":"40 then 30","tiers":{"ids":["`+ids["tier40"]+`","`+ids["tier30"]+`"]}}`)["id"].(string)
	ids["order"] = post("/v1/orders", `{"amount":10000,"discount_amount":9200}`)["id"].(string)
	// The card's program offers the mug for 4 points and the lamp for
	// 1,000. Stored directly, so that the sequential ids of what the tests
	// create next stay as their goldens recorded them.
	// A COIN reward pays any number of points as an order discount.
	ids["bigReward"], ids["coin"] = "rew_fixture_lamp", "rew_fixture_coin"
	ctx := context.Background()
	for _, rw := range []*reward.Reward{
		{ID: ids["bigReward"], Name: "Lamp", Type: reward.TypeMaterial, Parameters: reward.Parameters{Product: &reward.ProductParams{ID: ids["roses"]}}},
		{ID: ids["coin"], Name: "1 point = 0.01", Type: reward.TypeCoin, Parameters: reward.Parameters{Coin: &reward.CoinParams{
			ExchangeRatio: promotype.NewDecimal("0.01"), PointsRatio: promo.Ptr[int64](1)}}},
	} {
		rw.ProjectID, rw.Redeemed, rw.CreatedAt = h.project.ID, promo.Ptr[int64](0), promotype.Time{Time: epoch}
		if err := h.store.InsertReward(ctx, rw); err != nil {
			h.t.Fatal(err)
		}
	}
	for i, a := range []struct {
		reward string
		points int64
	}{{ids["reward"], 4}, {ids["bigReward"], 1000}} {
		if err := h.store.InsertRewardAssignment(ctx, &reward.Assignment{ID: fmt.Sprintf("rewa_fixture_%d", i), ProjectID: h.project.ID, RewardID: a.reward,
			RelatedObjectID: loyalty, RelatedObjectType: "campaign", CreatedAt: promotype.Time{Time: epoch},
			Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr(a.points)}}}); err != nil {
			h.t.Fatal(err)
		}
	}
	return ids
}

// validation is a POST /v1/validations of body with its {id} placeholders
// filled; a body without a customer gets one, so its tracking id is stable.
func validation(body string, ids map[string]string) req {
	if !strings.Contains(body, `"customer"`) {
		body = `{"customer":{"source_id":"alice"},` + body[1:]
	}
	for k, v := range ids {
		body = strings.ReplaceAll(body, "{"+k+"}", v)
	}
	return req{method: http.MethodPost, target: "/v1/validations", body: body}
}

// TestValidations walks the worked examples (E10, W1, W3) and the answers
// of POST /v1/validations through HTTP, each against its golden file.
func TestValidations(t *testing.T) {
	h := newHarness(t)
	ids := validationFixture(h)
	e10Rules := req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/stacking-rules",
		body: `{"applicable_redeemables_limit":30,"applicable_redeemables_per_category_limit":30,"applicable_exclusive_redeemables_limit":5}`}
	h.run(t, "validations", []step{
		{"w1_gift_voucher_tier", validation(`{"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":100}},`+
			`{"object":"voucher","id":"39vnjyS8"},{"object":"promotion_tier","id":"{tier8000}"}],"order":{"amount":200000}}`, ids), 200},
		{"w3_stored_order", validation(`{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"id":"{order}"}}`, ids), 200},
		{"false_not_found", validation(`{"redeemables":[{"object":"voucher","id":"eee33463"},{"object":"promotion_tier","id":"promo_missing"}],"order":{"amount":1000}}`, ids), 200},
		{"stack_expanded", validation(`{"redeemables":[{"object":"promotion_stack","id":"{stack}"}],"order":{"amount":1000}}`, ids), 200},
		{"partial_with_errors", validation(`{"redeemables":[{"object":"voucher","id":"OFF"},{"object":"voucher","id":"OLD"},{"object":"voucher","id":"SOON"},`+
			`{"object":"promotion_tier","id":"{tierOff}"},{"object":"voucher","id":"BIGCART"},`+
			`{"object":"voucher","id":"AnsvocvP"},{"object":"voucher","id":"M3X8IwW8","gift":{"credits":6000}},{"object":"voucher","id":"a2pl4qJw"}],`+
			`"order":{"amount":5000},"options":{"expand":["redeemable"]}}`, ids), 200},
		{"limit_skips", validation(`{"redeemables":[{"object":"voucher","id":"a2pl4qJw"},{"object":"voucher","id":"39vnjyS8"},{"object":"promotion_tier","id":"{tier30}"},`+
			`{"object":"promotion_tier","id":"{tier40}"},{"object":"promotion_tier","id":"{tier8000}"},{"object":"voucher","id":"dBj56oqJ"}],"order":{"amount":200000}}`, ids), 200},
		{"e10_rules", e10Rules, 200},
		{"e10_five_redeemables", validation(`{"customer":{"source_id":"36_bob"},"options":{"expand":["order","redeemable","category"]},"redeemables":[`+
			`{"object":"voucher","id":"GNcuPKGe"},{"object":"voucher","id":"AnsvocvP","reward":{"id":"{reward}","points":4}},`+
			`{"object":"voucher","id":"M3X8IwW8","gift":{"credits":100}},{"object":"promotion_tier","id":"{tier40}"},{"object":"promotion_tier","id":"{tier30}"}],`+
			`"order":{"items":[{"product_id":"{watchflix}","quantity":1},{"product_id":"{roses}","quantity":1}]}}`, ids), 200},
		// options.explain (an extension): why each one is not applicable.
		{"explained", validation(`{"redeemables":[{"object":"voucher","id":"OFF"},{"object":"voucher","id":"OLD"},{"object":"voucher","id":"SOON"},`+
			`{"object":"promotion_tier","id":"{tierOff}"},{"object":"voucher","id":"BIGCART"},`+
			`{"object":"voucher","id":"M3X8IwW8","gift":{"credits":6000}},{"object":"voucher","id":"a2pl4qJw"}],`+
			`"order":{"amount":5000},"options":{"explain":true}}`, ids), 200},
	})
}

// TestValidationsRefusals: the whole-request errors (count, duplicates,
// objects) are 400s in the Error shape, and change nothing.
func TestValidationsRefusals(t *testing.T) {
	h := newHarness(t)
	ids := validationFixture(h)
	many := `{"redeemables":[` + strings.Repeat(`{"object":"voucher","id":"x"},`, 30) + `{"object":"voucher","id":"y"}]}`
	h.run(t, "validations/refusals", []step{
		{"no_redeemables", validation(`{"redeemables":[]}`, ids), 400},
		{"missing_id", validation(`{"redeemables":[{"object":"voucher","id":"OFF"},{"object":"voucher"}]}`, ids), 400},
		{"unknown_object", validation(`{"redeemables":[{"object":"campaign","id":"x"}]}`, ids), 400},
		{"duplicated", validation(`{"redeemables":[{"object":"voucher","id":"OFF"},{"object":"voucher","id":"OFF"}]}`, ids), 400},
		{"stack_with_others", validation(`{"redeemables":[{"object":"promotion_stack","id":"{stack}"},{"object":"voucher","id":"OFF"}]}`, ids), 400},
		{"more_than_30", req{method: http.MethodPost, target: "/v1/validations", body: many}, 400},
		{"negative_credits", validation(`{"redeemables":[{"object":"voucher","id":"M3X8IwW8","gift":{"credits":-1}}]}`, ids), 400},
		{"unknown_order", validation(`{"redeemables":[{"object":"voucher","id":"OFF"}],"order":{"id":"ord_missing"}}`, ids), 404},
		{"project_limit", req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/stacking-rules",
			body: `{"redeemables_limit":2,"applicable_redeemables_limit":2,"applicable_redeemables_per_category_limit":1}`}, 200},
		{"above_project_limit", validation(`{"redeemables":[{"object":"voucher","id":"a"},{"object":"voucher","id":"b"},{"object":"voucher","id":"c"}]}`, ids), 400},
		{"redemption_schema", req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/metadata-schemas",
			body: `{"related_object":"redemption","properties":{"channel":{"type":"string","optional":true,"array":false}}}`}, 200},
		{"metadata_validation_failed", validation(`{"redeemables":[{"object":"voucher","id":"OFF"}],"metadata":{"channel":42}}`, ids), 400},
		{"metadata_validation_failed_legacy", req{method: http.MethodPost, target: "/v1/vouchers/OFF/validate", body: `{"metadata":{"channel":42}}`}, 400},
		{"metadata_valid", validation(`{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"metadata":{"channel":"web"},"order":{"amount":100}}`, ids), 200},
	})
}

// TestStackingRulesAPI walks the management endpoints: defaults without
// an id, create, a second create refused, get, update (a sent array
// replaces), the rules echoed by validation, delete back to the defaults.
func TestStackingRulesAPI(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID + "/stacking-rules"
	h.clock.Advance(0)
	steps := []step{
		{"list_defaults", req{method: http.MethodGet, target: mp}, 200},
		{"create", req{method: http.MethodPost, target: mp, body: `{"exclusive_categories":["cat_1"],"redeemables_limit":25,` +
			`"applicable_redeemables_limit":10,"applicable_redeemables_category_limits":{"cat_1":2},"redeemables_application_mode":"ALL"}`}, 200},
		{"create_again", req{method: http.MethodPost, target: mp, body: `{}`}, 409},
		{"list_stored", req{method: http.MethodGet, target: mp}, 200},
		{"get_unknown", req{method: http.MethodGet, target: mp + "/stk_missing"}, 404},
		{"update_bad_value", req{method: http.MethodPut, target: mp + "/stk_00000000000000000002", body: `{"redeemables_limit":31}`}, 400},
	}
	h.run(t, "stacking_rules", steps)
	list := h.mustDo(req{method: http.MethodGet, target: mp}, http.StatusOK)
	id := list["data"].([]any)[0].(map[string]any)["id"].(string)
	h.run(t, "stacking_rules", []step{
		{"get", req{method: http.MethodGet, target: mp + "/" + id}, 200},
		{"update", req{method: http.MethodPut, target: mp + "/" + id, body: `{"exclusive_categories":["cat_2","cat_3"],"redeemables_sorting_rule":"CATEGORY_HIERARCHY"}`}, 200},
		{"echoed_by_validation", req{method: http.MethodPost, target: "/v1/validations", body: `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"NONE"}]}`}, 200},
		{"delete", req{method: http.MethodDelete, target: mp + "/" + id}, 204},
		{"get_deleted", req{method: http.MethodGet, target: mp + "/" + id}, 404},
		{"list_defaults_again", req{method: http.MethodGet, target: mp}, 200},
	})
}

// Isolation rows of the stacking rules (isolation_test.go): project B's
// management key reaches neither A's rules nor their list.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		r := h.mustDo(req{method: http.MethodPost, target: "/management/v1/projects/" + ids["projectId"] + "/stacking-rules", body: `{}`}, http.StatusOK)
		ids["stackingRulesId"] = r["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"validate voucher (legacy)", http.MethodPost, "/v1/vouchers/{code}/validate", `{"order":{"amount":1000}}`},
		isolationRow{"list stacking rules", http.MethodGet, "/management/v1/projects/{projectId}/stacking-rules", ""},
		isolationRow{"create stacking rules", http.MethodPost, "/management/v1/projects/{projectId}/stacking-rules", `{}`},
		isolationRow{"get stacking rules", http.MethodGet, "/management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}", ""},
		isolationRow{"update stacking rules", http.MethodPut, "/management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}", `{"redeemables_limit":2}`},
		isolationRow{"delete stacking rules", http.MethodDelete, "/management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}", ""},
	)
}

// TestVoucherValidate walks the legacy POST /v1/vouchers/{code}/validate:
// a discount, a gift card (its credits before redemption), a loyalty card
// paying for a reward, valid false with the reason (a 200), and the 404
// and 400s the hosted service makes errors.
func TestVoucherValidate(t *testing.T) {
	h := newHarness(t)
	ids := validationFixture(h)
	v := func(code, body string) req {
		for k, id := range ids {
			body = strings.ReplaceAll(body, "{"+k+"}", id)
		}
		return req{method: http.MethodPost, target: "/v1/vouchers/" + code + "/validate", body: body}
	}
	h.run(t, "validations/legacy", []step{
		{"discount_on_items", v("GNcuPKGe", `{"customer":{"source_id":"alice"},"order":{"items":[{"product_id":"{watchflix}","quantity":1},{"product_id":"{roses}","quantity":1}]}}`), 200},
		{"gift_credits", v("M3X8IwW8", `{"customer":{"source_id":"alice"},"gift":{"credits":2},"order":{"amount":1000}}`), 200},
		{"loyalty_reward", v("AnsvocvP", `{"customer":{"source_id":"alice"},"reward":{"id":"{reward}","points":4},"order":{"amount":1000}}`), 200},
		{"disabled_is_valid_false", v("OFF", `{"customer":{"source_id":"alice"},"order":{"amount":1000}}`), 200},
		{"rules_violated_is_valid_false", v("BIGCART", `{"customer":{"source_id":"alice"},"order":{"amount":1000}}`), 200},
		{"unknown_code", v("NOPE", `{"order":{"amount":1000}}`), 404},
		{"missing_reward", v("AnsvocvP", `{"order":{"amount":1000}}`), 400},
		{"missing_order_items_amount", v("ITEMSGIFT", `{"order":{"amount":1000}}`), 400},
	})
}
