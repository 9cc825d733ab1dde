package httpadapter_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRedemptionReads: GET /v1/redemptions bounds rows by
// created_at[before|after]; GET /v1/vouchers/{code}/redemption answers
// every entry (more than a hundred, streamed) or the page that limit and
// page name, newest first, with the total of all.
func TestRedemptionReads(t *testing.T) {
	e := examples{newHarness(t), t}
	e.post("/v1/vouchers/MANY", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}`)
	const n = 130
	var ids []string // oldest first
	for i := range n {
		r := e.post("/v1/redemptions", fmt.Sprintf(`{"customer":{"source_id":"many"},"redeemables":[{"object":"voucher","id":"MANY"}],"order":{"amount":%d}}`, 1000+i))
		ids = append(ids, at(t, r, "redemptions", "0", "id").(string))
	}
	entries := func(body map[string]any) []string {
		var out []string
		for _, x := range body["redemption_entries"].([]any) {
			out = append(out, x.(map[string]any)["id"].(string))
		}
		return out
	}
	newest := make([]string, n)
	for i, id := range ids {
		newest[n-1-i] = id
	}
	all := e.get("/v1/vouchers/MANY/redemption")
	if d := cmp.Diff(newest, entries(all)); d != "" {
		t.Errorf("every entry, newest first (-want +got):\n%s", d)
	}
	wantNums(t, "every entry", all, map[string]float64{"total": n, "redeemed_quantity": n})
	page := e.get("/v1/vouchers/MANY/redemption?limit=50&page=3")
	if d := cmp.Diff(newest[100:], entries(page)); d != "" {
		t.Errorf("page 3 of 50 (-want +got):\n%s", d)
	}
	wantNums(t, "a page", page, map[string]float64{"total": n})
	if d := cmp.Diff(newest[:10], entries(e.get("/v1/vouchers/MANY/redemption?page=1"))); d != "" {
		t.Errorf("the default page is 10 (-want +got):\n%s", d)
	}
	e.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/MANY/redemption?limit=101"}, http.StatusBadRequest)
	e.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/NOSUCH/redemption?limit=5"}, http.StatusNotFound)

	// Redemption i was made at epoch + (i+2) s (each post advances a second, the voucher first).
	stamp := func(i int) string {
		return epoch.Add(time.Duration(i+2) * time.Second).Format("2006-01-02T15:04:05.000Z")
	}
	list := e.get("/v1/redemptions?limit=100&order=created_at&created_at[after]=" + stamp(9) + "&created_at[before]=" + stamp(15))
	var got []string
	for _, x := range list["redemptions"].([]any) {
		got = append(got, x.(map[string]any)["id"].(string))
	}
	if d := cmp.Diff(ids[10:15], got); d != "" {
		t.Errorf("created between the 10th and the 16th, exclusive (-want +got):\n%s", d)
	}
	wantNums(t, "the range's total", list, map[string]float64{"total": 5})
	e.run(t, "redemptions", []step{
		{"list_bad_created_at", req{method: http.MethodGet, target: "/v1/redemptions?created_at[before]=yesterday"}, 400},
		{"voucher_redemptions_page", req{method: http.MethodGet, target: "/v1/vouchers/MANY/redemption?limit=2"}, 200},
	})
}

// TestTierSummary: a tier's summary on GET, list and enable is the sum of
// its ledger rows: each redemption (a stacked child too, never its
// parent) adds one, the order's amount and the tier's discount; a
// rollback takes them back.
func TestTierSummary(t *testing.T) {
	e := examples{newHarness(t), t}
	camp := e.post("/v1/campaigns", `{"name":"Promotions","campaign_type":"PROMOTION"}`)["id"].(string)
	tier := e.post("/v1/promotions/"+camp+"/tiers", `{"name":"40% off","action":{"discount":{"type":"PERCENT","percent_off":40,"effect":"APPLY_TO_ORDER"}}}`)["id"].(string)
	e.post("/v1/vouchers/TEN", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}`)
	first := e.post("/v1/promotions/tiers/"+tier+"/redemption", `{"customer":{"source_id":"ts"},"order":{"amount":1000}}`)["id"].(string)
	e.post("/v1/redemptions", `{"customer":{"source_id":"ts"},"redeemables":[{"object":"promotion_tier","id":"`+tier+`"},{"object":"voucher","id":"TEN"}],"order":{"amount":2000}}`)
	summary := func(what string, want map[string]float64) {
		t.Helper()
		wantNums(t, what+": GET", e.get("/v1/promotions/tiers/"+tier), want)
		wantNums(t, what+": list", at(t, e.get("/v1/promotions/"+camp+"/tiers"), "tiers", "0").(map[string]any), want)
	}
	summary("two redemptions", map[string]float64{"summary.redemptions.total_redeemed": 2,
		"summary.orders.total_amount": 3000, "summary.orders.total_discount_amount": 400 + 800})
	e.post("/v1/redemptions/"+first+"/rollback", ``)
	summary("after the rollback of the first", map[string]float64{"summary.redemptions.total_redeemed": 1,
		"summary.orders.total_amount": 2000, "summary.orders.total_discount_amount": 800})
	wantNums(t, "disable", e.post("/v1/promotions/tiers/"+tier+"/disable", ``), map[string]float64{"summary.redemptions.total_redeemed": 1})
}

// TestRedemptionsCampaignName: GET /v1/redemptions filters by the
// campaign's name (filters[campaign_name]); a redemption without campaign
// matches only the negative conditions. filters[user_login] sees a null on
// every row.
func TestRedemptionsCampaignName(t *testing.T) {
	e := examples{newHarness(t), t}
	redeem := func(code string) string {
		r := e.post("/v1/redemptions", `{"customer":{"source_id":"cn"},"redeemables":[{"object":"voucher","id":"`+code+`"}],"order":{"amount":1000}}`)
		return at(t, r, "redemptions", "0", "id").(string)
	}
	ids := map[string]string{}
	for _, name := range []string{"Spring", "Summer"} {
		camp := e.post("/v1/campaigns", `{"name":"`+name+`","campaign_type":"DISCOUNT_COUPONS","type":"STATIC","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}}`)["id"].(string)
		e.runActions()
		e.post("/v1/campaigns/"+camp+"/vouchers/"+name+"-1", `{}`)
		ids[name] = redeem(name + "-1")
	}
	e.post("/v1/vouchers/ALONE", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}`)
	ids["alone"] = redeem("ALONE")
	list := func(filter string) []string {
		t.Helper()
		body := e.get("/v1/redemptions?order=created_at&" + filter)
		var out []string
		for _, x := range body["redemptions"].([]any) {
			out = append(out, x.(map[string]any)["id"].(string))
		}
		return out
	}
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"filters[campaign_name][conditions][$is]=Spring", []string{ids["Spring"]}},
		{"filters[campaign_name][conditions][$in][0]=Summer&filters[campaign_name][conditions][$in][1]=Autumn", []string{ids["Summer"]}},
		{"filters[campaign_name][conditions][$starts_with]=S", []string{ids["Spring"], ids["Summer"]}},
		{"filters[campaign_name][conditions][$is_not]=Spring", []string{ids["Summer"], ids["alone"]}},
		{"filters[campaign_name][conditions][$is]=Winter", nil},
		{"filters[campaign_name][conditions][$is_not]=Winter", []string{ids["Spring"], ids["Summer"], ids["alone"]}},
		{"filters[campaign_name][conditions][$is_unknown]=true", []string{ids["alone"]}},
		{"filters[junction]=or&filters[campaign_name][conditions][$is]=Spring&filters[voucher_code][conditions][$is]=ALONE", []string{ids["Spring"], ids["alone"]}},
		// No redemption has a dashboard user: user_login is null on every row.
		{"filters[user_login][conditions][$is]=jane@example.com", nil},
		{"filters[user_login][conditions][$is_unknown]=true", []string{ids["Spring"], ids["Summer"], ids["alone"]}},
		{"filters[user_login][conditions][$is_not]=jane@example.com&filters[voucher_code][conditions][$is]=ALONE", []string{ids["alone"]}},
		{"filters[junction]=or&filters[user_login][conditions][$has_value]=true&filters[campaign_name][conditions][$is]=Summer", []string{ids["Summer"]}},
	} {
		if d := cmp.Diff(c.want, list(c.filter)); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.filter, d)
		}
	}
	e.mustDo(req{method: http.MethodGet, target: "/v1/redemptions?filters[campaign_name][conditions][$after]=2026-01-01"}, http.StatusBadRequest)
	e.mustDo(req{method: http.MethodGet, target: "/v1/redemptions?filters[user_login][conditions][$after]=2026-01-01"}, http.StatusBadRequest)
}
