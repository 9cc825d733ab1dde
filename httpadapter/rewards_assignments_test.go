package httpadapter_test

import (
	"net/http"
	"testing"
)

const loyaltyCampaignBody = `{"name":"Points","campaign_type":"LOYALTY_PROGRAM","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`

func TestRewardAssignments(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody}, http.StatusOK)                                                      // rew_..02
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: loyaltyCampaignBody}, http.StatusOK)                                               // camp_..03
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promos","campaign_type":"PROMOTION"}`}, http.StatusOK)                   // a PROMOTION campaign
	h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Other coins","parameters":{"coin":{"exchange_ratio":1}}}`}, http.StatusOK) // a second reward
	rew, asg := "/v1/rewards/rew_00000000000000000002/assignments", "/v1/rewards/rew_00000000000000000002/assignments/"
	h.run(t, "reward_assignments", []step{
		{"create", req{method: http.MethodPost, target: rew, body: `{"campaign":"camp_00000000000000000003","parameters":{"loyalty":{"points":39}}}`}, 200},
		{"create_duplicate", req{method: http.MethodPost, target: rew, body: `{"campaign":"Points","parameters":{"loyalty":{"points":40}}}`}, 409},
		{"create_no_points", req{method: http.MethodPost, target: rew, body: `{"campaign":"Points"}`}, 400},
		{"create_zero_points", req{method: http.MethodPost, target: rew, body: `{"campaign":"Points","parameters":{"loyalty":{"points":0}}}`}, 400},
		{"create_promotion_campaign", req{method: http.MethodPost, target: rew, body: `{"campaign":"Promos","parameters":{"loyalty":{"points":1}}}`}, 400},
		{"create_no_campaign", req{method: http.MethodPost, target: rew, body: `{"parameters":{"loyalty":{"points":1}}}`}, 400},
		{"create_missing_campaign", req{method: http.MethodPost, target: rew, body: `{"campaign":"camp_nope","parameters":{"loyalty":{"points":1}}}`}, 404},
		{"create_missing_reward", req{method: http.MethodPost, target: "/v1/rewards/rew_nope/assignments", body: `{"campaign":"Points","parameters":{"loyalty":{"points":1}}}`}, 404},
		{"get", req{method: http.MethodGet, target: asg + "rewa_00000000000000000006"}, 200},
		{"list", req{method: http.MethodGet, target: rew}, 200},
		{"rewards_of_assignment", req{method: http.MethodGet, target: "/v1/rewards?assignment_id=rewa_00000000000000000006"}, 200},
		{"rewards_of_missing_assignment", req{method: http.MethodGet, target: "/v1/rewards?assignment_id=rewa_nope"}, 200},
		{"update", req{method: http.MethodPut, target: asg + "rewa_00000000000000000006", body: `{"parameters":{"loyalty":{"points":50,"auto_redeem":true}}}`}, 200},
		{"update_campaign", req{method: http.MethodPut, target: asg + "rewa_00000000000000000006", body: `{"campaign":"Promos"}`}, 400},
		{"create_second_auto_redeem", req{method: http.MethodPost, target: "/v1/rewards/rew_00000000000000000005/assignments",
			body: `{"campaign":"Points","parameters":{"loyalty":{"points":5,"auto_redeem":true}}}`}, 400},
		{"get_under_other_reward", req{method: http.MethodGet, target: "/v1/rewards/rew_00000000000000000005/assignments/rewa_00000000000000000006"}, 404},
		{"delete_assigned_reward", req{method: http.MethodDelete, target: "/v1/rewards/rew_00000000000000000002"}, 400},
		{"delete", req{method: http.MethodDelete, target: asg + "rewa_00000000000000000006"}, 204},
		{"get_deleted", req{method: http.MethodGet, target: asg + "rewa_00000000000000000006"}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: rew}, 200},
		{"delete_reward", req{method: http.MethodDelete, target: "/v1/rewards/rew_00000000000000000002"}, 204},
	})
}
