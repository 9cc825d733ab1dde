package httpadapter_test

import (
	"net/http"
	"testing"
)

// A customer's activity log, as the engine writes it from its changes:
// created, updated, an order, a redemption (with its order's payment), a
// rollback (cancelling the order), a custom event, the publication of a
// gift card, its top-up and its deletion,
// listed newest first or oldest first, paged by starting_after_id, and
// filtered; a permanent deletion deletes the log.
func TestCustomerActivity(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	do := func(method, target, body string) map[string]any {
		h.clock.Advance(1e9)
		return h.mustDo(req{method: method, target: target, body: body}, http.StatusOK)
	}
	do(http.MethodPost, "/v1/customers", `{"source_id":"alice","name":"Alice"}`)
	do(http.MethodPut, "/v1/customers/alice", `{"email":"alice@example.com"}`)
	do(http.MethodPost, "/v1/customers", `{"source_id":"bob"}`)
	camp := do(http.MethodPost, "/v1/campaigns", `{"name":"Spring","type":"STATIC","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)["id"].(string)
	h.runActions()
	do(http.MethodPost, "/v1/campaigns/"+camp+"/vouchers/SPRING-1", `{}`)
	red := do(http.MethodPost, "/v1/redemptions", `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"SPRING-1"}],"order":{"amount":1000}}`)
	do(http.MethodPost, "/v1/redemptions/"+red["redemptions"].([]any)[0].(map[string]any)["id"].(string)+"/rollback", "")
	do(http.MethodPost, mp+"/custom-event-schemas", `{"name":"sign-up","schema":{"properties":{}}}`)
	do(http.MethodPost, "/v1/events", `{"event":"sign-up","customer":{"source_id":"alice"}}`)
	do(http.MethodPost, "/v1/vouchers/GIFT-1", `{"type":"GIFT_VOUCHER","gift":{"amount":1000}}`)
	do(http.MethodPost, "/v1/publications", `{"voucher":"GIFT-1","customer":{"source_id":"alice"}}`)
	do(http.MethodPost, "/v1/vouchers/GIFT-1/balance", `{"amount":500}`)
	h.clock.Advance(1e9)
	h.mustDo(req{method: http.MethodDelete, target: "/v1/vouchers/GIFT-1"}, http.StatusNoContent)

	const log = "/v1/customers/alice/activity"
	h.run(t, "customer_activity", []step{
		{"list", req{method: http.MethodGet, target: log}, 200},
		{"oldest_first_page", req{method: http.MethodGet, target: log + "?order=created_at&limit=3"}, 200},
	})
	next := h.mustDo(req{method: http.MethodGet, target: log + "?order=created_at&limit=3"}, http.StatusOK)["more_starting_after"].(string)
	h.run(t, "customer_activity", []step{
		{"oldest_first_next_page", req{method: http.MethodGet, target: log + "?order=created_at&limit=3&starting_after_id=" + next}, 200},
		{"category_effect", req{method: http.MethodGet, target: log + "?category=EFFECT"}, 200},
		{"type", req{method: http.MethodGet, target: log + "?type=customer.order.created"}, 200},
		{"category_and_type", req{method: http.MethodGet, target: log + "?category=ACTION&type=customer.order.paid"}, 200},
		{"campaign", req{method: http.MethodGet, target: log + "?campaign_id=" + camp + "&campaign_type=DISCOUNT_COUPONS"}, 200},
		{"dates", req{method: http.MethodGet, target: log + "?start_date=2026-01-01T00:00:02Z&end_date=2026-01-01T00:00:02Z"}, 200},
		{"by_id_other_customer", req{method: http.MethodGet, target: "/v1/customers/bob/activity"}, 200},
		{"unknown_cursor", req{method: http.MethodGet, target: log + "?starting_after_id=evt_unknown"}, 200},
		{"bad_limit", req{method: http.MethodGet, target: log + "?limit=101"}, 400},
		{"bad_order", req{method: http.MethodGet, target: log + "?order=type"}, 400},
		{"bad_category", req{method: http.MethodGet, target: log + "?category=BOTH"}, 400},
		{"bad_campaign_type", req{method: http.MethodGet, target: log + "?campaign_type=COUPONS"}, 400},
		{"bad_date", req{method: http.MethodGet, target: log + "?start_date=yesterday"}, 400},
		{"unknown_customer", req{method: http.MethodGet, target: "/v1/customers/nobody/activity"}, 404},
		{"permanent_deletion", req{method: http.MethodPost, target: "/v1/customers/alice/permanent-deletion"}, 200},
		{"deleted_customer", req{method: http.MethodGet, target: log}, 404},
	})
}

// Isolation row of the activity log (isolation_test.go): project B reads
// the log of A's customer, by id and by source id.
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"customer activity", http.MethodGet, "/v1/customers/{customerId}/activity", ""},
		isolationRow{"customer activity by source id", http.MethodGet, "/v1/customers/{customerSourceId}/activity", ""},
	)
}
