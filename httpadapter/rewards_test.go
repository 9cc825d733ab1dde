package httpadapter_test

import (
	"net/http"
	"testing"
)

const (
	campaignRewardBody = `{"name":"100 points","type":"CAMPAIGN","parameters":{"campaign":{"id":"camp_loyal","type":"LOYALTY_PROGRAM","balance":100}},"metadata":{"tier":"gold"}}`
	coinRewardBody     = `{"name":"Coins","parameters":{"coin":{"exchange_ratio":0.5,"points_ratio":10}}}`
	materialRewardBody = `{"name":"Free mug","type":"MATERIAL","stock":10,"attributes":{"image_url":"https://cdn.example.com/mug.png","description":"A mug"},"parameters":{"product":{"id":"mug"}}}`
)

// seedRewards creates the product "mug" and one reward of each type:
// rew_..03 (CAMPAIGN), rew_..04 (COIN), rew_..05 (MATERIAL).
func (h *harness) seedRewards() {
	h.t.Helper()
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug"}`}, http.StatusOK)
	for _, b := range []string{campaignRewardBody, coinRewardBody, materialRewardBody} {
		h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: b}, http.StatusOK)
	}
}

func TestRewards(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug"}`}, http.StatusOK)
	h.run(t, "rewards", []step{
		{"create_campaign", req{method: http.MethodPost, target: "/v1/rewards", body: campaignRewardBody}, 200},
		{"create_coin", req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody}, 200},
		{"create_material", req{method: http.MethodPost, target: "/v1/rewards", body: materialRewardBody}, 200},
		{"get", req{method: http.MethodGet, target: "/v1/rewards/rew_00000000000000000003"}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/rewards"}, 200},
		{"list_page", req{method: http.MethodGet, target: "/v1/rewards?limit=2&page=2&order=created_at"}, 200},
		{"list_filter_type", req{method: http.MethodGet, target: "/v1/rewards?filters[type][conditions][$in]=COIN&filters[type][conditions][$in]=MATERIAL"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000003", body: `{"name":"200 points","parameters":{"campaign":{"id":"camp_loyal","type":"LOYALTY_PROGRAM","balance":200}}}`}, 200},
		{"update_material_stock", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000005", body: `{"stock":5,"metadata":{"shelf":"B2"}}`}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/rewards/rew_00000000000000000004"}, 204},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/rewards/rew_00000000000000000004"}, 404},
		{"list_after_delete", req{method: http.MethodGet, target: "/v1/rewards"}, 200},
	})
}

// rewardErrors are failing requests on a harness seeded by seedRewards.
var rewardErrors = []step{
	{"unauthorized_no_credentials", req{method: http.MethodGet, target: "/v1/rewards/rew_00000000000000000003", creds: credsNone}, 401},
	{"unauthorized_wrong_token", req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody, creds: credsWrongToken}, 401},
	{"not_found", req{method: http.MethodGet, target: "/v1/rewards/rew_nope"}, 404},
	{"not_found_update", req{method: http.MethodPut, target: "/v1/rewards/rew_nope", body: `{"name":"x"}`}, 404},
	{"not_found_delete", req{method: http.MethodDelete, target: "/v1/rewards/rew_nope"}, 404},
	{"not_found_material_product", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"product":{"id":"prod_nope"}}}`}, 404},
	{"method_not_allowed", req{method: http.MethodPatch, target: "/v1/rewards/rew_00000000000000000003", body: `{}`}, 405},
	{"method_not_allowed_collection", req{method: http.MethodDelete, target: "/v1/rewards"}, 405},
	{"invalid_json", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x",}`}, 400},
	{"invalid_payload_empty_body", req{method: http.MethodPost, target: "/v1/rewards"}, 400},
	{"invalid_payload_no_parameters", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x"}`}, 400},
	{"invalid_payload_unknown_type", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","type":"FOO","parameters":{"coin":{"exchange_ratio":1}}}`}, 400},
	{"invalid_payload_type_mismatch", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","type":"COIN","parameters":{"campaign":{"id":"camp_1","type":"DISCOUNT_COUPONS"}}}`}, 400},
	{"invalid_payload_two_shapes", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"coin":{"exchange_ratio":1},"product":{"id":"mug"}}}`}, 400},
	{"invalid_payload_campaign_type", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"campaign":{"id":"camp_1","type":"PROMOTION"}}}`}, 400},
	{"invalid_balance", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"campaign":{"id":"camp_1","type":"GIFT_VOUCHERS","balance":0}}}`}, 400},
	{"invalid_balance_update", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000003", body: `{"parameters":{"campaign":{"id":"camp_1","type":"LOYALTY_PROGRAM","balance":-5}}}`}, 400},
	{"invalid_payload_balance_type", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"campaign":{"id":"camp_1","type":"GIFT_VOUCHERS","balance":"100"}}}`}, 400},
	{"invalid_payload_exchange_ratio", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"coin":{"exchange_ratio":0}}}`}, 400},
	{"invalid_payload_exchange_ratio_type", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":{"coin":{"exchange_ratio":"lots"}}}`}, 400},
	{"invalid_payload_stock_type", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000005", body: `{"stock":"ten"}`}, 400},
	{"invalid_payload_stock_not_material", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000003", body: `{"stock":1}`}, 400},
	{"invalid_payload_change_type", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000003", body: `{"parameters":{"coin":{"exchange_ratio":1}}}`}, 400},
	{"invalid_payload_image_url_http", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","attributes":{"image_url":"http://cdn.example.com/mug.png"},"parameters":{"product":{"id":"mug"}}}`}, 400},
	{"invalid_payload_image_url_gif", req{method: http.MethodPut, target: "/v1/rewards/rew_00000000000000000005", body: `{"attributes":{"image_url":"https://cdn.example.com/mug.gif"}}`}, 400},
	{"invalid_payload_parameters_type", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"x","parameters":[]}`}, 400},
	{"unsupported_media_type", req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody, contentType: "text/plain"}, 415},
	{"list_limit_zero", req{method: http.MethodGet, target: "/v1/rewards?limit=0"}, 400},
	{"list_limit_too_big", req{method: http.MethodGet, target: "/v1/rewards?limit=101"}, 400},
	{"list_bad_order", req{method: http.MethodGet, target: "/v1/rewards?order=-name"}, 400},
	{"list_bad_filter", req{method: http.MethodGet, target: "/v1/rewards?filters[type][conditions]=COIN"}, 400},
	{"list_bad_filter_index", req{method: http.MethodGet, target: "/v1/rewards?filters[type][conditions][$in][first]=COIN"}, 400},
}

func TestRewardErrors(t *testing.T) {
	h := newHarness(t)
	h.seedRewards()
	h.run(t, "rewards/errors", rewardErrors)
}

// Isolation rows of rewards (isolation_test.go); they use the product of
// the catalog's seed.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		r := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody}, http.StatusOK)
		ids["rewardId"] = r["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get reward", http.MethodGet, "/v1/rewards/{rewardId}", ""},
		isolationRow{"update reward", http.MethodPut, "/v1/rewards/{rewardId}", `{"name":"Taken"}`},
		isolationRow{"delete reward", http.MethodDelete, "/v1/rewards/{rewardId}", ""},
		isolationRow{"create material reward of A's product", http.MethodPost, "/v1/rewards", `{"name":"Taken","parameters":{"product":{"id":"{productId}"}}}`},
	)
	isolationLists = append(isolationLists, isolationRow{"list rewards", http.MethodGet, "/v1/rewards", ""})
}

// Isolation rows of reward assignments (rewards_assignments_test.go): the
// reward of the seed above, assigned to a loyalty campaign of their own.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Iso points","campaign_type":"LOYALTY_PROGRAM",` +
			`"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`}, http.StatusOK)
		a := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards/" + ids["rewardId"] + "/assignments",
			body: `{"campaign":"` + c["id"].(string) + `"}`}, http.StatusOK) // a COIN reward: no points
		ids["assignmentId"] = a["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"list reward assignments", http.MethodGet, "/v1/rewards/{rewardId}/assignments", ""},
		isolationRow{"create reward assignment", http.MethodPost, "/v1/rewards/{rewardId}/assignments", `{"campaign":"Points"}`},
		isolationRow{"get reward assignment", http.MethodGet, "/v1/rewards/{rewardId}/assignments/{assignmentId}", ""},
		isolationRow{"update reward assignment", http.MethodPut, "/v1/rewards/{rewardId}/assignments/{assignmentId}", `{"parameters":{}}`},
		isolationRow{"delete reward assignment", http.MethodDelete, "/v1/rewards/{rewardId}/assignments/{assignmentId}", ""},
	)
}
