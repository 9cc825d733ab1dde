package httpadapter_test

import (
	"net/http"
	"testing"
)

const welcomeBody = `{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10,"effect":"APPLY_TO_ORDER"},` +
	`"category":"New Customers","start_date":"2026-01-01T00:00:00Z","expiration_date":"2026-12-31T23:59:59Z",` +
	`"validity_timeframe":{"interval":"P2D","duration":"PT1H"},"validity_day_of_week":[1,2,3,4,5],"active":false,` +
	`"additional_info":"This voucher will remain inactive until enabled.","metadata":{"test":true,"locale":"de-en"},"redemption":{"quantity":10}}`

func TestVouchers(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM","voucher":{"loyalty_card":{"points":0}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Generic","type":"STANDALONE","campaign_type":"GIFT_VOUCHERS","voucher":{"gift":{"amount":100}}}`}, http.StatusOK)
	h.runActions()
	h.run(t, "vouchers", []step{
		{"create_with_path_code", req{method: http.MethodPost, target: "/v1/vouchers/welcome", body: welcomeBody}, 200},
		{"create_with_body_code", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"code":"NEW-WELCOME/COUPON","type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500}}`}, 200},
		{"create_gift", req{method: http.MethodPost, target: "/v1/vouchers/welcomegiftcard", body: `{"type":"GIFT_VOUCHER","gift":{"amount":10000},"campaign":"Generic"}`}, 200},
		{"create_loyalty_card", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"code":"CARD-1","type":"LOYALTY_CARD","campaign":"Loyalty","loyalty_card":{"points":700}}`}, 200},
		{"create_code_config", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"FIXED","fixed_amount":900},` +
			`"code_config":{"prefix":"New-","pattern":"GIFT-CARD-##","postfix":"0","charset":"X"}}`}, 200},
		{"get_by_code", req{method: http.MethodGet, target: "/v1/vouchers/welcome"}, 200},
		{"get_by_id", req{method: http.MethodGet, target: "/v1/vouchers/v_00000000000000000009"}, 200},
		{"get_by_escaped_code", req{method: http.MethodGet, target: "/v1/vouchers/NEW-WELCOME%2FCOUPON"}, 200},
		{"enable", req{method: http.MethodPost, target: "/v1/vouchers/welcome/enable"}, 200},
		{"disable_by_id", req{method: http.MethodPost, target: "/v1/vouchers/v_00000000000000000009/disable", body: `{}`}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/vouchers/welcome", body: `{"discount":{"type":"PERCENT","percent_off":20},"metadata":{"test":false},"active":true,"expiration_date":"2027-01-01"}`}, 200},
		{"update_gift", req{method: http.MethodPut, target: "/v1/vouchers/welcomegiftcard", body: `{"gift":{"amount":12000,"effect":"APPLY_TO_ITEMS"}}`}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/vouchers?limit=3&order=code"}, 200},
		{"list_filter_type", req{method: http.MethodGet, target: "/v1/vouchers?filters[type][conditions][$in][0]=GIFT_VOUCHER&filters[type][conditions][$in][1]=LOYALTY_CARD&order=created_at"}, 200},
		{"list_enabled", req{method: http.MethodGet, target: "/v1/vouchers?[filters][active][conditions][$enabled]=true&order=code"}, 200},
		{"list_by_campaign_name", req{method: http.MethodGet, target: "/v1/vouchers?campaign=Loyalty"}, 200},
		{"list_by_category", req{method: http.MethodGet, target: "/v1/vouchers?category=New%20Customers"}, 200},
		{"list_created_after", req{method: http.MethodGet, target: "/v1/vouchers?created_at[after]=2026-01-01T00:00:04Z&order=created_at"}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/vouchers/welcome"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/vouchers/welcome"}, 404},
		{"recreate_same_code", req{method: http.MethodPost, target: "/v1/vouchers/welcome", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1}}`}, 200},
		{"delete_force", req{method: http.MethodDelete, target: "/v1/vouchers/welcome?force=true"}, 204},
		{"list_after_delete", req{method: http.MethodGet, target: "/v1/vouchers?order=code"}, 200},
	})
}

// voucherErrors are failing requests on a harness with the voucher "TAKEN"
// and the campaign "Coupons" (not STANDALONE).
var voucherErrors = []step{
	{"unauthorized", req{method: http.MethodGet, target: "/v1/vouchers", creds: credsNone}, 401},
	{"not_found", req{method: http.MethodGet, target: "/v1/vouchers/NOPE"}, 404},
	{"not_found_update", req{method: http.MethodPut, target: "/v1/vouchers/NOPE", body: `{}`}, 404},
	{"not_found_delete", req{method: http.MethodDelete, target: "/v1/vouchers/NOPE"}, 404},
	{"not_found_enable", req{method: http.MethodPost, target: "/v1/vouchers/NOPE/enable"}, 404},
	{"not_found_disable", req{method: http.MethodPost, target: "/v1/vouchers/v_nope/disable", body: `{}`}, 404},
	{"method_not_allowed", req{method: http.MethodPatch, target: "/v1/vouchers/TAKEN", body: `{}`}, 405},
	{"duplicate_code", req{method: http.MethodPost, target: "/v1/vouchers/TAKEN", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1}}`}, 409},
	{"duplicate_code_in_body", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"code":"TAKEN","type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1}}`}, 409},
	{"invalid_json", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":`}, 400},
	{"invalid_payload_no_type", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"metadata":{"a":1}}`}, 400},
	{"invalid_payload_no_type_two_objects", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"discount":{"type":"AMOUNT","amount_off":1},"gift":{"amount":100}}`}, 400},
	{"invalid_payload_no_discount", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER"}`}, 400},
	{"invalid_payload_gift_on_discount", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"gift":{"amount":1}}`}, 400},
	{"invalid_payload_loyalty_without_campaign", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"LOYALTY_CARD","loyalty_card":{"points":1}}`}, 400},
	{"invalid_payload_amount_type", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":"one"}}`}, 400},
	{"invalid_payload_day_of_week", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"validity_day_of_week":[9]}`}, 400},
	{"invalid_campaign_not_standalone", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"campaign":"Coupons"}`}, 400},
	{"invalid_code_config", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"code_config":{"charset":""}}`}, 400},
	{"invalid_update_type", req{method: http.MethodPut, target: "/v1/vouchers/TAKEN", body: `{"type":"GIFT_VOUCHER"}`}, 400},
	{"invalid_enable_body", req{method: http.MethodPost, target: "/v1/vouchers/TAKEN/enable", body: `[]`}, 400},
	{"not_found_validation_rule", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"validation_rules":["val_nope"]}`}, 404},
	{"list_bad_filter_status", req{method: http.MethodGet, target: "/v1/vouchers?filters[active][conditions][$expired]=false"}, 400},
	{"list_bad_order", req{method: http.MethodGet, target: "/v1/vouchers?order=type"}, 400},
	{"list_bad_created_at", req{method: http.MethodGet, target: "/v1/vouchers?created_at[before]=yesterday"}, 400},
	{"list_limit_too_big", req{method: http.MethodGet, target: "/v1/vouchers?limit=101"}, 400},
	{"delete_bad_force", req{method: http.MethodDelete, target: "/v1/vouchers/TAKEN?force=yes"}, 400},
}

func TestVoucherErrors(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/TAKEN", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Coupons","voucher":{"discount":{"type":"AMOUNT","amount_off":1}}}`}, http.StatusOK)
	h.runActions()
	h.run(t, "vouchers/errors", voucherErrors)
}

func TestAsyncActions(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Coupons","vouchers_count":2,"voucher":{"discount":{"type":"AMOUNT","amount_off":1}}}`}, http.StatusOK)
	h.run(t, "async_actions", []step{
		{"get_enqueued", req{method: http.MethodGet, target: "/v1/async-actions/aa_00000000000000000003"}, 200},
	})
	h.runActions()
	h.run(t, "async_actions", []step{
		{"get_done", req{method: http.MethodGet, target: "/v1/async-actions/aa_00000000000000000003"}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/async-actions"}, 200},
		{"list_end_date", req{method: http.MethodGet, target: "/v1/async-actions?end_date=2025-12-31"}, 200},
		{"not_found", req{method: http.MethodGet, target: "/v1/async-actions/aa_nope"}, 404},
		{"list_bad_end_date", req{method: http.MethodGet, target: "/v1/async-actions?end_date=tomorrow"}, 400},
		{"list_limit_zero", req{method: http.MethodGet, target: "/v1/async-actions?limit=0"}, 400},
	})
}

// TestVoucherTypeInferred: a voucher create without type takes it from the
// one type-specific object it carries, as the hosted service does.
func TestVoucherTypeInferred(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Loyalty","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`}, http.StatusOK)
	tests := []struct {
		name, body, want string
	}{
		{"discount", `{"code":"D-1","discount":{"type":"AMOUNT","amount_off":100}}`, "DISCOUNT_VOUCHER"},
		{"gift", `{"code":"G-1","gift":{"amount":1000}}`, "GIFT_VOUCHER"},
		{"loyalty card", `{"code":"L-1","campaign":"Loyalty","loyalty_card":{"points":10}}`, "LOYALTY_CARD"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := h.with(t).mustDo(req{method: http.MethodPost, target: "/v1/vouchers", body: tc.body}, http.StatusOK)
			if v["type"] != tc.want {
				t.Errorf("type = %v, want %s", v["type"], tc.want)
			}
		})
	}
}
