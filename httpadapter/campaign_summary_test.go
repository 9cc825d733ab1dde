package httpadapter_test

import (
	"net/http"
	"testing"
)

// The campaign summary in the isolation test: project B cannot read the
// summary of A's campaign.
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"campaign summary", http.MethodGet, "/v1/campaigns/{campaignId}/summary", ""})
}

// TestCampaignSummary counts a campaign's redemptions (one succeeded then
// rolled back, one failed past the voucher's quantity before the rollback, one
// succeeded after it), its
// rollback and its publication, and a gift campaign's credits; a window
// after the rows counts none; bad dates are 400 and a missing campaign 404.
func TestCampaignSummary(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Summer","type":"STATIC","voucher":{"discount":{"type":"AMOUNT","amount_off":300}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/Summer/vouchers/SUM-1", body: `{"redemption":{"quantity":1}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/Summer/vouchers/SUM-2", body: `{}`}, http.StatusOK)
	redeem := `{"redeemables":[{"object":"voucher","id":"SUM-1"}],"order":{"amount":2000}}`
	first := h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: redeem}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: redeem}, http.StatusBadRequest)
	id := first["redemptions"].([]any)[0].(map[string]any)["id"].(string)
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions/" + id + "/rollback", body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: redeem}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/publications", body: `{"customer":{"source_id":"ann"},"voucher":"SUM-2"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gifts","type":"STATIC","campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":5000}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/Gifts/vouchers/GIFT-1", body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/redemptions", body: `{"redeemables":[{"object":"voucher","id":"GIFT-1","gift":{"credits":1200}}],"order":{"amount":4000}}`}, http.StatusOK)
	h.run(t, "campaign_summary", []step{
		{"discount", req{method: http.MethodGet, target: "/v1/campaigns/Summer/summary"}, 200},
		{"gift", req{method: http.MethodGet, target: "/v1/campaigns/Gifts/summary?start_date=2026-01-01&end_date=2026-01-01"}, 200},
		{"window_after", req{method: http.MethodGet, target: "/v1/campaigns/Summer/summary?start_date=2026-01-02"}, 200},
		{"window_before", req{method: http.MethodGet, target: "/v1/campaigns/Summer/summary?end_date=2025-12-31T23:59:59Z"}, 200},
		{"bad_date", req{method: http.MethodGet, target: "/v1/campaigns/Summer/summary?start_date=yesterday"}, 400},
		{"end_before_start", req{method: http.MethodGet, target: "/v1/campaigns/Summer/summary?start_date=2026-01-03&end_date=2026-01-02"}, 400},
		{"missing", req{method: http.MethodGet, target: "/v1/campaigns/camp_missing/summary"}, 404},
	})
}
