package httpadapter_test

import (
	"net/http"
	"testing"
)

// seedPublishable creates campaign Summer (DISCOUNT_COUPONS, no generated
// vouchers) with vouchers SUMMER-1..3 and the standalone voucher SOLO.
func (h *harness) seedPublishable() {
	h.t.Helper()
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Summer","type":"STATIC","vouchers_count":0,` + // STATIC: publishes only the codes it holds
		`"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500}}}`}, http.StatusOK)
	h.runActions()
	for _, code := range []string{"SUMMER-1", "SUMMER-2", "SUMMER-3"} {
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/Summer/vouchers/" + code, body: `{}`}, http.StatusOK)
	}
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/SOLO", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10}}`}, http.StatusOK)
}

// TestPublications publishes campaign and standalone vouchers through
// HTTP, each answer against its golden file: the next free voucher of a
// campaign, join_once, an idempotent source_id, a given voucher, several
// vouchers at once, the refusals (which change nothing), the list with its
// filters and the customers' wallets.
func TestPublications(t *testing.T) {
	h := newHarness(t)
	h.seedPublishable()
	h.run(t, "publications", []step{
		{"create_from_campaign", req{method: http.MethodPost, target: "/v1/publications",
			body: `{"campaign":{"name":"Summer"},"customer":{"source_id":"alice","name":"Alice","email":"alice@example.com"},"metadata":{"year":2026},"channel":"myown"}`}, 200},
		{"create_join_once", req{method: http.MethodPost, target: "/v1/publications?join_once=true",
			body: `{"campaign":{"name":"Summer"},"customer":{"source_id":"alice"}}`}, 200},
		{"create_source_id", req{method: http.MethodPost, target: "/v1/publications",
			body: `{"campaign":"Summer","customer":{"source_id":"bob"},"source_id":"crm-1"}`}, 200},
		{"create_source_id_again", req{method: http.MethodPost, target: "/v1/publications",
			body: `{"campaign":"Summer","customer":{"source_id":"bob"},"source_id":"crm-1"}`}, 200},
		{"create_source_id_other_customer", req{method: http.MethodPost, target: "/v1/publications",
			body: `{"campaign":"Summer","customer":{"source_id":"carol"},"source_id":"crm-1"}`}, 400},
		{"create_voucher", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO","customer":{"source_id":"carol"}}`}, 200},
		{"create_voucher_held_by_another", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO","customer":{"source_id":"dave"}}`}, 400},
		{"create_too_many", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Summer","count":2},"customer":{"source_id":"dave"}}`}, 400},
		{"create_last", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Summer","count":1},"customer":{"source_id":"dave"}}`}, 200},
		{"create_none_left", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Summer"},"customer":{"source_id":"erin"}}`}, 400},
		{"create_unknown_campaign", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Winter"},"customer":{"source_id":"erin"}}`}, 404},
		{"create_unknown_voucher", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"NOPE","customer":{"source_id":"erin"}}`}, 404},
		{"create_missing_vouchers", req{method: http.MethodPost, target: "/v1/publications", body: `{"customer":{"source_id":"erin"}}`}, 400},
		{"create_missing_customer", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO"}`}, 400},
		{"create_count_out_of_range", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Summer","count":51},"customer":{"source_id":"erin"}}`}, 400},
		{"create_count_with_source_id", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Summer","count":2},"customer":{"source_id":"erin"},"source_id":"crm-2"}`}, 400},
		{"create_unknown_customer_id", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO","customer":{"id":"cust_nope"}}`}, 404},
		{"create_bad_join_once", req{method: http.MethodPost, target: "/v1/publications?join_once=maybe", body: `{"voucher":"SOLO","customer":{"source_id":"carol"}}`}, 400},
		{"create_nul_source_id", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO","customer":{"source_id":"carol"},"source_id":"a\u0000b"}`}, 400},
		{"create_nul_channel", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO","customer":{"source_id":"carol"},"channel":"a\u0000b"}`}, 400},
		{"create_customer_not_object", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"SOLO","customer":"carol"}`}, 400},
		{"create_campaign_not_object", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":12,"customer":{"source_id":"carol"}}`}, 400},
		{"create_count_negative", req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":{"name":"Summer","count":-1},"customer":{"source_id":"carol"}}`}, 400},
		{"create_empty_voucher", req{method: http.MethodPost, target: "/v1/publications", body: `{"voucher":"","customer":{"source_id":"carol"}}`}, 400},
		{"list", req{method: http.MethodGet, target: "/v1/publications"}, 200},
		{"list_page", req{method: http.MethodGet, target: "/v1/publications?limit=1&page=2&order=created_at"}, 200},
		{"list_campaign", req{method: http.MethodGet, target: "/v1/publications?campaign=Summer&order=voucher_code"}, 200},
		{"list_customer_source_id", req{method: http.MethodGet, target: "/v1/publications?customer=carol"}, 200},
		{"list_voucher", req{method: http.MethodGet, target: "/v1/publications?voucher=SUMMER-2"}, 200},
		{"list_source_id", req{method: http.MethodGet, target: "/v1/publications?source_id=crm-1"}, 200},
		{"list_filter_channel", req{method: http.MethodGet, target: "/v1/publications?filters[channel][conditions][$is]=myown"}, 200},
		{"list_unknown_campaign", req{method: http.MethodGet, target: "/v1/publications?campaign=Winter"}, 200},
		{"list_bad_order", req{method: http.MethodGet, target: "/v1/publications?order=name"}, 400},
		{"list_bad_voucher_type", req{method: http.MethodGet, target: "/v1/publications?voucher_type=gift"}, 400},
		{"list_page_over_limit", req{method: http.MethodGet, target: "/v1/publications?page=1001"}, 400},
		{"voucher_after", req{method: http.MethodGet, target: "/v1/vouchers/SOLO"}, 200},
		{"wallet", req{method: http.MethodGet, target: "/v1/customers/alice/redeemables"}, 200},
		{"wallet_page", req{method: http.MethodGet, target: "/v1/customers/carol/redeemables?limit=1"}, 200},
		{"wallet_filter", req{method: http.MethodGet, target: "/v1/customers/dave/redeemables?filters[voucher_type][conditions][$is]=DISCOUNT_VOUCHER"}, 200},
		{"wallet_unknown_customer", req{method: http.MethodGet, target: "/v1/customers/erin/redeemables"}, 404},
		{"create_by_query", req{method: http.MethodGet, target: "/v1/publications/create?voucher=SOLO&customer[source_id]=carol&customer[metadata][tier]=gold&metadata[via]=link&channel=email"}, 200},
		{"create_by_query_campaign", req{method: http.MethodGet, target: "/v1/publications/create?campaign[name]=Summer&campaign[count]=1&customer[source_id]=erin"}, 400},
		{"create_by_query_join_once", req{method: http.MethodGet, target: "/v1/publications/create?join_once=true&campaign=Summer&customer[source_id]=alice"}, 200},
		{"create_by_query_missing_customer", req{method: http.MethodGet, target: "/v1/publications/create?voucher=SOLO"}, 400},
		{"create_by_query_bad_count", req{method: http.MethodGet, target: "/v1/publications/create?campaign[name]=Summer&campaign[count]=x&customer[source_id]=erin"}, 400},
		{"wallet_bad_order", req{method: http.MethodGet, target: "/v1/customers/alice/redeemables?order=created_at"}, 400},
	})
}

func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Iso publications","vouchers_count":0,` +
			`"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1}}}`}, http.StatusOK)
		h.runActions()
		for _, code := range []string{"ISO-PUB-1", "ISO-PUB-2"} {
			h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/Iso%20publications/vouchers/" + code, body: `{}`}, http.StatusOK)
		}
		p := h.mustDo(req{method: http.MethodPost, target: "/v1/publications", body: `{"campaign":"Iso publications","customer":{"source_id":"iso-holder"},"source_id":"iso-pub"}`}, http.StatusOK)
		ids["pubCustomerId"] = p["customer_id"].(string)
		ids["pubCustomerSourceId"] = "iso-holder"
		ids["pubCode"] = "ISO-PUB-2"
		ids["pubCampaign"] = "Iso publications"
	})
	isolationRows = append(isolationRows,
		isolationRow{"wallet of A's customer", http.MethodGet, "/v1/customers/{customerId}/redeemables", ""},
		isolationRow{"wallet of A's holder", http.MethodGet, "/v1/customers/{pubCustomerId}/redeemables", ""},
		isolationRow{"wallet of A's customer by source id", http.MethodGet, "/v1/customers/{pubCustomerSourceId}/redeemables", ""},
		isolationRow{"publish A's voucher", http.MethodPost, "/v1/publications", `{"voucher":"{pubCode}","customer":{"source_id":"iso-b"}}`},
		isolationRow{"publish from A's campaign", http.MethodPost, "/v1/publications", `{"campaign":{"name":"{pubCampaign}"},"customer":{"source_id":"iso-b"}}`},
		isolationRow{"publish A's voucher by query", http.MethodGet, "/v1/publications/create?voucher={pubCode}&customer[source_id]=iso-b", ""},
		isolationRow{"publish to A's customer", http.MethodPost, "/v1/publications", `{"voucher":"{pubCode}","customer":{"id":"{pubCustomerId}"}}`},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list publications", http.MethodGet, "/v1/publications", ""},
		isolationRow{"list publications of A's source id", http.MethodGet, "/v1/publications?source_id=iso-pub", ""},
	)
}
