package httpadapter_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func init() {
	isolationRows = append(isolationRows,
		isolationRow{"voucher balance", http.MethodPost, "/v1/vouchers/{code}/balance", `{"amount":100}`},
		isolationRow{"voucher transactions", http.MethodGet, "/v1/vouchers/{code}/transactions", ""},
		isolationRow{"campaign transactions", http.MethodGet, "/v1/campaigns/{campaignId}/transactions", ""},
	)
}

// txRow is what the ledger tests compare of a transaction.
type txRow struct {
	Type                   string
	Amount, Total, Balance int64
}

func txRows(t *testing.T, list map[string]any) []txRow {
	t.Helper()
	var out []txRow
	for _, x := range list["data"].([]any) {
		tx := x.(map[string]any)
		b := tx["details"].(map[string]any)["balance"].(map[string]any)
		moved, ok := b["amount"].(float64)
		if !ok {
			moved = b["points"].(float64)
		}
		out = append(out, txRow{tx["type"].(string), int64(moved), int64(b["total"].(float64)), int64(b["balance"].(float64))})
	}
	return out
}

// TestWorkedExampleW8 builds the gift ledger of W8 through HTTP (two
// manual additions, redemptions, a removal, a rollback) and checks each
// transaction's total and balance, the list's order and paging, and the
// balance endpoint's example (10100 + 10000 → total and balance 20100).
func TestWorkedExampleW8(t *testing.T) {
	h := newHarness(t)
	post := func(target, body string) map[string]any {
		h.clock.Advance(1e9)
		return h.mustDo(req{method: http.MethodPost, target: target, body: body}, http.StatusOK)
	}
	post("/v1/vouchers/W8CARD", `{"type":"GIFT_VOUCHER","gift":{"amount":125000}}`)
	redeem := func(credits int64) string {
		r := post("/v1/redemptions", fmt.Sprintf(`{"customer":{"source_id":"w8"},"redeemables":[{"object":"voucher","id":"W8CARD","gift":{"credits":%d}}],"order":{"amount":50000}}`, credits))
		return r["redemptions"].([]any)[0].(map[string]any)["id"].(string)
	}
	steps := []struct {
		name string
		do   func() map[string]any
	}{
		{"addition 5000", func() map[string]any {
			return post("/v1/vouchers/W8CARD/balance", `{"amount":5000,"source_id":"walmart","reason":"return"}`)
		}},
		{"redemption 7000", func() map[string]any { redeem(7000); return nil }},
		{"removal 2000", func() map[string]any {
			return post("/v1/vouchers/W8CARD/balance", `{"amount":-2000,"source_id":"HRwc0oHz_removal","reason":"removal"}`)
		}},
		{"redemption 44 and its refund", func() map[string]any {
			id := redeem(44)
			post("/v1/redemptions/"+id+"/rollback", `{}`)
			return nil
		}},
		{"addition 2000", func() map[string]any {
			return post("/v1/vouchers/W8CARD/balance", `{"amount":2000,"reason":"cash reward"}`)
		}},
		{"addition 20", func() map[string]any {
			return post("/v1/vouchers/W8CARD/balance", `{"amount":20,"source_id":"20230317_add_1"}`)
		}},
		{"removal 2000 again", func() map[string]any {
			return post("/v1/vouchers/W8CARD/balance", `{"amount":-2000,"source_id":"20230317_subtract_1","reason":"Subtracting credits from card"}`)
		}},
	}
	for _, s := range steps {
		s.do()
	}
	h.clock.Advance(1e9)
	list := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/W8CARD/transactions?limit=100&order=id"}, http.StatusOK)
	want := []txRow{
		{"CREDITS_ADDITION", 5000, 130000, 130000},
		{"CREDITS_REDEMPTION", -7000, 130000, 123000},
		{"CREDITS_REMOVAL", -2000, 128000, 121000},
		{"CREDITS_REDEMPTION", -44, 128000, 120956},
		{"CREDITS_REFUND", 44, 128000, 121000},
		{"CREDITS_ADDITION", 2000, 130000, 123000},
		{"CREDITS_ADDITION", 20, 130020, 123020},
		{"CREDITS_REMOVAL", -2000, 128020, 121020},
	}
	if d := cmp.Diff(want, txRows(t, list)); d != "" {
		t.Errorf("W8 ledger, oldest first (-want +got):\n%s", d)
	}
	card := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/W8CARD"}, http.StatusOK)
	gift := card["gift"].(map[string]any)
	if d := cmp.Diff([]float64{125000 + 5000 + 2000 + 20, 2000 + 2000, 121020}, []float64{gift["amount"].(float64), gift["subtracted_amount"].(float64), gift["balance"].(float64)}); d != "" {
		t.Errorf("W8 card gift{amount, subtracted_amount, balance} (-want +got):\n%s", d)
	}
	if got := card["redemption"].(map[string]any)["redeemed_amount"].(float64); got != 7000 {
		t.Errorf("W8 card redeemed_amount = %v, want 7000 (the refunded 44 given back)", got)
	}

	// Newest first by default, three a page, through the cursor.
	h.run(t, "transactions", []step{
		{"w8_page1", req{method: http.MethodGet, target: "/v1/vouchers/W8CARD/transactions?limit=3"}, 200},
	})
	var seen []txRow
	after := ""
	for page := 0; page < 10; page++ {
		target := "/v1/vouchers/W8CARD/transactions?limit=3"
		if after != "" {
			target += "&starting_after_id=" + after
		}
		got := h.mustDo(req{method: http.MethodGet, target: target}, http.StatusOK)
		seen = append(seen, txRows(t, got)...)
		if got["has_more"] != true {
			if got["more_starting_after"] != nil {
				t.Errorf("the last page names a cursor: %v", got["more_starting_after"])
			}
			break
		}
		after = got["more_starting_after"].(string)
	}
	for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
		want[i], want[j] = want[j], want[i]
	}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("W8 ledger paged newest first (-want +got):\n%s", d)
	}

	// The balance endpoint's example: a card holding 10100 receives 10000.
	post("/v1/vouchers/W8EX", `{"type":"GIFT_VOUCHER","gift":{"amount":10100}}`)
	h.run(t, "transactions", []step{
		{"balance_example", req{method: http.MethodPost, target: "/v1/vouchers/W8EX/balance", body: `{"amount":10000}`}, 200},
		{"balance_removal_too_large", req{method: http.MethodPost, target: "/v1/vouchers/W8EX/balance", body: `{"amount":-20101}`}, 400},
		{"balance_zero", req{method: http.MethodPost, target: "/v1/vouchers/W8EX/balance", body: `{"amount":0}`}, 400},
		{"balance_missing_amount", req{method: http.MethodPost, target: "/v1/vouchers/W8EX/balance", body: `{"reason":"x"}`}, 400},
		{"balance_not_integer", req{method: http.MethodPost, target: "/v1/vouchers/W8EX/balance", body: `{"amount":"lots"}`}, 400},
		{"balance_unknown_code", req{method: http.MethodPost, target: "/v1/vouchers/NOSUCH/balance", body: `{"amount":100}`}, 404},
		{"transactions_example", req{method: http.MethodGet, target: "/v1/vouchers/W8EX/transactions"}, 200},
		{"transactions_unknown_code", req{method: http.MethodGet, target: "/v1/vouchers/NOSUCH/transactions"}, 404},
		{"transactions_bad_limit", req{method: http.MethodGet, target: "/v1/vouchers/W8EX/transactions?limit=101"}, 400},
		{"transactions_bad_order", req{method: http.MethodGet, target: "/v1/vouchers/W8EX/transactions?order=created_at"}, 400},
		{"transactions_bad_cursor", req{method: http.MethodGet, target: "/v1/vouchers/W8EX/transactions?starting_after_id=vtx_nope"}, 400},
	})
	ex := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/W8EX"}, http.StatusOK)["gift"].(map[string]any)
	if ex["balance"].(float64) != 20100 || ex["amount"].(float64) != 20100 {
		t.Errorf("after the refused changes the card holds %v, want amount and balance 20100", ex)
	}
}

// TestBalanceKinds: a discount voucher has no balance; a loyalty card
// needs a holder, then moves points (POINTS_ADDITION, POINTS_REMOVAL).
func TestBalanceKinds(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/DISC", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`}, http.StatusOK)
	loyalty := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM",` +
		`"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}}`}, http.StatusOK)["id"].(string)
	h.runActions()
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/LOYAL", body: `{"type":"LOYALTY_CARD","loyalty_card":{"points":100},"campaign_id":"` + loyalty + `"}`}, http.StatusOK)
	h.run(t, "transactions", []step{
		{"balance_discount_voucher", req{method: http.MethodPost, target: "/v1/vouchers/DISC/balance", body: `{"amount":100}`}, 400},
		{"balance_loyalty_without_holder", req{method: http.MethodPost, target: "/v1/vouchers/LOYAL/balance", body: `{"amount":100}`}, 400},
	})
	h.mustDo(req{method: http.MethodPost, target: "/v1/publications", body: `{"customer":{"source_id":"holder"},"voucher":"LOYAL"}`}, http.StatusOK)
	h.run(t, "transactions", []step{
		{"balance_loyalty_add", req{method: http.MethodPost, target: "/v1/vouchers/LOYAL/balance", body: `{"amount":250,"reason":"bonus"}`}, 200},
		{"balance_loyalty_remove", req{method: http.MethodPost, target: "/v1/vouchers/LOYAL/balance", body: `{"amount":-50}`}, 200},
		{"transactions_loyalty", req{method: http.MethodGet, target: "/v1/vouchers/LOYAL/transactions"}, 200},
		{"campaign_transactions", req{method: http.MethodGet, target: "/v1/campaigns/" + loyalty + "/transactions?order=id&limit=1"}, 200},
		{"campaign_transactions_by_name", req{method: http.MethodGet, target: "/v1/campaigns/Loyalty/transactions"}, 200},
		{"campaign_transactions_unknown", req{method: http.MethodGet, target: "/v1/campaigns/camp_nope/transactions"}, 404},
	})
	// A second card of the campaign: the filters tell the cards apart.
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/LOYAL2", body: `{"type":"LOYALTY_CARD","loyalty_card":{"points":10},"campaign_id":"` + loyalty + `"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/publications", body: `{"customer":{"source_id":"holder2"},"voucher":"LOYAL2"}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/LOYAL2/balance", body: `{"amount":5}`}, http.StatusOK)
	card := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/LOYAL"}, http.StatusOK)
	first := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/LOYAL/transactions?order=id&limit=1"}, http.StatusOK)["data"].([]any)[0].(map[string]any)["id"].(string)
	campTx := "/v1/campaigns/" + loyalty + "/transactions?"
	h.run(t, "transactions", []step{
		{"campaign_transactions_filter_voucher", req{method: http.MethodGet, target: campTx + "filters[voucher_id][conditions][$is]=" + card["id"].(string)}, 200},
		{"campaign_transactions_filter_not_voucher", req{method: http.MethodGet, target: campTx + "filters[voucher_id][conditions][$is_not]=" + card["id"].(string)}, 200},
		{"campaign_transactions_filter_ids_or", req{method: http.MethodGet, target: campTx + "filters[junction]=or&filters[id][conditions][$in][0]=" + first + "&filters[voucher_id][conditions][$starts_with]=nomatch"}, 200},
		{"campaign_transactions_filter_unknown_field", req{method: http.MethodGet, target: campTx + "filters[amount][conditions][$is]=5"}, 400},
		{"transactions_filter_refused", req{method: http.MethodGet, target: "/v1/vouchers/LOYAL/transactions?filters[id][conditions][$is]=" + first}, 400},
	})
	l := card["loyalty_card"].(map[string]any)
	got := []float64{l["points"].(float64), l["balance"].(float64), l["subtracted_points"].(float64), card["redemption"].(map[string]any)["redeemed_points"].(float64)}
	if d := cmp.Diff([]float64{350, 300, 50, 0}, got); d != "" {
		t.Errorf("loyalty card {points, balance, subtracted_points, redeemed_points} (-want +got):\n%s", d)
	}
}
