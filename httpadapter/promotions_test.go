package httpadapter_test

import (
	"net/http"
	"testing"
)

const (
	promotionCampaignBody = `{"name":"Summer promotions","campaign_type":"PROMOTION"}`
	tierAmountBody        = `{"name":"100 off","banner":"Get 100 off","action":{"discount":{"type":"AMOUNT","amount_off":100}},"metadata":{"tag":"a"}}`
)

func TestPromotionTiers(t *testing.T) {
	h := newHarness(t)
	c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: promotionCampaignBody}, http.StatusOK)
	camp := c["id"].(string)
	r := h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Big carts",` +
		`"rules":{"1":{"name":"order.amount","conditions":{"$more_than":[10000]}},"logic":"1"}}`}, http.StatusOK)
	rule := r["id"].(string)
	h.run(t, "promotion_tiers", []step{
		{"create", req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: tierAmountBody}, 200},
		{"create_with_rule", req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"10 percent","validation_rules":["` + rule + `"],` +
			`"action":{"discount":{"type":"PERCENT","percent_off":10}},"start_date":"2026-01-01T00:00:00Z","validity_day_of_week":[1,2,3]}`}, 200},
		{"create_hierarchy", req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"Explicit","hierarchy":7,"active":false}`}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/promotions/tiers/promo_00000000000000000005"}, 200},
		{"list_campaign", req{method: http.MethodGet, target: "/v1/promotions/" + camp + "/tiers"}, 200},
		{"list_all", req{method: http.MethodGet, target: "/v1/promotions/tiers?limit=2&order=-created_at"}, 200},
		{"list_available", req{method: http.MethodGet, target: "/v1/promotions/tiers?is_available=true"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/promotions/tiers/promo_00000000000000000004", body: `{"name":"150 off","action":{"discount":{"type":"AMOUNT","amount_off":150}},"hierarchy":3}`}, 200},
		{"disable", req{method: http.MethodPost, target: "/v1/promotions/tiers/promo_00000000000000000004/disable"}, 200},
		{"enable", req{method: http.MethodPost, target: "/v1/promotions/tiers/promo_00000000000000000004/enable"}, 200},
		{"campaign_with_tiers", req{method: http.MethodGet, target: "/v1/campaigns/" + camp}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/promotions/tiers/promo_00000000000000000005"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/promotions/tiers/promo_00000000000000000005"}, 404},
		{"rule_after_delete", req{method: http.MethodGet, target: "/v1/validation-rules/" + rule}, 200},
		{"err_not_found_campaign", req{method: http.MethodPost, target: "/v1/promotions/camp_nope/tiers", body: tierAmountBody}, 404},
		{"err_no_name", req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"banner":"x"}`}, 400},
		{"err_bad_discount", req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"x","action":{"discount":{"type":"AMOUNT"}}}`}, 400},
		{"err_update_active", req{method: http.MethodPut, target: "/v1/promotions/tiers/promo_00000000000000000004", body: `{"active":false}`}, 400},
		{"err_unknown_rule", req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"x","validation_rules":["val_nope"]}`}, 404},
		{"campaign_create_with_tiers", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"With tiers","campaign_type":"PROMOTION","promotion":{"tiers":[` + tierAmountBody + `,{"name":"Second","action":{"discount":{"type":"PERCENT","percent_off":5}}}]}}`}, 200},
		{"err_campaign_create_bad_tier", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Bad tiers","campaign_type":"PROMOTION","promotion":{"tiers":[{"name":"x","action":{"discount":{"type":"PERCENT"}}}]}}`}, 400},
		{"err_is_available", req{method: http.MethodGet, target: "/v1/promotions/tiers?is_available=maybe"}, 400},
		// An application sending back the tier it read (the JS SDK's
		// tiers.update({...tier, banner})) repeats active unchanged.
		{"update_read_back", req{method: http.MethodPut, target: "/v1/promotions/tiers/promo_00000000000000000004",
			body: `{"id":"promo_00000000000000000004","object":"promotion_tier","name":"150 off","active":true,"banner":"Read back","hierarchy":3}`}, 200},
	})
}

func TestPromotionValidation(t *testing.T) {
	h := newHarness(t)
	c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: promotionCampaignBody}, http.StatusOK)
	camp := c["id"].(string)
	mug := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug","price":2000}`}, http.StatusOK)["id"].(string)
	pen := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"pen","name":"Pen","price":8000}`}, http.StatusOK)["id"].(string)
	r := h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Gold",` +
		`"rules":{"1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},"logic":"1"},` +
		`"applicable_to":{"included":[{"object":"product","id":"` + mug + `"}],"excluded":[{"object":"product","id":"` + pen + `"}]}}`}, http.StatusOK)
	order := `{"items":[{"product_id":"` + mug + `","quantity":2},{"product_id":"` + pen + `","quantity":1}]}`
	h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: tierAmountBody}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"Gold items","validation_rules":["` + r["id"].(string) + `"],` +
		`"action":{"discount":{"type":"PERCENT","percent_off":10,"effect":"APPLY_TO_ITEMS"}}}`}, http.StatusOK)
	h.run(t, "promotion_validation", []step{
		{"valid_two", req{method: http.MethodPost, target: "/v1/promotions/validation", body: `{"customer":{"source_id":"ann","metadata":{"tier":"gold"}},"order":` + order + `,"metadata":{"channel":"web"}}`}, 200},
		{"valid_one", req{method: http.MethodPost, target: "/v1/promotions/validation", body: `{"customer":{"source_id":"bob","metadata":{"tier":"silver"}},"order":` + order + `}`}, 200},
		{"filter_promotion_id", req{method: http.MethodPost, target: "/v1/promotions/validation?filters[promotion_id][conditions][$in][0]=promo_00000000000000000007", body: `{"customer":{"source_id":"ann","metadata":{"tier":"gold"}},"order":` + order + `}`}, 200},
		{"none_valid", req{method: http.MethodPost, target: "/v1/promotions/validation?filters[promotion_id][conditions][$in][0]=promo_nope", body: `{"customer":{"source_id":"ann"},"order":` + order + `}`}, 200},
		{"err_order_not_found", req{method: http.MethodPost, target: "/v1/promotions/validation", body: `{"customer":{"source_id":"ann"},"order":{"id":"ord_nope"}}`}, 404},
		{"err_audience_flag", req{method: http.MethodPost, target: "/v1/promotions/validation?audienceRulesOnly=yes", body: `{"customer":{"source_id":"ann"},"order":` + order + `}`}, 400},
	})
}

func TestPromotionStacks(t *testing.T) {
	h := newHarness(t)
	camp := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: promotionCampaignBody}, http.StatusOK)["id"].(string)
	other := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Other promotions","campaign_type":"PROMOTION"}`}, http.StatusOK)["id"].(string)
	t1 := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: tierAmountBody}, http.StatusOK)["id"].(string)
	t2 := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: `{"name":"Free","action":{"discount":{"type":"PERCENT","percent_off":5}}}`}, http.StatusOK)["id"].(string)
	t3 := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + other + "/tiers", body: `{"name":"Elsewhere"}`}, http.StatusOK)["id"].(string)
	many := `"` + t1 + `"`
	for range 30 {
		many += `,"` + t1 + `"`
	}
	base := "/v1/promotions/" + camp + "/stacks"
	h.run(t, "promotion_stacks", []step{
		{"create", req{method: http.MethodPost, target: base, body: `{"name":"Both","tiers":{"ids":["` + t2 + `","` + t1 + `"]}}`}, 200},
		{"get", req{method: http.MethodGet, target: base + "/stack_00000000000000000007"}, 200},
		{"get_by_campaign_name", req{method: http.MethodGet, target: "/v1/promotions/Summer%20promotions/stacks/stack_00000000000000000007"}, 200},
		{"list_campaign", req{method: http.MethodGet, target: base}, 200},
		{"list_all", req{method: http.MethodGet, target: "/v1/promotions/stacks?order=-name"}, 200},
		{"update", req{method: http.MethodPut, target: base + "/stack_00000000000000000007", body: `{"name":"Only one","tiers":{"ids":["` + t1 + `"],"hierarchy_mode":"MANUAL"}}`}, 200},
		{"err_too_many", req{method: http.MethodPost, target: base, body: `{"name":"Many","tiers":{"ids":[` + many + `]}}`}, 400},
		{"err_no_ids", req{method: http.MethodPost, target: base, body: `{"name":"None","tiers":{"ids":[]}}`}, 400},
		{"err_mode", req{method: http.MethodPost, target: base, body: `{"name":"Auto","tiers":{"ids":["` + t1 + `"],"hierarchy_mode":"AUTO"}}`}, 400},
		{"err_tier_of_other_campaign", req{method: http.MethodPost, target: base, body: `{"name":"Mixed","tiers":{"ids":["` + t3 + `"]}}`}, 404},
		{"err_wrong_campaign", req{method: http.MethodGet, target: "/v1/promotions/" + other + "/stacks/stack_00000000000000000007"}, 404},
		{"err_campaign_not_found", req{method: http.MethodGet, target: "/v1/promotions/camp_nope/stacks"}, 404},
		{"delete", req{method: http.MethodDelete, target: base + "/stack_00000000000000000007"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: base + "/stack_00000000000000000007"}, 404},
	})
}
