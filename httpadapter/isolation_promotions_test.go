package httpadapter_test

import "net/http"

// Isolation rows of promotion tiers and stacks (isolation_test.go): project
// B reaches neither A's PROMOTION campaign nor its tiers and stacks. The
// campaign-scoped routes share the {campaignId} placeholder with the
// campaign routes, so this seed (run after isolation_campaigns_test.go's)
// points campaignId at A's PROMOTION campaign: the campaign rows then walk
// that campaign, as much A's as the voucher campaign.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Iso promotion","campaign_type":"PROMOTION"}`}, http.StatusOK)
		ids["campaignId"] = c["id"].(string)
		t := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + ids["campaignId"] + "/tiers",
			body: `{"name":"Iso tier","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`}, http.StatusOK)
		ids["tierId"] = t["id"].(string)
		s := h.mustDo(req{method: http.MethodPost, target: "/v1/promotions/" + ids["campaignId"] + "/stacks",
			body: `{"name":"Iso stack","tiers":{"ids":["` + ids["tierId"] + `"]}}`}, http.StatusOK)
		ids["stackId"] = s["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"list campaign tiers", http.MethodGet, "/v1/promotions/{campaignId}/tiers", ""},
		isolationRow{"create tier", http.MethodPost, "/v1/promotions/{campaignId}/tiers", `{"name":"Taken"}`},
		isolationRow{"get tier", http.MethodGet, "/v1/promotions/tiers/{tierId}", ""},
		isolationRow{"update tier", http.MethodPut, "/v1/promotions/tiers/{tierId}", `{"name":"Taken"}`},
		isolationRow{"delete tier", http.MethodDelete, "/v1/promotions/tiers/{tierId}", ""},
		isolationRow{"enable tier", http.MethodPost, "/v1/promotions/tiers/{tierId}/enable", ""},
		isolationRow{"disable tier", http.MethodPost, "/v1/promotions/tiers/{tierId}/disable", ""},
		isolationRow{"list campaign stacks", http.MethodGet, "/v1/promotions/{campaignId}/stacks", ""},
		isolationRow{"create stack", http.MethodPost, "/v1/promotions/{campaignId}/stacks", `{"name":"Taken","tiers":{"ids":["{tierId}"]}}`},
		isolationRow{"get stack", http.MethodGet, "/v1/promotions/{campaignId}/stacks/{stackId}", ""},
		isolationRow{"update stack", http.MethodPut, "/v1/promotions/{campaignId}/stacks/{stackId}", `{"name":"Taken"}`},
		isolationRow{"delete stack", http.MethodDelete, "/v1/promotions/{campaignId}/stacks/{stackId}", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list tiers", http.MethodGet, "/v1/promotions/tiers", ""},
		isolationRow{"list stacks", http.MethodGet, "/v1/promotions/stacks", ""},
	)
}
