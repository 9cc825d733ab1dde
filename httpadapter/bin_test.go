package httpadapter_test

import (
	"net/http"
	"testing"
)

// The bin in the isolation test: project B neither lists nor deletes A's
// bin entries.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		v := h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ISO-BINNED", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
		h.mustDo(req{method: http.MethodDelete, target: "/v1/vouchers/ISO-BINNED"}, http.StatusNoContent)
		ids["binEntryId"] = "bin_" + v["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"delete bin entry", http.MethodDelete, "/v1/trash-bin/{binEntryId}", ""})
	isolationLists = append(isolationLists,
		isolationRow{"list bin", http.MethodGet, "/v1/trash-bin", ""})
}

// TestBin lists what was deleted without force (a campaign, whose vouchers
// go with it, a voucher of a live campaign, a standalone voucher, a
// product, whose SKU goes with it, and a SKU of a live product), pages and
// filters the list, refuses bad parameters and deletes entries for good.
func TestBin(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Old","vouchers_count":2,"voucher":{"discount":{"type":"PERCENT","percent_off":10}}}`}, http.StatusOK)
	h.runActions()
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Live","type":"STATIC","voucher":{"discount":{"type":"PERCENT","percent_off":10}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/Live/vouchers/LIVE-1", body: `{}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/SOLO-1", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
	hat := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"name":"Hat"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/products/" + hat["id"].(string) + "/skus", body: `{"sku":"Hat M"}`}, http.StatusOK)
	shoe := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"name":"Shoe"}`}, http.StatusOK)
	sku := h.mustDo(req{method: http.MethodPost, target: "/v1/products/" + shoe["id"].(string) + "/skus", body: `{"sku":"Shoe 42"}`}, http.StatusOK)
	h.run(t, "bin", []step{
		{"delete_campaign", req{method: http.MethodDelete, target: "/v1/campaigns/Old"}, 202},
		{"delete_voucher", req{method: http.MethodDelete, target: "/v1/vouchers/LIVE-1"}, 204},
		{"delete_standalone", req{method: http.MethodDelete, target: "/v1/vouchers/SOLO-1"}, 204},
		{"delete_product", req{method: http.MethodDelete, target: "/v1/products/" + hat["id"].(string)}, 204},
		{"delete_sku", req{method: http.MethodDelete, target: "/v1/products/" + shoe["id"].(string) + "/skus/" + sku["id"].(string)}, 204},
	})
	h.runActions()
	h.run(t, "bin", []step{
		{"list", req{method: http.MethodGet, target: "/v1/trash-bin"}, 200},
		{"list_page_1", req{method: http.MethodGet, target: "/v1/trash-bin?limit=2&order=-id"}, 200},
		{"list_page_2", req{method: http.MethodGet, target: "/v1/trash-bin?limit=2&order=-id&starting_after_id=bin_v_00000000000000000007"}, 200},
		{"list_vouchers", req{method: http.MethodGet, target: "/v1/trash-bin?filters[resource_type][conditions][$is]=voucher"}, 200},
		{"list_bad_limit", req{method: http.MethodGet, target: "/v1/trash-bin?limit=101"}, 400},
		{"list_bad_order", req{method: http.MethodGet, target: "/v1/trash-bin?order=created_at"}, 400},
		{"list_bad_filter", req{method: http.MethodGet, target: "/v1/trash-bin?filters[code][conditions][$is]=x"}, 400},
		{"delete_campaign_entry", req{method: http.MethodDelete, target: "/v1/trash-bin/bin_camp_00000000000000000002"}, 204},
		{"delete_campaign_entry_again", req{method: http.MethodDelete, target: "/v1/trash-bin/bin_camp_00000000000000000002"}, 404},
		{"delete_missing", req{method: http.MethodDelete, target: "/v1/trash-bin/camp_00000000000000000002"}, 404},
		{"delete_voucher_entry", req{method: http.MethodDelete, target: "/v1/trash-bin/bin_v_00000000000000000007"}, 204},
	})
	h.runActions()
	h.run(t, "bin", []step{
		{"list_after_deletes", req{method: http.MethodGet, target: "/v1/trash-bin"}, 200},
		{"old_vouchers_gone", req{method: http.MethodGet, target: "/v1/vouchers?campaign_id=camp_00000000000000000002"}, 200},
		{"async_list", req{method: http.MethodGet, target: "/v1/async-actions?limit=1"}, 200},
	})
}
