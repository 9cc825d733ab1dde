package httpadapter_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo/project"
)

// Campaign templates in the isolation test: project B reaches none of A's
// templates, through /v1 or the management API.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Iso template source","voucher":{"discount":{"type":"PERCENT","percent_off":10}}}`}, http.StatusOK)
		ids["templateSourceId"] = c["id"].(string)
		t := h.mustDo(req{method: http.MethodPost, target: "/v1/templates/campaigns",
			body: `{"campaign_id":"` + ids["templateSourceId"] + `","name":"Iso template"}`}, http.StatusOK)
		ids["campaignTemplateId"] = t["id"].(string)
	})
	isolationRows = append(isolationRows,
		isolationRow{"get template", http.MethodGet, "/v1/templates/campaigns/{campaignTemplateId}", ""},
		isolationRow{"update template", http.MethodPut, "/v1/templates/campaigns/{campaignTemplateId}", `{"name":"Taken"}`},
		isolationRow{"delete template", http.MethodDelete, "/v1/templates/campaigns/{campaignTemplateId}", ""},
		isolationRow{"campaign from template", http.MethodPost, "/v1/templates/campaigns/{campaignTemplateId}/campaign-setup", `{"name":"Taken"}`},
		isolationRow{"tier from template", http.MethodPost, "/v1/templates/campaigns/{campaignTemplateId}/tier-setup", `{"name":"Taken","campaign_id":"x"}`},
		isolationRow{"template of A's campaign", http.MethodPost, "/v1/templates/campaigns", `{"campaign_id":"{templateSourceId}","name":"Taken"}`},
		isolationRow{"list A's templates (management)", http.MethodGet, "/management/v1/projects/{projectId}/templates/campaigns", ""},
		isolationRow{"copy A's template (management)", http.MethodPost, "/management/v1/projects/{projectId}/templates/campaigns/{campaignTemplateId}/copy", `{"destination_project_id":"{projectId}"}`},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list templates", http.MethodGet, "/v1/templates/campaigns", ""})
}

// TestCampaignTemplates makes templates of a discount campaign, a gift
// campaign and a promotion tier, reads, lists, renames and copies them,
// creates a campaign (with its generated vouchers) and a promotion tier
// from them, refuses bad input and deletes one.
func TestCampaignTemplates(t *testing.T) {
	h := newHarness(t)
	other, err := h.engine.Projects().Create(context.Background(), project.Params{Name: "Not granted"})
	if err != nil {
		t.Fatal(err)
	}
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Spring","type":"AUTO_UPDATE","description":"Spring sale",` +
		`"start_date":"2026-03-01T00:00:00Z","metadata":{"season":"spring"},` +
		`"voucher":{"discount":{"type":"PERCENT","percent_off":15},"code_config":{"prefix":"SPR-","length":6},"redemption":{"quantity":2}}}`}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gifts","campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":5000}}}`}, http.StatusOK)
	promo := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promos","campaign_type":"PROMOTION",` +
		`"promotion":{"tiers":[{"name":"Tier A","banner":"5 off","action":{"discount":{"type":"AMOUNT","amount_off":500}}}]}}`}, http.StatusOK)
	promoID := promo["id"].(string)
	tierID := promo["promotion"].(map[string]any)["tiers"].([]any)[0].(map[string]any)["id"].(string)
	h.runActions()
	const base = "/v1/templates/campaigns"
	h.runGen(t, "templates", []step{
		{"create_from_campaign", req{method: http.MethodPost, target: base, body: `{"campaign_id":"Spring","name":"Spring template","description":"15% off"}`}, 200},
		{"create_from_gift", req{method: http.MethodPost, target: base, body: `{"campaign_id":"Gifts","name":"Gift template"}`}, 200},
		{"create_from_tier", req{method: http.MethodPost, target: base, body: `{"promotion_tier_id":"` + tierID + `","name":"Tier template"}`}, 200},
		{"create_both_sources", req{method: http.MethodPost, target: base, body: `{"campaign_id":"Spring","promotion_tier_id":"` + tierID + `","name":"X"}`}, 400},
		{"create_no_source", req{method: http.MethodPost, target: base, body: `{"name":"X"}`}, 400},
		{"create_no_name", req{method: http.MethodPost, target: base, body: `{"campaign_id":"Spring"}`}, 400},
		{"create_name_taken", req{method: http.MethodPost, target: base, body: `{"campaign_id":"Spring","name":"Spring template"}`}, 409},
		{"create_from_promotion", req{method: http.MethodPost, target: base, body: `{"campaign_id":"Promos","name":"X"}`}, 400},
		{"create_missing_campaign", req{method: http.MethodPost, target: base, body: `{"campaign_id":"camp_missing","name":"X"}`}, 404},
		{"get", req{method: http.MethodGet, target: base + "/camp_tpl_00000000000000000007"}, 200},
		{"get_missing", req{method: http.MethodGet, target: base + "/camp_tpl_missing"}, 404},
		{"list", req{method: http.MethodGet, target: base + "?include_total=true"}, 200},
		{"list_page", req{method: http.MethodGet, target: base + "?limit=1&order=-id"}, 200},
		{"list_after", req{method: http.MethodGet, target: base + "?limit=1&order=-id&starting_after_id=camp_tpl_00000000000000000009"}, 200},
		{"list_filter", req{method: http.MethodGet, target: base + "?filters[campaign_type][conditions][$is]=GIFT_VOUCHERS"}, 200},
		{"list_bad_total", req{method: http.MethodGet, target: base + "?include_total=maybe"}, 400},
		{"list_bad_order", req{method: http.MethodGet, target: base + "?order=name"}, 400},
		{"update", req{method: http.MethodPut, target: base + "/camp_tpl_00000000000000000007", body: `{"name":"Spring 15","description":"Fifteen off"}`}, 200},
		{"update_name_taken", req{method: http.MethodPut, target: base + "/camp_tpl_00000000000000000007", body: `{"name":"Gift template"}`}, 409},
		{"campaign_setup", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000007/campaign-setup",
			body: `{"name":"Summer","vouchers_count":3,"metadata":{"season":"summer"},"voucher":{"code_config":{"prefix":"SUM-","length":6}}}`}, 200},
		{"campaign_setup_no_name", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000007/campaign-setup", body: `{}`}, 400},
		{"campaign_setup_name_taken", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000007/campaign-setup", body: `{"name":"Spring"}`}, 409},
		{"campaign_setup_missing", req{method: http.MethodPost, target: base + "/camp_tpl_missing/campaign-setup", body: `{"name":"Y"}`}, 404},
	})
	h.runActions()
	vs := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers?campaign=Summer"}, http.StatusOK)
	for _, v := range listItems(vs) {
		if code := v.(map[string]any)["code"].(string); !strings.HasPrefix(code, "SUM-") || len(code) != 10 {
			t.Errorf("voucher of the campaign made from the template: code %q, want SUM- and 6 characters", code)
		}
	}
	if vs["total"] != float64(3) {
		t.Errorf("the campaign made from the template has %v vouchers, want 3", vs["total"])
	}
	h.runGen(t, "templates", []step{
		{"setup_campaign_done", req{method: http.MethodGet, target: "/v1/campaigns/Summer"}, 200},
		{"tier_setup", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000009/tier-setup",
			body: `{"campaign_id":"` + promoID + `","name":"From template","banner":"Take 5","hierarchy":2}`}, 200},
		{"tier_setup_no_campaign", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000009/tier-setup", body: `{"name":"Z"}`}, 400},
		{"tier_setup_not_promotion", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000009/tier-setup", body: `{"name":"Z","campaign_id":"Spring"}`}, 400},
		{"tier_setup_gift", req{method: http.MethodPost, target: base + "/camp_tpl_00000000000000000008/tier-setup", body: `{"name":"Z","campaign_id":"` + promoID + `"}`}, 400},
		{"management_list", req{method: http.MethodGet, target: "/management/v1/projects/" + h.project.ID + "/templates/campaigns?include_total=true&limit=1"}, 200},
		{"management_copy", req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/templates/campaigns/camp_tpl_00000000000000000008/copy",
			body: `{"name":"Gift copy","destination_project_id":"` + h.project.ID + `"}`}, 200},
		{"management_copy_not_granted", req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/templates/campaigns/camp_tpl_00000000000000000008/copy",
			body: `{"destination_project_id":"` + other.ID + `"}`}, 404},
		{"management_copy_no_destination", req{method: http.MethodPost, target: "/management/v1/projects/" + h.project.ID + "/templates/campaigns/camp_tpl_00000000000000000008/copy", body: `{}`}, 400},
		{"delete", req{method: http.MethodDelete, target: base + "/camp_tpl_00000000000000000008"}, 204},
		{"get_deleted", req{method: http.MethodGet, target: base + "/camp_tpl_00000000000000000008"}, 404},
		{"delete_again", req{method: http.MethodDelete, target: base + "/camp_tpl_00000000000000000008"}, 404},
	})
}
