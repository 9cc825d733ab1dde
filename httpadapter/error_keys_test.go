package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// errorKey is what a client checks of a refusal.
type errorKey struct {
	Status  int
	Key     string
	Message string
	Details string
	Error   string // error.message: a validation rule's own text
}

// TestRedemptionErrorKeys: every error key the checkout loop can give, through POST /v1/redemptions (and the
// rollback for invalid_order), with its status, message and details.
func TestRedemptionErrorKeys(t *testing.T) {
	h := newHarness(t)
	ids := validationFixture(h)
	post := func(target, body string) map[string]any {
		return h.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
	}
	ids["customerRule"] = post("/v1/validation-rules", `{"name":"VIP only","rules":{"logic":"1","1":{"name":"customer.metadata","property":"vip","conditions":{"$is":[true]}}}}`)["id"].(string)
	ids["onceRule"] = post("/v1/validation-rules", `{"name":"Once per customer","rules":{"logic":"1","1":{"name":"redemption.count.per_customer","conditions":{"$less_than_or_equal":[1]},"error":{"message":"Only once per customer"}}}}`)["id"].(string)
	post("/v1/vouchers/VIPONLY", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"validation_rules":["`+ids["customerRule"]+`"]}`)
	post("/v1/vouchers/ONCE", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"validation_rules":["`+ids["onceRule"]+`"]}`)
	post("/v1/vouchers/MONDAYS", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"validity_day_of_week":[1]}`)
	post("/v1/vouchers/SINGLE", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1}}`)
	ids["mondayTier"] = post("/v1/promotions/"+ids["campaign"]+"/tiers", `{"name":"Mondays","validity_day_of_week":[1],"action":{"discount":{"type":"AMOUNT","amount_off":10,"effect":"APPLY_TO_ORDER"}}}`)["id"].(string)
	referral := post("/v1/campaigns", `{"name":"Friends","campaign_type":"REFERRAL_PROGRAM","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)["id"].(string)
	h.runActions()
	post("/v1/campaigns/"+referral+"/vouchers/FRIEND", `{}`)
	// Publishing makes the customer the loyalty card's holder and the
	// referral code's referrer.
	for _, code := range []string{"FRIEND", "AnsvocvP"} {
		post("/v1/publications", `{"voucher":"`+code+`","customer":{"source_id":"holder"}}`)
	}
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: `{"redeemables":[{"object":"voucher","id":"SINGLE"}],"order":{"amount":1000}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`}, http.StatusOK)
	done := h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"amount":5000}}`}, http.StatusOK)
	doneID := done["redemptions"].([]any)[0].(map[string]any)["id"].(string)

	one := func(redeemable string) string {
		return `{"customer":{"source_id":"alice"},"redeemables":[` + redeemable + `],"order":{"amount":5000}}`
	}
	voucher := func(code string) string { return one(`{"object":"voucher","id":"` + code + `"}`) }
	rule := func(key, details, message string) errorKey {
		return errorKey{400, key, map[string]string{
			"customer_rules_violated":   "customer does not match validation rules",
			"order_rules_violated":      "order does not match validation rules",
			"redemption_rules_violated": "redemption does not match validation rules"}[key], details, message}
	}
	cases := []struct {
		name   string
		target string
		body   string
		want   errorKey
	}{
		{"invalid_payload", "", `{"redeemables":[{"object":"voucher"}]}`,
			errorKey{400, "invalid_payload", "Invalid payload", "Property .redeemables[0] should have required property 'id'", ""}},
		{"duplicated_redeemables", "", one(`{"object":"voucher","id":"OFF"},{"object":"voucher","id":"OFF"}`),
			errorKey{400, "duplicated_redeemables", "Duplicated redeemables detected", "Duplicated redeemables detected in one redemption", ""}},
		{"invalid_redeemables", "", one(`{"object":"promotion_stack","id":"` + ids["stack"] + `"},{"object":"voucher","id":"OFF"}`),
			errorKey{400, "invalid_redeemables", "Invalid redeemables", "Promotion Stack cannot be use with other redeemables", ""}},
		{"not_found", "", voucher("eee33463"),
			errorKey{404, "not_found", "Resource not found", "Cannot find voucher with id eee33463", ""}},
		{"voucher_expired", "", voucher("OLD"), errorKey{400, "voucher_expired", "voucher expired", "OLD", ""}},
		{"voucher_disabled", "", voucher("OFF"), errorKey{400, "voucher_disabled", "voucher is disabled", "OFF", ""}},
		{"voucher_not_active", "", voucher("SOON"), errorKey{400, "voucher_not_active", "voucher not active", "SOON", ""}},
		{"voucher_not_active_now", "", voucher("MONDAYS"), errorKey{400, "voucher_not_active_now", "voucher not active now", "MONDAYS", ""}},
		{"promotion_inactive", "", one(`{"object":"promotion_tier","id":"` + ids["tierOff"] + `"}`),
			errorKey{400, "promotion_inactive", "Inactive Promotion", "Promotion Tier with id: " + ids["tierOff"] + " is disabled.", ""}},
		{"promotion_not_active_now", "", one(`{"object":"promotion_tier","id":"` + ids["mondayTier"] + `"}`),
			errorKey{400, "promotion_not_active_now", "Promotion not active now", "Promotion Tier with id: " + ids["mondayTier"] + " is not active now.", ""}},
		{"quantity_exceeded", "", voucher("SINGLE"), errorKey{400, "quantity_exceeded", "quantity exceeded", "SINGLE", ""}},
		{"customer_rules_violated", "", voucher("VIPONLY"), rule("customer_rules_violated", "VIPONLY", "")},
		{"order_rules_violated", "", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"BIGCART"}],"order":{"amount":100}}`,
			rule("order_rules_violated", "BIGCART", "Spend 100.00 first")},
		{"redemption_rules_violated", "", voucher("ONCE"), rule("redemption_rules_violated", "ONCE", "Only once per customer")},
		{"missing_customer", "", `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`,
			errorKey{400, "missing_customer", "Missing customer", "A customer is required to redeem ONCE: its validation rules count redemptions per customer", ""}},
		{"gift_amount_exceeded", "", one(`{"object":"voucher","id":"M3X8IwW8","gift":{"credits":6000}}`),
			errorKey{400, "gift_amount_exceeded", "gift amount exceeded", "M3X8IwW8", ""}},
		{"missing_amount", "", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"M3X8IwW8"}]}`,
			errorKey{400, "missing_amount", "Missing amount", "Amount is required when redeeming a GIFT_VOUCHER", ""}},
		{"missing_order_items_amount", "", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"ITEMSGIFT"}],"order":{"amount":1000}}`,
			errorKey{400, "missing_order_items_amount", "Missing applicable order items", "At least one applicable order item with amount is required to redeem this GIFT_VOUCHER", ""}},
		{"missing_reward", "", `{"customer":{"source_id":"holder"},"redeemables":[{"object":"voucher","id":"AnsvocvP"}],"order":{"amount":1000}}`,
			errorKey{400, "missing_reward", "Missing reward", "A reward is required when redeeming a LOYALTY_CARD", ""}},
		{"loyalty_card_points_exceeded", "", `{"customer":{"source_id":"holder"},"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"` + ids["bigReward"] + `"}}],"order":{"amount":1000}}`,
			errorKey{400, "loyalty_card_points_exceeded", "loyalty card points exceeded", "AnsvocvP", ""}},
		{"invalid_customer", "", one(`{"object":"voucher","id":"AnsvocvP","reward":{"id":"` + ids["reward"] + `","points":4}}`),
			errorKey{400, "invalid_customer", "Customer must be a holder of a loyalty card.", "AnsvocvP", ""}},
		{"referrer_not_permitted_to_redeem", "", `{"customer":{"source_id":"holder"},"redeemables":[{"object":"voucher","id":"FRIEND"}],"order":{"amount":1000}}`,
			errorKey{400, "referrer_not_permitted_to_redeem", "voucher cannot be redeemed by referrer", "FRIEND", ""}},
		{"invalid_order", "/v1/redemptions/" + doneID + "/rollback", `{"order":{"id":"` + ids["order"] + `"}}`,
			errorKey{400, "invalid_order", "Invalid order", "Order is not related with redemption.", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target := c.target
			if target == "" {
				target = "/v1/redemptions"
			}
			rec := h.do(req{method: http.MethodPost, target: target, body: c.body})
			var body struct {
				Code    int    `json:"code"`
				Key     string `json:"key"`
				Message string `json:"message"`
				Details string `json:"details"`
				Error   *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("%d %s: %v", rec.Code, rec.Body, err)
			}
			got := errorKey{rec.Code, body.Key, body.Message, body.Details, ""}
			if body.Error != nil {
				got.Error = body.Error.Message
			}
			if body.Code != rec.Code {
				t.Errorf("code %d in a %d answer", body.Code, rec.Code)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", c.name, diff)
			}
			// The same redeemable on POST /v1/validations is INAPPLICABLE
			// with the same error (whole-request errors are the same 400).
			if c.target != "" || strings.HasPrefix(c.want.Key, "invalid_") && c.want.Key != "invalid_customer" || c.want.Key == "duplicated_redeemables" {
				return
			}
			v := h.do(req{method: http.MethodPost, target: "/v1/validations", body: c.body})
			var val struct {
				Valid        bool `json:"valid"`
				Inapplicable []struct {
					Result struct {
						Error *struct {
							Key     string `json:"key"`
							Message string `json:"message"`
							Details string `json:"details"`
						} `json:"error"`
					} `json:"result"`
				} `json:"inapplicable_redeemables"`
			}
			if err := json.Unmarshal(v.Body.Bytes(), &val); err != nil || v.Code != http.StatusOK || val.Valid || len(val.Inapplicable) != 1 || val.Inapplicable[0].Result.Error == nil {
				t.Fatalf("validation: %d %s", v.Code, v.Body)
			}
			e := val.Inapplicable[0].Result.Error
			if diff := cmp.Diff([]string{c.want.Key, c.want.Message, c.want.Details}, []string{e.Key, e.Message, e.Details}); diff != "" {
				t.Errorf("validation error (-want +got):\n%s", diff)
			}
		})
	}
}
