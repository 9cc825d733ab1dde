package httpadapter_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promo/async"
)

// runActions runs the pending async actions, as the engine's runner would.
func (h *harness) runActions() {
	h.t.Helper()
	if _, err := h.engine.AsyncActions().RunPending(context.Background(), async.Config{ChunkSize: 2}); err != nil {
		h.t.Fatal(err)
	}
}

// runGen is run with generated codes masked in the golden files.
func (h *harness) runGen(t *testing.T, group string, steps []step) {
	t.Helper()
	for _, s := range steps {
		h.clock.Advance(time.Second)
		rec := h.do(s.req)
		checkGolden(t, group+"/"+s.name, s.req, rec, maskGenerated)
		if rec.Code != s.want {
			t.Errorf("%s/%s: %s %s = %d, want %d\n%s", group, s.name, s.req.method, s.req.target, rec.Code, s.want, rec.Body)
		}
	}
}

// maskGenerated hides what is random in a generated voucher: its code and
// what derives from it.
func maskGenerated(body any) {
	switch v := body.(type) {
	case []any:
		for _, x := range v {
			maskGenerated(x)
		}
	case map[string]any:
		if v["object"] == "voucher" {
			if code, ok := v["code"].(string); ok && len(code) > 4 && code[:4] == "GEN-" {
				v["code"] = "GEN-<random>"
				delete(v, "assets")
				delete(v, "publish")
				delete(v, "redemption")
			}
		}
		for _, x := range v {
			maskGenerated(x)
		}
	}
}

const springBody = `{"name":"Spring Sale","description":"10% off in spring","type":"AUTO_UPDATE","join_once":true,` +
	`"vouchers_count":3,"start_date":"2026-03-01T00:00:00Z","expiration_date":"2026-06-01T00:00:00Z",` +
	`"validity_timeframe":{"interval":"P2D","duration":"P1D"},"validity_day_of_week":[0,1,2],` +
	`"validity_hours":{"daily":[{"start_time":"12:00","expiration_time":"14:00","days_of_week":[1,2]}]},` +
	`"activity_duration_after_publishing":"P24D","category":"Seasonal","metadata":{"region":"EU"},` +
	`"campaign_type":"DISCOUNT_COUPONS","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10,"amount_limit":4400},` +
	`"redemption":{"quantity":2},"code_config":{"pattern":"GEN-####","charset":"ABCDEFGHJKLMNPQRSTUVWXYZ"}}}`

func TestCampaigns(t *testing.T) {
	h := newHarness(t)
	h.runGen(t, "campaigns", []step{
		{"create_category", req{method: http.MethodPost, target: "/v1/categories", body: `{"name":"First","hierarchy":1}`}, 200},
		{"create_discount", req{method: http.MethodPost, target: "/v1/campaigns", body: springBody}, 200},
		{"get_in_progress", req{method: http.MethodGet, target: "/v1/campaigns/Spring%20Sale"}, 200},
		{"update_in_progress", req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: `{"description":"not too early"}`}, 200},
		{"async_list_enqueued", req{method: http.MethodGet, target: "/v1/async-actions"}, 200},
	})
	h.runActions()
	h.runGen(t, "campaigns", []step{
		{"get_done", req{method: http.MethodGet, target: "/v1/campaigns/camp_00000000000000000003"}, 200},
		{"async_get_generate", req{method: http.MethodGet, target: "/v1/async-actions/aa_00000000000000000005"}, 200},
		{"list_generated_vouchers", req{method: http.MethodGet, target: "/v1/vouchers?campaign_id=camp_00000000000000000003&order=created_at"}, 200},
		{"create_gift", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gift Cards","campaign_type":"GIFT_VOUCHERS","vouchers_count":1,` +
			`"voucher":{"type":"GIFT_VOUCHER","gift":{"amount":5000},"code_config":{"pattern":"GEN-##","charset":"WXYZ"}},"category_id":"cat_00000000000000000002"}`}, 200},
		{"create_loyalty", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM","join_once":false,"auto_join":true,` +
			`"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100,"expiration_rules":{"period_type":"MONTH","period_value":3,"rounding_type":"END_OF_YEAR"}},` +
			`"code_config":{"prefix":"LOYALTY-CARD-","length":4}},"loyalty_tiers_expiration":{"qualification_type":"BALANCE","b":1,"a":2}}`}, 200},
		{"create_referral", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Referrals","campaign_type":"REFERRAL_PROGRAM",` +
			`"referral_program":{"conversion_event_type":"redemption"},"voucher":{"discount":{"type":"AMOUNT","amount_off":1000},"is_referral_code":true}}`}, 200},
		{"create_promotion", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promotions","campaign_type":"PROMOTION","promotion":{"tiers":[]}}`}, 200},
		{"create_standalone", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Standalone","type":"STANDALONE","join_once":true,"voucher":{"discount":{"type":"FIXED","fixed_amount":1000}}}`}, 200},
	})
	h.runActions()
	h.runGen(t, "campaigns", []step{
		{"list", req{method: http.MethodGet, target: "/v1/campaigns?limit=3"}, 200},
		{"list_expand_category", req{method: http.MethodGet, target: "/v1/campaigns?expand=category&order=created_at&limit=2"}, 200},
		{"list_campaign_type", req{method: http.MethodGet, target: "/v1/campaigns?campaign_type=PROMOTION"}, 200},
		{"list_filter", req{method: http.MethodGet, target: "/v1/campaigns?filters[voucher_type][conditions][$in][0]=GIFT_VOUCHER&filters[voucher_type][conditions][$in][1]=LOYALTY_CARD&order=created_at"}, 200},
		{"update", req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: `{"description":"15% off now","type":"STATIC",` +
			`"discount":{"type":"PERCENT","percent_off":15},"metadata":{"season":"spring"},"unset_metadata_fields":["region"],"category":"Second","name":"ignored"}`}, 200},
		{"get_modifying", req{method: http.MethodGet, target: "/v1/campaigns/Spring%20Sale"}, 200},
	})
	h.runActions()
	h.runGen(t, "campaigns", []step{
		{"get_after_update", req{method: http.MethodGet, target: "/v1/campaigns/Spring%20Sale"}, 200},
		{"list_vouchers_after_update", req{method: http.MethodGet, target: "/v1/vouchers?campaign=Spring%20Sale&order=created_at&limit=1"}, 200},
		{"update_to_standalone", req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: `{"type":"STANDALONE"}`}, 400},
		{"update_standalone_type", req{method: http.MethodPut, target: "/v1/campaigns/Standalone", body: `{"type":"AUTO_UPDATE"}`}, 400},
		{"disable", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/disable"}, 200},
		{"get_disabled", req{method: http.MethodGet, target: "/v1/campaigns/Spring%20Sale"}, 200},
		{"enable", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/enable", body: `{}`}, 200},
		{"add_voucher_with_code", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/vouchers/SPRING-VIP", body: `{"metadata":{"vip":true},"redemption":{"quantity":5}}`}, 200},
		{"add_vouchers", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/vouchers", body: `{"vouchers_count":2,"additional_info":"bulk"}`}, 202},
		{"import", req{method: http.MethodPost, target: "/v1/campaigns/Gift%20Cards/import",
			body: `[{"code":"IMPORTED-1","gift":{"amount":700},"metadata":{"source":"pos"}},{"code":"SPRING-VIP"},{"active":false},{"code":"IMPORTED-2","loyalty_card":{"points":5}}]`}, 202},
	})
	h.runActions()
	h.runGen(t, "campaigns", []step{
		{"async_get_import", req{method: http.MethodGet, target: "/v1/async-actions/aa_00000000000000000021"}, 200},
		{"get_imported", req{method: http.MethodGet, target: "/v1/vouchers/IMPORTED-1"}, 200},
		{"async_list", req{method: http.MethodGet, target: "/v1/async-actions?limit=3"}, 200},
		{"delete", req{method: http.MethodDelete, target: "/v1/campaigns/Gift%20Cards"}, 202},
		{"get_after_delete", req{method: http.MethodGet, target: "/v1/campaigns/Gift%20Cards"}, 404},
		{"recreate_same_name", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gift Cards","campaign_type":"GIFT_VOUCHERS","voucher":{"gift":{"amount":100}}}`}, 200},
	})
	h.runActions()
	h.runGen(t, "campaigns", []step{
		{"async_get_delete", req{method: http.MethodGet, target: "/v1/async-actions/aa_00000000000000000027"}, 200},
		{"get_voucher_of_deleted_campaign", req{method: http.MethodGet, target: "/v1/vouchers/IMPORTED-1"}, 404},
		{"delete_force", req{method: http.MethodDelete, target: "/v1/campaigns/Standalone?force=true"}, 202},
		{"list_categories", req{method: http.MethodGet, target: "/v1/categories?order=name"}, 200},
		{"get_category_by_name", req{method: http.MethodGet, target: "/v1/categories/Seasonal"}, 200},
	})
}

// campaignErrors are failing requests on a harness with the campaign
// "Spring Sale" (DONE). A campaign still generating refuses nothing
// (campaign_generation_test.go).
var campaignErrors = []step{
	{"unauthorized", req{method: http.MethodGet, target: "/v1/campaigns", creds: credsNone}, 401},
	{"not_found", req{method: http.MethodGet, target: "/v1/campaigns/Nope"}, 404},
	{"not_found_update", req{method: http.MethodPut, target: "/v1/campaigns/camp_nope", body: `{}`}, 404},
	{"not_found_delete", req{method: http.MethodDelete, target: "/v1/campaigns/Nope"}, 404},
	{"not_found_enable", req{method: http.MethodPost, target: "/v1/campaigns/Nope/enable"}, 404},
	{"not_found_import", req{method: http.MethodPost, target: "/v1/campaigns/Nope/import", body: `[{"code":"A"}]`}, 404},
	{"not_found_category", req{method: http.MethodGet, target: "/v1/categories/Nope"}, 404},
	{"method_not_allowed", req{method: http.MethodPatch, target: "/v1/campaigns/Spring%20Sale", body: `{}`}, 405},
	{"invalid_json", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":}`}, 400},
	{"invalid_payload_name_type", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":7}`}, 400},
	{"invalid_payload_no_name", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 400},
	{"duplicate_name", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Spring Sale","voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 409},
	{"invalid_campaign_no_discount", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X"}`}, 400},
	{"invalid_code_config_space", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","vouchers_count":1000,"voucher":{"discount":{"type":"PERCENT","percent_off":1},"code_config":{"length":3,"charset":"0123456789"}}}`}, 400},
	{"invalid_code_config_pattern", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","voucher":{"discount":{"type":"PERCENT","percent_off":1},"code_config":{"pattern":"NONE"}}}`}, 400},
	{"invalid_category_both", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","category":"a","category_id":"cat_1","voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 400},
	{"invalid_validation_rules_two", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","validation_rules":["val_1","val_2"],"voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 400},
	{"invalid_timeframe_without_start", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","validity_timeframe":{"interval":"P1D","duration":"PT1H"},"voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 400},
	{"invalid_day_of_week", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","validity_day_of_week":[7],"voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 400},
	{"invalid_start_date", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","start_date":"soon","voucher":{"discount":{"type":"PERCENT","percent_off":1}}}`}, 400},
	{"invalid_campaign_type", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","campaign_type":"CASHBACK"}`}, 400},
	{"invalid_standalone_loyalty", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"X","type":"STANDALONE","campaign_type":"LOYALTY_PROGRAM","voucher":{"loyalty_card":{"points":1}}}`}, 400},
	{"update_to_standalone", req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: `{"type":"STANDALONE"}`}, 400},
	{"update_gift_on_discount", req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: `{"gift":{"amount":1}}`}, 400},
	{"update_bad_type", req{method: http.MethodPut, target: "/v1/campaigns/Spring%20Sale", body: `{"type":"DYNAMIC"}`}, 400},
	{"import_not_array", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/import", body: `{"code":"A"}`}, 400},
	{"import_empty", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/import", body: `[]`}, 400},
	{"import_item_type", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/import", body: `[{"code":"A"},{"code":7}]`}, 400},
	{"import_invalid_json", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/import", body: `[{"code":]`}, 400},
	{"add_vouchers_space", req{method: http.MethodPost, target: "/v1/campaigns/Spring%20Sale/vouchers", body: `{"vouchers_count":100,"code_config":{"length":1}}`}, 400},
	{"delete_bad_force", req{method: http.MethodDelete, target: "/v1/campaigns/Spring%20Sale?force=yes"}, 400},
	{"list_bad_campaign_type", req{method: http.MethodGet, target: "/v1/campaigns?campaign_type=CASHBACK"}, 400},
	{"list_bad_status", req{method: http.MethodGet, target: "/v1/campaigns?campaign_status=LOST"}, 400},
	{"list_bad_expand", req{method: http.MethodGet, target: "/v1/campaigns?expand=vouchers"}, 400},
	{"list_bad_order", req{method: http.MethodGet, target: "/v1/campaigns?order=name"}, 400},
	{"list_bad_filter", req{method: http.MethodGet, target: "/v1/campaigns?filters[budget][conditions][$is]=1"}, 400},
	{"category_no_name", req{method: http.MethodPost, target: "/v1/categories", body: `{"hierarchy":1}`}, 400},
	{"category_duplicate", req{method: http.MethodPost, target: "/v1/categories", body: `{"name":"Seasonal"}`}, 409},
}

func TestCampaignErrors(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: springBody}, http.StatusOK)
	h.runActions()
	h.run(t, "campaigns/errors", campaignErrors)
}
