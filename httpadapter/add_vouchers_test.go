package httpadapter_test

import (
	"net/http"
	"testing"
)

// TestAddVouchersCount checks the ways the official SDKs send the number of
// vouchers to add to a campaign: in the body object, in the query (Python
// SDK) and as a bare JSON number body (JS SDK). Refused requests add none.
func TestAddVouchersCount(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Bulk","type":"AUTO_UPDATE",` +
		`"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"pattern":"GEN-####"}}}`}, http.StatusOK)
	h.runActions()
	// Each generation holds the campaign until it has run.
	for _, s := range []step{
		{"query", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=3"}, 202},
		{"query_with_object_body", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=2", body: `{"additional_info":"bulk"}`}, 202},
		{"bare_number_body", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers", body: `2`}, 202},
		{"same_count_twice", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=2", body: `{"vouchers_count":2}`}, 202},
		{"query_one", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=1"}, 200},
	} {
		h.runGen(t, "campaigns/add_vouchers_count", []step{s})
		h.runActions()
	}
	h.runGen(t, "campaigns/add_vouchers_count", []step{
		{"different_counts", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=2", body: `3`}, 400},
		{"query_not_integer", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=two"}, 400},
		{"bare_fraction", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers", body: `1.5`}, 400},
		{"bare_zero", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers", body: `0`}, 400},
		{"query_zero", req{method: http.MethodPost, target: "/v1/campaigns/Bulk/vouchers?vouchers_count=0"}, 400},
	})
	h.runActions()
	c := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Bulk"}, http.StatusOK)
	// None at creation, then 3 + 2 + 2 + 2 + 1; the refused requests add none.
	if got := c["vouchers_count"]; got != float64(10) {
		t.Errorf("vouchers_count = %v, want 10", got)
	}
}
