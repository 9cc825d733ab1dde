package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"
)

// qualification is a POST of body to target, {placeholders} filled from
// ids; a body without a customer gets alice (a request without one has a
// random tracking id).
func qualification(target, body string, ids map[string]string) req {
	if !strings.Contains(body, `"customer"`) {
		body = `{"customer":{"source_id":"alice"},` + body[1:]
	}
	for k, v := range ids {
		body = strings.ReplaceAll(body, "{"+k+"}", v)
	}
	return req{method: http.MethodPost, target: target, body: body}
}

// TestQualifications walks POST /v1/qualifications and its client-side
// twin over the validation fixture, each answer against its golden file
// (validated against the OpenAPI by TestOpenAPIContract).
func TestQualifications(t *testing.T) {
	h := newHarness(t)
	clientKeyed(t, h)
	ids := validationFixture(h)
	qualificationExtras(h, ids)
	const q = "/v1/qualifications"
	h.run(t, "qualifications", []step{
		{"all_default", qualification(q, `{"customer":{"source_id":"alice"},"order":{"amount":20000}}`, ids), 200},
		{"all_expanded_best_deal", qualification(q, `{"order":{"items":[{"product_id":"{watchflix}","quantity":1},{"product_id":"{roses}","quantity":2}]},`+
			`"options":{"limit":4,"expand":["redeemable","category","validation_rules"],"sorting_rule":"BEST_DEAL"}}`, ids), 200},
		{"all_best_deal_page_2", qualification(q, `{"order":{"items":[{"product_id":"{watchflix}","quantity":1},{"product_id":"{roses}","quantity":2}]},`+
			`"options":{"limit":4,"sorting_rule":"BEST_DEAL","starting_after":"9999-12-31T23:59:59.999000004Z"}}`, ids), 200},
		{"filtered_tiers", qualification(q, `{"order":{"amount":20000},"options":{"filters":{"resource_type":{"conditions":{"$is":["promotion_tier"]}}}}}`, ids), 200},
		{"promotion_stacks", qualification(q, `{"scenario":"PROMOTION_STACKS","order":{"amount":20000}}`, ids), 200},
		{"gift_locked_credits", qualification(q, `{"session":{"type":"LOCK"},"order":{"amount":20000},`+
			`"options":{"filters":{"voucher_type":{"conditions":{"$is":["GIFT_VOUCHER"]}}}}}`, ids), 200},
		{"campaigns_and_cards", qualification(q, `{"order":{"amount":20000},"options":{"limit":10,"expand":["validation_rules"],"filters":{"junction":"or",`+
			`"resource_type":{"conditions":{"$is":["campaign"]}},"voucher_type":{"conditions":{"$is":["LOYALTY_CARD"]}}}}}`, ids), 200},
		{"audience_only_rules", qualification(q, `{"scenario":"AUDIENCE_ONLY","order":{"amount":100},"options":{"expand":["validation_rules"],`+
			`"filters":{"code":{"conditions":{"$is":["BIGCART"]}}}}}`, ids), 200},
		{"unknown_filter", qualification(q, `{"options":{"filters":{"colour":{"conditions":{"$is":["red"]}}}}}`, ids), 400},
		{"limit_100", qualification(q, `{"order":{"amount":20000},"options":{"limit":100}}`, ids), 200},
		{"limit_above_100", qualification(q, `{"options":{"limit":101}}`, ids), 400},
	})
	h.clock.Advance(1)
	rec := h.do(req{method: http.MethodPost, target: "/client/v1/qualifications", creds: credsNone, header: clientHeaders(shopOrigin),
		body: `{"customer":{"source_id":"alice"},"scenario":"ALL","order":{"amount":20000},"options":{"limit":2}}`})
	checkGolden(t, "qualifications/client", req{method: http.MethodPost, target: "/client/v1/qualifications",
		body: `{"customer":{"source_id":"alice"},"scenario":"ALL","order":{"amount":20000},"options":{"limit":2}}`}, rec, nil)
	if rec.Code != http.StatusOK {
		t.Errorf("client qualification = %d\n%s", rec.Code, rec.Body)
	}
}

// qualificationExtras adds to the validation fixture what only
// qualifications show: a campaign of codes (offered while it has a free
// one, its rule checked through that code) and alice's loyalty card, whose
// campaign pays with points (10 points for 1.00).
func qualificationExtras(h *harness, ids map[string]string) {
	post := func(target, body string) map[string]any {
		return h.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
	}
	ids["coupons"] = post("/v1/campaigns", `{"name":"Coupons","vouchers_count":2,"validation_rules":["`+ids["bigCart"]+`"],`+
		`"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":700}}}`)["id"].(string)
	h.runActions()
	coin := post("/v1/rewards", `{"name":"Pay with points","type":"COIN","parameters":{"coin":{"exchange_ratio":1,"points_ratio":10}}}`)["id"].(string)
	loyalty := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Loyalty"}, http.StatusOK)["id"].(string)
	post("/v1/rewards/"+coin+"/assignments", `{"campaign":"`+loyalty+`"}`)
	post("/v1/publications", `{"voucher":"AnsvocvP","customer":{"source_id":"alice"}}`)
}

func init() {
	// A's public voucher, tier and stack, a voucher published to A's
	// customer and a campaign of codes: B's qualifications show none of
	// them.
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		post := func(target, body string) map[string]any {
			return h.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
		}
		ids["qualCode"] = post("/v1/vouchers/QUAL-ISO-A", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`)["code"].(string)
		camp := post("/v1/campaigns", `{"name":"Qual iso","campaign_type":"PROMOTION"}`)["id"].(string)
		ids["qualTier"] = post("/v1/promotions/"+camp+"/tiers", `{"name":"Qual iso tier","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`)["id"].(string)
		ids["qualStack"] = post("/v1/promotions/"+camp+"/stacks", `{"name":"Qual iso stack","tiers":{"ids":["`+ids["qualTier"]+`"]}}`)["id"].(string)
		post("/v1/vouchers/QUAL-ISO-HELD", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`)
		ids["qualHeld"] = post("/v1/publications", `{"voucher":"QUAL-ISO-HELD","customer":{"source_id":"qual-iso-alice"}}`)["voucher"].(map[string]any)["code"].(string)
		// A campaign of codes: qualifications offer it as a campaign item.
		ids["qualCampaign"] = post("/v1/campaigns", `{"name":"Qual iso coupons","vouchers_count":2,`+
			`"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)["id"].(string)
		h.runActions()
	})
	all := `{"customer":{"source_id":"qual-iso-alice"},"order":{"amount":5000},"options":{"limit":50}}`
	stacks := `{"scenario":"PROMOTION_STACKS","order":{"amount":5000},"options":{"limit":50}}`
	isolationLists = append(isolationLists,
		isolationRow{"qualifications", http.MethodPost, "/v1/qualifications", all},
		isolationRow{"qualifications stacks", http.MethodPost, "/v1/qualifications", stacks},
		isolationRow{"client qualifications", http.MethodPost, "/client/v1/qualifications", all},
		isolationRow{"client qualifications stacks", http.MethodPost, "/client/v1/qualifications", stacks},
	)
}

// TestQualificationScopes: a token of scope qualifications (or
// client_qualifications on the client path) may qualify, one of scope
// validations may not.
func TestQualificationScopes(t *testing.T) {
	h := newHarness(t)
	appPair := map[string]string{"X-App-Id": appID, "X-App-Token": appToken}
	body := `{"order":{"amount":1000}}`
	for _, tc := range []struct {
		scope, target string
		want          int
	}{
		{"qualifications", "/v1/qualifications", http.StatusOK},
		{"validations", "/v1/qualifications", http.StatusForbidden},
		{"client_qualifications", "/client/v1/qualifications", http.StatusOK},
		{"client_validations", "/client/v1/qualifications", http.StatusForbidden},
		{"qualifications", "/client/v1/qualifications", http.StatusForbidden},
	} {
		token := h.tokenFor(appPair, tc.scope)
		rec := h.do(req{method: http.MethodPost, target: tc.target, body: body, creds: credsNone,
			header: map[string]string{"Authorization": "Bearer " + token}})
		if rec.Code != tc.want {
			t.Errorf("scope %s, %s = %d, want %d\n%s", tc.scope, tc.target, rec.Code, tc.want, rec.Body)
		}
	}
}
