package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties", body: `{"name":"Iso club","type":"AUTO_UPDATE"}`}, http.StatusOK)
		ids["programId"] = c["id"].(string)
		m := h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties/" + ids["programId"] + "/members", body: `{"customer":"iso-member"}`}, http.StatusOK)
		ids["memberId"] = m["code"].(string)
		rec := h.do(req{method: http.MethodPost, target: "/v1/loyalties/" + ids["programId"] + "/earning-rules",
			body: `[{"event":"order.paid","loyalty":{"type":"FIXED","points":1}}]`})
		var rules []map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &rules); err != nil || rec.Code != http.StatusOK || len(rules) != 1 {
			h.t.Fatalf("seed earning rule: %d %s", rec.Code, rec.Body)
		}
		ids["earningRuleId"] = rules[0]["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get program", http.MethodGet, "/v1/loyalties/{programId}", ""},
		isolationRow{"update program", http.MethodPut, "/v1/loyalties/{programId}", `{"description":"Taken"}`},
		isolationRow{"delete program", http.MethodDelete, "/v1/loyalties/{programId}", ""},
		isolationRow{"program transactions", http.MethodGet, "/v1/loyalties/{programId}/transactions", ""},
		isolationRow{"add member", http.MethodPost, "/v1/loyalties/{programId}/members", `{"customer":"iso-b"}`},
		isolationRow{"list members", http.MethodGet, "/v1/loyalties/{programId}/members", ""},
		isolationRow{"get member", http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}", ""},
		isolationRow{"member balance", http.MethodPost, "/v1/loyalties/{programId}/members/{memberId}/balance", `{"points":1}`},
		isolationRow{"member transactions", http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/transactions", ""},
		isolationRow{"get any member", http.MethodGet, "/v1/loyalties/members/{memberId}", ""},
		isolationRow{"any member balance", http.MethodPost, "/v1/loyalties/members/{memberId}/balance", `{"points":1}`},
		isolationRow{"any member transactions", http.MethodGet, "/v1/loyalties/members/{memberId}/transactions", ""},
		isolationRow{"create earning rules", http.MethodPost, "/v1/loyalties/{programId}/earning-rules", `[{"event":"order.paid","loyalty":{"type":"FIXED","points":1}}]`},
		isolationRow{"list earning rules", http.MethodGet, "/v1/loyalties/{programId}/earning-rules", ""},
		isolationRow{"get earning rule", http.MethodGet, "/v1/loyalties/{programId}/earning-rules/{earningRuleId}", ""},
		isolationRow{"update earning rule", http.MethodPut, "/v1/loyalties/{programId}/earning-rules/{earningRuleId}", `{"active":false}`},
		isolationRow{"delete earning rule", http.MethodDelete, "/v1/loyalties/{programId}/earning-rules/{earningRuleId}", ""},
		isolationRow{"enable earning rule", http.MethodPost, "/v1/loyalties/{programId}/earning-rules/{earningRuleId}/enable", ""},
		isolationRow{"disable earning rule", http.MethodPost, "/v1/loyalties/{programId}/earning-rules/{earningRuleId}/disable", ""},
	)
	isolationLists = append(isolationLists, isolationRow{"list programs", http.MethodGet, "/v1/loyalties", ""})
}

const (
	loyaltyProgramBody = `{"name":"Club","type":"AUTO_UPDATE","auto_join":true,"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0},"code_config":{"pattern":"CARD-####"}}}`
	earningRulesBody   = `[{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":1000,"points":1}}},"source":{"banner":"1 point per 10"}},` +
		`{"event":"order.paid","loyalty":{"type":"FIXED","points":"5"}}]`
)

// The loyalty story over HTTP: a program, its earning rules, a paid order
// that makes its customer a member and earns, the card's ledger, a manual
// change, members, and the rules' enable, disable, update and delete.
func TestLoyalties(t *testing.T) {
	h := newHarness(t)
	const program, rule = "camp_00000000000000000002", "ern_00000000000000000003"
	h.run(t, "loyalties", []step{
		{"create_program", req{method: http.MethodPost, target: "/v1/loyalties", body: loyaltyProgramBody}, 200},
		{"get_program_by_name", req{method: http.MethodGet, target: "/v1/loyalties/Club"}, 200},
		{"list_programs", req{method: http.MethodGet, target: "/v1/loyalties"}, 200},
		{"create_earning_rules", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules", body: earningRulesBody}, 200},
		{"list_earning_rules", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/earning-rules"}, 200},
		{"add_card", req{method: http.MethodPost, target: "/v1/campaigns/" + program + "/vouchers/CARD-0001", body: `{}`}, 200},
		{"join", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members", body: `{"customer":{"source_id":"alice"},"voucher":"CARD-0001"}`}, 200},
		{"paid_order", req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"o-1","status":"PAID","amount":25990,"customer":{"source_id":"alice"}}`}, 200},
		{"list_members", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/members"}, 200},
		{"member_transactions", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/transactions"}, 200},
		{"add_balance", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members/CARD-0001/balance", body: `{"points":100,"reason":"welcome"}`}, 200},
		{"remove_balance", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/balance", body: `{"points":-30}`}, 200},
		{"get_member", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/members/CARD-0001"}, 200},
		{"program_transactions", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/transactions"}, 200},
		{"add_second_card", req{method: http.MethodPost, target: "/v1/campaigns/" + program + "/vouchers/CARD-0002", body: `{}`}, 200},
		{"add_member", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members", body: `{"customer":"bob","voucher":"CARD-0002"}`}, 200},
		{"disable_rule", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules/" + rule + "/disable"}, 200},
		{"update_rule", req{method: http.MethodPut, target: "/v1/loyalties/" + program + "/earning-rules/" + rule, body: `{"active":false,"source":{"banner":"Every 10"}}`}, 200},
		{"enable_rule", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules/" + rule + "/enable"}, 200},
		{"get_rule", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/earning-rules/" + rule}, 200},
		{"program_member_transactions", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/members/CARD-0001/transactions?limit=1"}, 200},
		{"delete_rule", req{method: http.MethodDelete, target: "/v1/loyalties/" + program + "/earning-rules/" + rule}, 204},
		{"get_deleted_rule", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/earning-rules/" + rule}, 404},
		{"update_program", req{method: http.MethodPut, target: "/v1/loyalties/" + program, body: `{"description":"Our club","join_once":false}`}, 200},
	})
	h.run(t, "loyalties/errors", []step{
		{"unknown_program", req{method: http.MethodGet, target: "/v1/loyalties/Nope/members"}, 404},
		{"not_a_program", req{method: http.MethodPost, target: "/v1/loyalties", body: `{"name":"Coupons","campaign_type":"DISCOUNT_COUPONS"}`}, 400},
		{"unknown_member", req{method: http.MethodGet, target: "/v1/loyalties/members/NOPE"}, 404},
		{"remove_beyond_balance", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/balance", body: `{"points":-1000}`}, 400},
		{"points_not_a_number", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/balance", body: `{"points":"many"}`}, 400},
		{"rule_missing_ratio", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules",
			body: `[{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_TOTAL_AMOUNT"}}]`}, 400},
		{"rule_body_not_array", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules", body: `{"event":"order.paid"}`}, 400},
		{"member_balance_unchanged", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001"}, 200},
		{"delete_program", req{method: http.MethodDelete, target: "/v1/loyalties/" + program}, 200},
	})
}
