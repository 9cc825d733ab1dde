package httpadapter_test

import (
	"encoding/json"
	"fmt"
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
		rw := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Iso lamp","parameters":{"campaign":{"id":"` + ids["programId"] + `","balance":1}}}`}, http.StatusOK)
		rec = h.do(req{method: http.MethodPost, target: "/v1/loyalties/" + ids["programId"] + "/rewards",
			body: `[{"reward":"` + rw["id"].(string) + `","parameters":{"loyalty":{"points":5}}}]`})
		if err := json.Unmarshal(rec.Body.Bytes(), &rules); err != nil || rec.Code != http.StatusOK || len(rules) != 1 {
			h.t.Fatalf("seed reward assignment: %d %s", rec.Code, rec.Body)
		}
		ids["rewardAssignmentId"] = rules[0]["id"].(string)
		rec = h.do(req{method: http.MethodPost, target: "/v1/loyalties/" + ids["programId"] + "/tiers", body: `[{"name":"Iso tier","points":{"from":0}}]`})
		if err := json.Unmarshal(rec.Body.Bytes(), &rules); err != nil || rec.Code != http.StatusOK || len(rules) != 1 {
			h.t.Fatalf("seed tier: %d %s", rec.Code, rec.Body)
		}
		ids["loyaltyTierId"] = rules[0]["id"].(string)
		h.do(req{method: http.MethodPost, target: "/v1/loyalties/" + ids["programId"] + "/earning-rules",
			body: `[{"event":"order.paid","loyalty":{"type":"FIXED","points":7},"pending_points":{"period_type":"DAY","period_value":2}}]`})
		h.mustDo(req{method: http.MethodPost, target: "/v1/orders", body: `{"status":"PAID","amount":100,"customer":{"source_id":"iso-member"}}`}, http.StatusOK)
		pending := h.mustDo(req{method: http.MethodGet, target: "/v1/loyalties/members/" + ids["memberId"] + "/pending-points"}, http.StatusOK)
		ids["pendingPointsId"] = listItems(pending)[0].(map[string]any)["id"].(string)
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
		isolationRow{"transfer", http.MethodPost, "/v1/loyalties/{programId}/members/{memberId}/transfers", `[{"code":"{memberId}","points":1}]`},
		isolationRow{"member activity", http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/activity", ""},
		isolationRow{"member activities", http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/activities", ""},
		isolationRow{"any member activity", http.MethodGet, "/v1/loyalties/members/{memberId}/activity", ""},
		isolationRow{"any member activities", http.MethodGet, "/v1/loyalties/members/{memberId}/activities", ""},
		isolationRow{"member transactions export", http.MethodPost, "/v1/loyalties/{programId}/members/{memberId}/transactions/export", `{}`},
		isolationRow{"any member transactions export", http.MethodPost, "/v1/loyalties/members/{memberId}/transactions/export", `{}`},
		isolationRow{"program transactions export", http.MethodPost, "/v1/loyalties/{programId}/transactions/export", `{}`},
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
	isolationRows = append(isolationRows,
		isolationRow{"assign rewards", http.MethodPost, "/v1/loyalties/{programId}/rewards", `[{"reward":"rew_x","parameters":{"loyalty":{"points":1}}}]`},
		isolationRow{"list program rewards", http.MethodGet, "/v1/loyalties/{programId}/rewards", ""},
		isolationRow{"get program reward", http.MethodGet, "/v1/loyalties/{programId}/rewards/{rewardAssignmentId}", ""},
		isolationRow{"update program reward", http.MethodPut, "/v1/loyalties/{programId}/rewards/{rewardAssignmentId}", `{"parameters":{"loyalty":{"points":1}}}`},
		isolationRow{"delete program reward", http.MethodDelete, "/v1/loyalties/{programId}/rewards/{rewardAssignmentId}", ""},
		isolationRow{"list reward assignments", http.MethodGet, "/v1/loyalties/{programId}/reward-assignments", ""},
		isolationRow{"get reward assignment", http.MethodGet, "/v1/loyalties/{programId}/reward-assignments/{rewardAssignmentId}", ""},
		isolationRow{"get assigned reward", http.MethodGet, "/v1/loyalties/{programId}/reward-assignments/{rewardAssignmentId}/reward", ""},
		isolationRow{"member rewards", http.MethodGet, "/v1/loyalties/members/{memberId}/rewards", ""},
		isolationRow{"redeem reward", http.MethodPost, "/v1/loyalties/{programId}/members/{memberId}/redemption", `{"reward":{"id":"rew_x"}}`},
		isolationRow{"redeem reward of any member", http.MethodPost, "/v1/loyalties/members/{memberId}/redemption", `{"reward":{"id":"rew_x"}}`},
	)
	isolationRows = append(isolationRows,
		isolationRow{"create tiers", http.MethodPost, "/v1/loyalties/{programId}/tiers", `[{"name":"Taken","points":{"from":0}}]`},
		isolationRow{"list tiers", http.MethodGet, "/v1/loyalties/{programId}/tiers", ""},
		isolationRow{"get tier", http.MethodGet, "/v1/loyalties/{programId}/tiers/{loyaltyTierId}", ""},
		isolationRow{"tier earning rules", http.MethodGet, "/v1/loyalties/{programId}/tiers/{loyaltyTierId}/earning-rules", ""},
		isolationRow{"tier rewards", http.MethodGet, "/v1/loyalties/{programId}/tiers/{loyaltyTierId}/rewards", ""},
		isolationRow{"member tiers", http.MethodGet, "/v1/loyalties/members/{memberId}/tiers", ""},
		isolationRow{"program pending points", http.MethodGet, "/v1/loyalties/{programId}/pending-points", ""},
		isolationRow{"member pending points", http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/pending-points", ""},
		isolationRow{"any member pending points", http.MethodGet, "/v1/loyalties/members/{memberId}/pending-points", ""},
		isolationRow{"member points expiration", http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/points-expiration", ""},
		isolationRow{"points expiration export", http.MethodPost, "/v1/loyalties/{programId}/points-expiration/export", "{}"},
		isolationRow{"adjust pending points", http.MethodPost, "/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/balance", `{"points":1}`},
		isolationRow{"cancel pending points", http.MethodPost, "/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/cancel", ""},
		isolationRow{"activate pending points", http.MethodPost, "/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate", ""},
	)
	isolationLists = append(isolationLists, isolationRow{"list programs", http.MethodGet, "/v1/loyalties", ""})
}

const (
	loyaltyProgramBody = `{"name":"Club","type":"AUTO_UPDATE","auto_join":true,"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0},"code_config":{"pattern":"CARD-####"}}}`
	earningRulesBody   = `[{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":1000,"points":1}}},"source":{"banner":"1 point per 10"}},` +
		`{"event":"order.paid","loyalty":{"type":"FIXED","points":"5"}}]`
)

// clubWithCard creates the program of loyaltyProgramBody (its id
// program) and its card CARD-0001, held by alice with points.
func clubWithCard(h *harness, program string, points int) {
	h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties", body: loyaltyProgramBody}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/" + program + "/vouchers/CARD-0001", body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members", body: `{"customer":"alice","voucher":"CARD-0001"}`}, http.StatusOK)
	if points > 0 {
		h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/balance", body: fmt.Sprintf(`{"points":%d}`, points)}, http.StatusOK)
	}
}

// Rewards for points over HTTP: assign a material and a campaign reward,
// list them (the program's, a member's, the affordable ones), redeem one,
// change and withdraw an assignment.
func TestLoyaltyRewards(t *testing.T) {
	h := newHarness(t)
	const program = "camp_00000000000000000002"
	clubWithCard(h, program, 250)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"lamp","name":"Lamp","price":5000}`}, http.StatusOK)
	lamp := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Lamp","stock":5,"parameters":{"product":{"id":"lamp"}}}`}, http.StatusOK)
	bonus := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Bonus points","parameters":{"campaign":{"id":"` + program + `","balance":7}}}`}, http.StatusOK)
	h.run(t, "loyalties/rewards", []step{
		{"assign", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/rewards",
			body: `[{"reward":"` + lamp["id"].(string) + `","parameters":{"loyalty":{"points":100}}},{"reward":"` + bonus["id"].(string) + `","parameters":{"loyalty":{"points":500}}}]`}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/rewards"}, 200},
		{"member_rewards", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/rewards"}, 200},
		{"member_affordable_rewards", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/rewards?affordable_only=true"}, 200},
		{"redeem", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members/CARD-0001/redemption", body: `{"reward":{"id":"` + lamp["id"].(string) + `"}}`}, 200},
		{"redeem_any_member", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/redemption", body: `{"reward":{"id":"` + lamp["id"].(string) + `"}}`}, 200},
		{"redeem_too_dear", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/redemption", body: `{"reward":{"id":"` + bonus["id"].(string) + `"}}`}, 400},
		{"redeem_without_reward", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/redemption", body: `{}`}, 400},
		{"member_after", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001"}, 200},
		{"assignments", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/reward-assignments"}, 200},
		{"get_assignment", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/reward-assignments/rewa_00000000000000000012"}, 200},
		{"get_assigned_reward", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/reward-assignments/rewa_00000000000000000012/reward"}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/rewards/rewa_00000000000000000012"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/loyalties/" + program + "/rewards/rewa_00000000000000000012", body: `{"parameters":{"loyalty":{"points":120}}}`}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/loyalties/" + program + "/rewards/rewa_00000000000000000012"}, 204},
		{"get_deleted", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/rewards/rewa_00000000000000000012"}, 404},
	})
}

// Tiers over HTTP: create them with mappings, list and get them, a tier's
// earning rules and rewards as it maps them, and the tier a member holds.
func TestLoyaltyTiers(t *testing.T) {
	h := newHarness(t)
	const program = "camp_00000000000000000002"
	clubWithCard(h, program, 300)
	rec := h.do(req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules", body: `[{"event":"order.paid","loyalty":{"type":"FIXED","points":20}}]`})
	var rules []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &rules); err != nil || len(rules) != 1 {
		t.Fatalf("earning rule: %d %s", rec.Code, rec.Body)
	}
	rule := rules[0]["id"].(string)
	lamp := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Bonus","parameters":{"campaign":{"id":"` + program + `","balance":1}}}`}, http.StatusOK)
	rec = h.do(req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/rewards", body: `[{"reward":"` + lamp["id"].(string) + `","parameters":{"loyalty":{"points":100}}}]`})
	if err := json.Unmarshal(rec.Body.Bytes(), &rules); err != nil || len(rules) != 1 {
		t.Fatalf("reward assignment: %d %s", rec.Code, rec.Body)
	}
	assignment := rules[0]["id"].(string)
	h.run(t, "loyalties/tiers", []step{
		{"create", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/tiers", body: `[` +
			`{"name":"Bottom","points":{"from":1,"to":249},"earning_rules":{"` + rule + `":{"type":"CUSTOM","points":5}}},` +
			`{"name":"Middle","points":{"from":250,"to":499},"earning_rules":{"` + rule + `":{"type":"MULTIPLY","multiplier":2}},"rewards":{"` + assignment + `":{"type":"MULTIPLY","multiplier":0.5}},"metadata":{"color":"silver"}},` +
			`{"name":"Top","points":{"from":500}}]`}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/tiers"}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/tiers/ltr_00000000000000000013"}, 200},
		{"earning_rules", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/tiers/ltr_00000000000000000013/earning-rules"}, 200},
		{"rewards", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/tiers/ltr_00000000000000000013/rewards"}, 200},
		{"member_tiers", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/tiers"}, 200},
		{"unknown_tier", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/tiers/ltr_nope"}, 404},
		{"bad_range", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/tiers", body: `[{"name":"Upside down","points":{"from":10,"to":5}}]`}, 400},
		{"tier_event_rule", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules",
			body: `[{"event":"customer.loyalty.tier.upgraded","loyalty_tier":{"id":"__ANY__"},"loyalty":{"type":"FIXED","points":7}}]`}, 200},
		{"tier_event_rule_without_tier", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules",
			body: `[{"event":"customer.loyalty.tier.joined","loyalty":{"type":"FIXED","points":7}}]`}, 400},
		{"recalculate", req{method: http.MethodPut, target: "/v1/loyalties/" + program, body: `{"loyalty_tiers_expiration":{"qualification_type":"BALANCE",` +
			`"start_date":{"type":"IMMEDIATE"},"expiration_date":{"type":"CUSTOM","extend":"P3M","rounding":{"type":"MONTH","strategy":"END"}}},` +
			`"options":{"recalculate_tiers":true}}`}, 200},
		{"member_tiers_recalculated", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/tiers"}, 200},
		{"bad_tiers_expiration", req{method: http.MethodPut, target: "/v1/loyalties/" + program, body: `{"loyalty_tiers_expiration":{"qualification_type":"SOMETIMES"}}`}, 400},
	})
}

// Pending points over HTTP: a rule whose points wait, the entries of a
// program and of a member, and adjusting, activating and canceling them.
func TestLoyaltyPendingPoints(t *testing.T) {
	h := newHarness(t)
	const program = "camp_00000000000000000002"
	clubWithCard(h, program, 0)
	h.run(t, "loyalties/pending", []step{
		{"create_rule", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules",
			body: `[{"event":"order.paid","loyalty":{"type":"FIXED","points":1000},"pending_points":{"period_type":"DAY","period_value":3}}]`}, 200},
		{"paid_order", req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"o-1","status":"PAID","amount":100,"customer":{"source_id":"alice"}}`}, 200},
		{"second_paid_order", req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"o-2","status":"PAID","amount":100,"customer":{"source_id":"alice"}}`}, 200},
		{"program_list", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/pending-points"}, 200},
		{"member_list", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/members/CARD-0001/pending-points?limit=1"}, 200},
		{"member_card", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001"}, 200},
		{"adjust", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/pending-points/lopp_00000000000000000010/balance", body: `{"points":-100}`}, 200},
		{"adjust_to_zero", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/pending-points/lopp_00000000000000000010/balance", body: `{"points":-900}`}, 400},
		{"activate", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/pending-points/lopp_00000000000000000010/activate"}, 200},
		{"activate_again", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/pending-points/lopp_00000000000000000010/activate"}, 400},
		{"cancel", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/pending-points/lopp_00000000000000000012/cancel"}, 204},
		{"unknown", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/pending-points/lopp_nope/cancel"}, 404},
		{"member_list_after", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/pending-points"}, 200},
		{"member_card_after", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001"}, 200},
	})
}

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
		{"member_activity", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/members/CARD-0001/activity?limit=3"}, 200},
		{"any_member_activity", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/activity?limit=1"}, 200},
		{"member_activities_alias", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001/activities?limit=1"}, 200},
		{"member_transactions_export", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members/CARD-0001/transactions/export", body: `{"parameters":{"fields":["id","type","amount"]}}`}, 200},
		{"any_member_transactions_export", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/transactions/export", body: `{}`}, 200},
		{"program_transactions_export", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/transactions/export", body: `{"parameters":{"order":"-created_at"}}`}, 200},
		{"program_transactions", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/transactions"}, 200},
		{"add_second_card", req{method: http.MethodPost, target: "/v1/campaigns/" + program + "/vouchers/CARD-0002", body: `{}`}, 200},
		{"add_member", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members", body: `{"customer":"bob","voucher":"CARD-0002"}`}, 200},
		{"transfer", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members/CARD-0002/transfers", body: `[{"code":"CARD-0001","points":10,"reason":"gift"}]`}, 200},
		{"transfer_transactions", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0002/transactions"}, 200},
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
		{"transfer_beyond_balance", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members/CARD-0002/transfers", body: `[{"code":"CARD-0001","points":100000}]`}, 400},
		{"points_not_a_number", req{method: http.MethodPost, target: "/v1/loyalties/members/CARD-0001/balance", body: `{"points":"many"}`}, 400},
		{"rule_missing_ratio", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules",
			body: `[{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_TOTAL_AMOUNT"}}]`}, 400},
		{"rule_body_not_array", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/earning-rules", body: `{"event":"order.paid"}`}, 400},
		{"member_balance_unchanged", req{method: http.MethodGet, target: "/v1/loyalties/members/CARD-0001"}, 200},
		{"delete_program", req{method: http.MethodDelete, target: "/v1/loyalties/" + program}, 200},
	})
}

// Points expiration over HTTP: a program whose points expire after a
// month, additions with each expiration type, the member's buckets
// (earliest expiry first, never-expiring last) and refusals.
func TestLoyaltyPointsExpiration(t *testing.T) {
	h := newHarness(t)
	const program = "camp_00000000000000000002"
	h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties", body: `{"name":"Club","type":"AUTO_UPDATE","voucher":{"type":"LOYALTY_CARD",` +
		`"loyalty_card":{"points":0,"expiration_rules":{"period_type":"MONTH","period_value":1,"rounding_type":"END_OF_MONTH"}},"code_config":{"pattern":"CARD-####"}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/" + program + "/vouchers/CARD-0001", body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/members", body: `{"customer":"alice","voucher":"CARD-0001"}`}, http.StatusOK)
	member := "/v1/loyalties/" + program + "/members/CARD-0001"
	h.run(t, "loyalties/points_expiration", []step{
		{"add_by_program_rules", req{method: http.MethodPost, target: member + "/balance", body: `{"points":100}`}, 200},
		{"add_non_expiring", req{method: http.MethodPost, target: member + "/balance", body: `{"points":40,"expiration_type":"NON_EXPIRING"}`}, 200},
		{"add_custom_date", req{method: http.MethodPost, target: member + "/balance", body: `{"points":60,"expiration_type":"CUSTOM_DATE","expiration_date":"2026-01-15"}`}, 200},
		{"custom_date_in_the_past", req{method: http.MethodPost, target: member + "/balance", body: `{"points":1,"expiration_type":"CUSTOM_DATE","expiration_date":"2025-12-31"}`}, 400},
		{"custom_date_unreadable", req{method: http.MethodPost, target: member + "/balance", body: `{"points":1,"expiration_type":"CUSTOM_DATE","expiration_date":"mid-May"}`}, 400},
		{"remove", req{method: http.MethodPost, target: member + "/balance", body: `{"points":-70}`}, 200},
		{"list", req{method: http.MethodGet, target: member + "/points-expiration"}, 200},
		{"list_page", req{method: http.MethodGet, target: member + "/points-expiration?limit=1&page=2"}, 200},
		{"export", req{method: http.MethodPost, target: "/v1/loyalties/" + program + "/points-expiration/export",
			body: `{"parameters":{"order":"expires_at","fields":["id","voucher_id","status","expires_at","points"]}}`}, 200},
		{"member", req{method: http.MethodGet, target: member}, 200},
		{"bad_limit", req{method: http.MethodGet, target: member + "/points-expiration?limit=101"}, 400},
		{"unknown_member", req{method: http.MethodGet, target: "/v1/loyalties/" + program + "/members/NOPE/points-expiration"}, 404},
	})
}
