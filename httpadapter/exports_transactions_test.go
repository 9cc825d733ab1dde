package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"
)

func init() {
	isolationRows = append(isolationRows,
		isolationRow{"voucher transactions export", http.MethodPost, "/v1/vouchers/{code}/transactions/export", `{}`},
		isolationRow{"campaign transactions export", http.MethodPost, "/v1/campaigns/{campaignId}/transactions/export", `{}`},
	)
}

// TestExportsVoucherTransactions exports the gift and loyalty card ledger
// (exported_object voucher_transactions): every column by default, oldest
// first, a filter on the campaign, one on the card and created_at; fields
// and orders outside the OpenAPI's lists are refused. The routes of one
// card's and one campaign's transactions make the same export with the
// card or campaign as a filter.
func TestExportsVoucherTransactions(t *testing.T) {
	h := newHarness(t)
	post := func(target, body string) map[string]any {
		h.clock.Advance(1e9)
		return h.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
	}
	loyalty := post("/v1/campaigns", `{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM",`+
		`"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}}`)["id"].(string)
	h.runActions()
	post("/v1/vouchers/LOYAL", `{"type":"LOYALTY_CARD","loyalty_card":{"points":100},"campaign_id":"`+loyalty+`"}`)
	post("/v1/publications", `{"customer":{"source_id":"holder"},"voucher":"LOYAL"}`)
	post("/v1/vouchers/LOYAL/balance", `{"amount":250,"reason":"bonus"}`)
	card := post("/v1/vouchers/GIFT", `{"type":"GIFT_VOUCHER","gift":{"amount":10000}}`)["id"].(string)
	post("/v1/vouchers/GIFT/balance", `{"amount":5000,"source_id":"walmart","reason":"return, \"late\""}`)
	post("/v1/redemptions", `{"customer":{"source_id":"x"},"redeemables":[{"object":"voucher","id":"GIFT","gift":{"credits":1234}}],"order":{"amount":5000}}`)
	post("/v1/vouchers/LOYAL/balance", `{"amount":-50}`)

	ids := h.createExports(t, []step{
		{"create_voucher_transactions", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher_transactions","parameters":{"order":"created_at"}}`}, 200},
		{"create_voucher_transactions_campaign", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher_transactions","parameters":{` +
			`"fields":["id","type","amount","balance","campaign_id"],"filters":{"campaign_id":{"conditions":{"$in":["` + loyalty + `"]}}}}}`}, 200},
		{"create_voucher_transactions_card", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher_transactions","parameters":{` +
			`"order":"-created_at","fields":["type","amount","balance","source_id","reason"],"filters":{"junction":"AND","voucher_id":{"conditions":{"$is":"` + card + `"}},` +
			`"created_at":{"conditions":{"$after":"2000-01-01T00:00:00.000Z"}}}}}`}, 200},
		{"create_voucher_transactions_bad_field", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher_transactions","parameters":{"fields":["id","code"]}}`}, 400},
		{"create_voucher_transactions_bad_order", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher_transactions","parameters":{"order":"id"}}`}, 400},
		{"create_voucher_transactions_bad_filter", req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher_transactions","parameters":{"filters":{"type":{"conditions":{"$is":"CREDITS_ADDITION"}}}}}`}, 400},
		// The routes of one card's or one campaign's transactions.
		{"voucher_transactions_route", req{method: http.MethodPost, target: "/v1/vouchers/GIFT/transactions/export", body: `{"parameters":{"order":"-created_at","fields":["id","type","amount","balance"]}}`}, 200},
		{"voucher_transactions_route_empty", req{method: http.MethodPost, target: "/v1/vouchers/LOYAL/transactions/export", body: `{}`}, 200},
		{"voucher_transactions_route_unknown", req{method: http.MethodPost, target: "/v1/vouchers/NOPE/transactions/export", body: `{}`}, 404},
		{"voucher_transactions_route_scope_filter", req{method: http.MethodPost, target: "/v1/vouchers/GIFT/transactions/export", body: `{"parameters":{"filters":{"voucher_id":{"conditions":{"$in":["v_1"]}}}}}`}, 400},
		{"campaign_transactions_route", req{method: http.MethodPost, target: "/v1/campaigns/Loyalty/transactions/export", body: `{"parameters":{"fields":["id","type","amount"],` +
			`"filters":{"junction":"AND","created_at":{"conditions":{"$after":"2000-01-01T00:00:00.000Z"}}}}}`}, 200},
		{"campaign_transactions_route_or", req{method: http.MethodPost, target: "/v1/campaigns/Loyalty/transactions/export", body: `{"parameters":{"filters":{"junction":"or","voucher_id":{"conditions":{"$is":"v_1"}}}}}`}, 400},
		{"campaign_transactions_route_unknown", req{method: http.MethodPost, target: "/v1/campaigns/Nope/transactions/export", body: `{}`}, 404},
	})
	h.runActions()
	for name, id := range ids {
		target := h.resultURL(id)
		rec := h.download(target)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: GET %s = %d\n%s", name, target, rec.Code, rec.Body)
		}
		checkCSV(t, strings.TrimPrefix(name, "create_"), rec.Body.String())
	}
	// The route exports hold their card's or campaign's transactions only.
	for name, want := range map[string]int{"voucher_transactions_route": 3, "voucher_transactions_route_empty": 3, "campaign_transactions_route": 3} {
		if got := strings.Count(h.download(h.resultURL(ids[name])).Body.String(), "\n"); got != want {
			t.Errorf("%s: %d lines, want %d", name, got, want)
		}
	}
}
