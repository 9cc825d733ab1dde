package httpadapter_test

import (
	"net/http"
	"testing"
)

// TestValidationRules walks every validation rule route, with golden
// files (the OpenAPI contract test validates their bodies).
func TestValidationRules(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug","price":1000}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/RULED", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
	h.run(t, "validation_rules", []step{
		{"create", req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Big carts","error":{"message":"Too small"},` +
			`"rules":{"1":{"name":"order.amount","conditions":{"$more_than":[10000]}},"logic":"1"},` +
			`"applicable_to":{"included":[{"object":"product","id":"prod_00000000000000000002"}]}}`}, 200},
		{"create_without_logic", req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Mid carts",` +
			`"rules":{"1":{"name":"order.amount","conditions":{"$more_than":[100]}},"2":{"name":"order.amount","conditions":{"$less_than":[1000]}}}}`}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/validation-rules/val_00000000000000000004"}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/validation-rules?order=created_at"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/validation-rules/val_00000000000000000004", body: `{"name":"Bigger carts"}`}, 200},
		{"assign", req{method: http.MethodPost, target: "/v1/validation-rules/val_00000000000000000004/assignments", body: `{"related_object_type":"voucher","related_object_id":"RULED"}`}, 200},
		{"list_assignments", req{method: http.MethodGet, target: "/v1/validation-rules/val_00000000000000000004/assignments"}, 200},
		{"list_all_assignments", req{method: http.MethodGet, target: "/v1/validation-rules-assignments"}, 200},
		{"unassign", req{method: http.MethodDelete, target: "/v1/validation-rules/val_00000000000000000004/assignments/asgm_00000000000000000006"}, 204},
		{"delete", req{method: http.MethodDelete, target: "/v1/validation-rules/val_00000000000000000005"}, 204},
	})
}

// TestValidationRuleShortAssignments assigns a rule with the short body the
// JS SDK types (ValidationRulesCreateAssignment: voucher, campaign or
// promotion_tier naming the object), and checks the bodies mixing forms.
func TestValidationRuleShortAssignments(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/SHORT", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
	camp := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: promotionCampaignBody}, http.StatusOK)["id"].(string)
	tier := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + camp + "/tiers", body: tierAmountBody}, http.StatusOK)["id"].(string)
	r := h.mustDo(req{method: http.MethodPost, target: "/v1/validation-rules", body: `{"name":"Big carts",` +
		`"rules":{"1":{"name":"order.amount","conditions":{"$more_than":[10000]}},"logic":"1"}}`}, http.StatusOK)["id"].(string)
	assign := func(body string) req {
		return req{method: http.MethodPost, target: "/v1/validation-rules/" + r + "/assignments", body: body}
	}
	h.run(t, "validation_rules", []step{
		{"assign_short_voucher", assign(`{"voucher":"SHORT"}`), 200},
		{"assign_short_campaign", assign(`{"campaign":"` + camp + `"}`), 200},
		{"assign_short_promotion_tier", assign(`{"promotion_tier":"` + tier + `"}`), 200},
		{"err_assign_short_duplicate", assign(`{"voucher":"SHORT"}`), 409},
		{"err_assign_short_two", assign(`{"voucher":"SHORT","campaign":"` + camp + `"}`), 400},
		{"err_assign_short_and_long", assign(`{"voucher":"SHORT","related_object_id":"SHORT"}`), 400},
		{"err_assign_short_empty", assign(`{"promotion_tier":""}`), 400},
		{"err_assign_short_missing", assign(`{"voucher":"NOPE"}`), 404},
		{"err_assign_nothing", assign(`{}`), 400},
	})
}
