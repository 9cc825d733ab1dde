package httpadapter_test

import (
	"net/http"
	"testing"
)

const loyaltyCampaignBody = `{"name":"Points","campaign_type":"LOYALTY_PROGRAM","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`

// TestRewardAssignments: a loyalty campaign's reward costs points
// (parameters.loyalty.points, named as the hosted service names it when
// missing); a COIN reward takes no parameters.loyalty (issue 29).
func TestRewardAssignments(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug"}`}, http.StatusOK)
	mug := func(name string) string {
		return h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"` + name + `","type":"MATERIAL","parameters":{"product":{"id":"mug"}}}`}, http.StatusOK)["id"].(string)
	}
	first := mug("Mug")
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: loyaltyCampaignBody}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promos","campaign_type":"PROMOTION"}`}, http.StatusOK)
	second := mug("Another mug")
	coin := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody}, http.StatusOK)["id"].(string)
	rew, asg := "/v1/rewards/"+first+"/assignments", "/v1/rewards/"+first+"/assignments/"
	created := h.mustDo(req{method: http.MethodPost, target: rew, body: `{"campaign":"Points","parameters":{"loyalty":{"points":39}}}`}, http.StatusOK)["id"].(string)
	h.run(t, "reward_assignments", []step{
		{"get", req{method: http.MethodGet, target: asg + created}, 200},
		{"create_duplicate", req{method: http.MethodPost, target: rew, body: `{"campaign":"Points","parameters":{"loyalty":{"points":40}}}`}, 409},
		{"create_no_parameters", req{method: http.MethodPost, target: "/v1/rewards/" + second + "/assignments", body: `{"campaign":"Points"}`}, 400},
		{"create_no_loyalty", req{method: http.MethodPost, target: "/v1/rewards/" + second + "/assignments", body: `{"campaign":"Points","parameters":{}}`}, 400},
		{"create_no_points", req{method: http.MethodPost, target: "/v1/rewards/" + second + "/assignments", body: `{"campaign":"Points","parameters":{"loyalty":{}}}`}, 400},
		{"create_zero_points", req{method: http.MethodPost, target: rew, body: `{"campaign":"Points","parameters":{"loyalty":{"points":0}}}`}, 400},
		{"create_promotion_campaign", req{method: http.MethodPost, target: rew, body: `{"campaign":"Promos","parameters":{"loyalty":{"points":1}}}`}, 400},
		{"create_no_campaign", req{method: http.MethodPost, target: rew, body: `{"parameters":{"loyalty":{"points":1}}}`}, 400},
		{"create_missing_campaign", req{method: http.MethodPost, target: rew, body: `{"campaign":"camp_nope","parameters":{"loyalty":{"points":1}}}`}, 404},
		{"create_missing_reward", req{method: http.MethodPost, target: "/v1/rewards/rew_nope/assignments", body: `{"campaign":"Points","parameters":{"loyalty":{"points":1}}}`}, 404},
		{"create_coin_with_loyalty", req{method: http.MethodPost, target: "/v1/rewards/" + coin + "/assignments", body: `{"campaign":"Points","parameters":{"loyalty":{"points":1}}}`}, 400},
		{"create_coin", req{method: http.MethodPost, target: "/v1/rewards/" + coin + "/assignments", body: `{"campaign":"Points"}`}, 200},
		{"list", req{method: http.MethodGet, target: rew}, 200},
		{"rewards_of_assignment", req{method: http.MethodGet, target: "/v1/rewards?assignment_id=" + created}, 200},
		{"rewards_of_missing_assignment", req{method: http.MethodGet, target: "/v1/rewards?assignment_id=rewa_nope"}, 200},
		{"update", req{method: http.MethodPut, target: asg + created, body: `{"parameters":{"loyalty":{"points":50,"auto_redeem":true}}}`}, 200},
		{"update_campaign", req{method: http.MethodPut, target: asg + created, body: `{"campaign":"Promos"}`}, 400},
		{"create_second_auto_redeem", req{method: http.MethodPost, target: "/v1/rewards/" + second + "/assignments",
			body: `{"campaign":"Points","parameters":{"loyalty":{"points":5,"auto_redeem":true}}}`}, 400},
		{"get_under_other_reward", req{method: http.MethodGet, target: "/v1/rewards/" + second + "/assignments/" + created}, 404},
		{"delete_assigned_reward", req{method: http.MethodDelete, target: "/v1/rewards/" + first}, 400},
		{"delete", req{method: http.MethodDelete, target: asg + created}, 204},
		{"get_deleted", req{method: http.MethodGet, target: asg + created}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: rew}, 200},
		{"delete_reward", req{method: http.MethodDelete, target: "/v1/rewards/" + first}, 204},
	})
}
