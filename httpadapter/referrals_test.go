package httpadapter_test

import (
	"net/http"
	"testing"
)

// referralProgramBody is a referral program converting on redemptions:
// 45% off, 100 points in the Club program for the referee, a tier
// giving the referrer 1,000 credits on a gift card for each referee.
const referralProgramBody = `{"name":"Friends","type":"AUTO_UPDATE","campaign_type":"REFERRAL_PROGRAM",
	"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":45},"is_referral_code":true},
	"referral_program":{"conversion_event_type":"redemption",
		"referee_reward":{"related_object_parent":{"id":"{club}","object":"CAMPAIGN"},"type":"LOYALTY_CARD","amount":100},
		"referral_tiers":[{"id":"rt_each","banner":"A friend","parameters":{"criteria":{"type":"EACH_REFEREE"},
			"reward":{"related_object_parent":{"id":"{gifts}","object":"CAMPAIGN"},"type":"GIFT_VOUCHER","amount":1000}}}]}}`

// seedReferral creates the Club program, the gift cards, the Friends
// referral program and a code published to ref-alice; it returns the
// program's id and the code.
func seedReferral(h *harness, prefix string) (campaignID, code string) {
	club := h.mustDo(req{method: http.MethodPost, target: "/v1/loyalties", body: `{"name":"` + prefix + `Club","type":"AUTO_UPDATE","auto_join":true,
		"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`}, http.StatusOK)
	gifts := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"` + prefix + `Gift cards","type":"AUTO_UPDATE",
		"campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":1}}}`}, http.StatusOK)
	body := fill(h.t.(*testing.T), referralProgramBody, map[string]string{"club": club["id"].(string), "gifts": gifts["id"].(string)})
	body = `{"name":"` + prefix + body[len(`{"name":"`):]
	c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: body}, http.StatusOK)
	code = prefix + "REF-ALICE"
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/" + c["id"].(string) + "/vouchers/" + code, body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/publications",
		body: `{"customer":{"source_id":"` + prefix + `ref-alice"},"voucher":"` + code + `"}`}, http.StatusOK)
	return c["id"].(string), code
}

func TestReferrals(t *testing.T) {
	h := newHarness(t)
	camp, code := seedReferral(h, "")
	byCode := "/v1/referrals/members/" + code + "/holders"
	inCamp := "/v1/referrals/" + camp + "/members/" + code + "/holders"
	redeem := func(who string) string {
		return `{"customer":{"source_id":"` + who + `"},"redeemables":[{"object":"voucher","id":"` + code + `"}],"order":{"amount":10000}}`
	}
	h.run(t, "referrals", []step{
		{"campaign", req{method: http.MethodGet, target: "/v1/campaigns/" + camp}, 200},
		{"add_holders", req{method: http.MethodPost, target: byCode, body: `{"holders":[{"source_id":"ref-bob"},{"source_id":"ref-carl","name":"Carl"}],"metadata":{"via":"email"}}`}, 200},
		{"add_holders_in_campaign", req{method: http.MethodPost, target: inCamp, body: `{"holders":[{"source_id":"ref-dan"}]}`}, 200},
		{"list_holders", req{method: http.MethodGet, target: byCode}, 200},
		{"list_holders_in_campaign_page", req{method: http.MethodGet, target: inCamp + "?limit=2&order=-id"}, 200},
		{"list_holders_after", req{method: http.MethodGet, target: byCode + "?limit=2&starting_after_id=rh_00000000000000000010"}, 200},
		{"list_referees_filtered", req{method: http.MethodGet, target: byCode + "?filters[holder_role][conditions][$is]=REFEREE&limit=1"}, 200},
		{"list_referrer_filtered", req{method: http.MethodGet, target: byCode + "?filters[holder_role][conditions][$in][0]=REFERRER"}, 200},
		{"remove_holder", req{method: http.MethodDelete, target: byCode + "/rh_00000000000000000010"}, 204},
		{"remove_holder_in_campaign", req{method: http.MethodDelete, target: inCamp + "/rh_00000000000000000014"}, 204},
		{"list_after_remove", req{method: http.MethodGet, target: byCode}, 200},
		// Bob redeems alice's code: the discount, 100 points on a Club card,
		// a referral; alice gets 1,000 credits and a referred customer.
		{"redeem_by_referee", req{method: http.MethodPost, target: "/v1/redemptions", body: redeem("ref-bob")}, 200},
		{"referee", req{method: http.MethodGet, target: "/v1/customers/ref-bob"}, 200},
		{"referrer", req{method: http.MethodGet, target: "/v1/customers/ref-alice"}, 200},
		{"redeem_by_referrer", req{method: http.MethodPost, target: "/v1/redemptions", body: redeem("ref-alice")}, 400},
	})
	h.run(t, "referrals/errors", []step{
		{"unknown_code", req{method: http.MethodGet, target: "/v1/referrals/members/NOPE/holders"}, 404},
		{"unknown_campaign", req{method: http.MethodGet, target: "/v1/referrals/camp_nope/members/" + code + "/holders"}, 404},
		{"no_holders", req{method: http.MethodPost, target: byCode, body: `{"holders":[]}`}, 400},
		{"holder_without_id", req{method: http.MethodPost, target: byCode, body: `{"holders":[{"name":"x"}]}`}, 400},
		{"referrer_as_referee", req{method: http.MethodPost, target: byCode, body: `{"holders":[{"source_id":"ref-carl"},{"source_id":"ref-alice"}]}`}, 409},
		{"assigned_twice", req{method: http.MethodPost, target: byCode, body: `{"holders":[{"source_id":"ref-carl"}]}`}, 409},
		{"remove_referrer", req{method: http.MethodDelete, target: byCode + "/rh_00000000000000000008"}, 403},
		{"remove_unknown", req{method: http.MethodDelete, target: byCode + "/rh_nope"}, 404},
		{"bad_order", req{method: http.MethodGet, target: byCode + "?order=created_at"}, 400},
		{"bad_filter", req{method: http.MethodGet, target: byCode + "?filters[shoe_size][conditions][$is]=42"}, 400},
		{"bad_limit", req{method: http.MethodGet, target: byCode + "?limit=0"}, 400},
		{"unauthorized", req{method: http.MethodGet, target: byCode, creds: credsNone}, 401},
	})
}

// Isolation rows of referrals (isolation_test.go): project B reads, adds
// to and removes from the holders of A's referral code.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		camp, code := seedReferral(h, "iso-")
		out := h.mustDo(req{method: http.MethodPost, target: "/v1/referrals/members/" + code + "/holders",
			body: `{"holders":[{"source_id":"iso-ref-bob"}]}`}, http.StatusOK)
		// Under /v1/referrals/, {campaignId} and {memberId} are these
		// (scopedIDs): the shared ones are another campaign and a loyalty
		// card.
		ids["referrals.campaignId"], ids["referrals.memberId"] = camp, code
		ids["referrals.holderId"] = out["holders"].([]any)[0].(map[string]any)["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"referral holders", http.MethodGet, "/v1/referrals/members/{memberId}/holders", ""},
		isolationRow{"referral holders in campaign", http.MethodGet, "/v1/referrals/{campaignId}/members/{memberId}/holders", ""},
		isolationRow{"add referral holders", http.MethodPost, "/v1/referrals/members/{memberId}/holders", `{"holders":[{"source_id":"iso-b"}]}`},
		isolationRow{"add referral holders in campaign", http.MethodPost, "/v1/referrals/{campaignId}/members/{memberId}/holders",
			`{"holders":[{"source_id":"iso-b"}]}`},
		isolationRow{"remove referral holder", http.MethodDelete, "/v1/referrals/members/{memberId}/holders/{holderId}", ""},
		isolationRow{"remove referral holder in campaign", http.MethodDelete,
			"/v1/referrals/{campaignId}/members/{memberId}/holders/{holderId}", ""},
	)
}

// A program converting on a custom event: POST /v1/events naming a
// referral code converts the event's customer once.
func TestReferralCustomEvents(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/custom-event-schemas",
		body: `{"name":"signed_up","schema":{"properties":{}}}`}, http.StatusOK)
	gifts := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gift cards","type":"AUTO_UPDATE",
		"campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":1}}}`}, http.StatusOK)
	c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Sign-ups","type":"AUTO_UPDATE","campaign_type":"REFERRAL_PROGRAM",
		"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"is_referral_code":true},
		"referral_program":{"conversion_event_type":"custom_event","custom_event":{"name":"signed_up"},
			"referee_reward":{"related_object_parent":{"id":"` + gifts["id"].(string) + `","object":"CAMPAIGN"},"type":"GIFT_VOUCHER","amount":2500}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/" + c["id"].(string) + "/vouchers/REF-EVE", body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/publications", body: `{"customer":{"source_id":"ref-eve"},"voucher":"REF-EVE"}`}, http.StatusOK)
	event := func(who, referral string) string {
		return `{"event":"signed_up","customer":{"source_id":"` + who + `"},"referral":` + referral + `}`
	}
	h.run(t, "referrals/custom_events", []step{
		{"track", req{method: http.MethodPost, target: "/v1/events", body: event("ref-fay", `{"code":"REF-EVE"}`)}, 200},
		{"track_again", req{method: http.MethodPost, target: "/v1/events", body: event("ref-fay", `{"code":"REF-EVE"}`)}, 200},
		{"referee", req{method: http.MethodGet, target: "/v1/customers/ref-fay"}, 200},
		{"unknown_code", req{method: http.MethodPost, target: "/v1/events", body: event("ref-gus", `{"code":"NOPE"}`)}, 404},
		{"by_the_referrer", req{method: http.MethodPost, target: "/v1/events", body: event("ref-eve", `{"code":"REF-EVE"}`)}, 400},
		{"without_code", req{method: http.MethodPost, target: "/v1/events", body: event("ref-gus", `{"referrer_id":"cust_x"}`)}, 400},
	})
}
