package httpadapter_test

import (
	"context"
	"net/http"

	"github.com/promoengine/promo/async"
)

// Campaigns, categories, vouchers and async actions in the isolation test:
// project B reaches none of project A's, by id, name or code.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		cat := h.mustDo(req{method: http.MethodPost, target: "/v1/categories", body: `{"name":"Iso category","hierarchy":1}`}, http.StatusOK)
		ids["categoryId"] = cat["id"].(string)
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Iso campaign","vouchers_count":2,` +
			`"voucher":{"discount":{"type":"PERCENT","percent_off":10}},"category_id":"` + ids["categoryId"] + `"}`}, http.StatusOK)
		ids["campaignId"] = c["id"].(string)
		if _, err := h.engine.AsyncActions().RunPending(context.Background(), async.Config{}); err != nil {
			h.t.Fatal(err)
		}
		v := h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ISO-CODE-1", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
		ids["code"] = v["code"].(string)
		ids["voucherId"] = v["id"].(string)
		acts := h.mustDo(req{method: http.MethodGet, target: "/v1/async-actions"}, http.StatusOK)
		ids["asyncActionId"] = acts["data"].([]any)[0].(map[string]any)["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get campaign", http.MethodGet, "/v1/campaigns/{campaignId}", ""},
		isolationRow{"update campaign", http.MethodPut, "/v1/campaigns/{campaignId}", `{"description":"Taken"}`},
		isolationRow{"delete campaign", http.MethodDelete, "/v1/campaigns/{campaignId}", ""},
		isolationRow{"enable campaign", http.MethodPost, "/v1/campaigns/{campaignId}/enable", ""},
		isolationRow{"disable campaign", http.MethodPost, "/v1/campaigns/{campaignId}/disable", ""},
		isolationRow{"add campaign voucher", http.MethodPost, "/v1/campaigns/{campaignId}/vouchers", `{}`},
		isolationRow{"add campaign vouchers", http.MethodPost, "/v1/campaigns/{campaignId}/vouchers", `{"vouchers_count":5}`},
		isolationRow{"add campaign voucher with code", http.MethodPost, "/v1/campaigns/{campaignId}/vouchers/{code}", `{}`},
		isolationRow{"import campaign vouchers", http.MethodPost, "/v1/campaigns/{campaignId}/import", `[{"code":"ISO-IMPORTED"}]`},
		isolationRow{"get category", http.MethodGet, "/v1/categories/{categoryId}", ""},
		isolationRow{"get voucher by code", http.MethodGet, "/v1/vouchers/{code}", ""},
		isolationRow{"get voucher by id", http.MethodGet, "/v1/vouchers/{voucherId}", ""},
		isolationRow{"update voucher", http.MethodPut, "/v1/vouchers/{code}", `{"additional_info":"Taken"}`},
		isolationRow{"delete voucher", http.MethodDelete, "/v1/vouchers/{code}", ""},
		isolationRow{"enable voucher", http.MethodPost, "/v1/vouchers/{code}/enable", ""},
		isolationRow{"disable voucher", http.MethodPost, "/v1/vouchers/{code}/disable", ""},
		// A code is unique per project: B may create its own voucher with A's
		// code, but never in A's campaign or category.
		isolationRow{"create voucher with code in A's campaign", http.MethodPost, "/v1/vouchers/{code}",
			`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"campaign_id":"{campaignId}"}`},
		isolationRow{"create voucher in A's category", http.MethodPost, "/v1/vouchers",
			`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1},"category_id":"{categoryId}"}`},
		isolationRow{"get async action", http.MethodGet, "/v1/async-actions/{asyncActionId}", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list campaigns", http.MethodGet, "/v1/campaigns", ""},
		isolationRow{"list categories", http.MethodGet, "/v1/categories", ""},
		isolationRow{"list vouchers", http.MethodGet, "/v1/vouchers", ""},
		isolationRow{"list vouchers of A's campaign", http.MethodGet, "/v1/vouchers?campaign_id={campaignId}", ""},
		isolationRow{"list async actions", http.MethodGet, "/v1/async-actions", ""},
	)
}
