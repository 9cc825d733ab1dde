package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// duringGeneration are the changes an application makes to a campaign at
// once after creating it with vouchers_count 3, while its vouchers are
// generated: each is accepted (never 400) and queued behind the generation
// or applied to what it generates.
func duringGeneration(name, prefix string) []step {
	base := "/v1/campaigns/" + name
	return []step{
		{"create", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"` + name + `","vouchers_count":3,` +
			`"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10},"code_config":{"pattern":"GEN-####"}}}`}, 200},
		{"add_voucher", req{method: http.MethodPost, target: base + "/vouchers/" + prefix + "-ONE", body: `{"metadata":{"by":"hand"}}`}, 200},
		{"add_vouchers", req{method: http.MethodPost, target: base + "/vouchers", body: `{"vouchers_count":2}`}, 202},
		{"import", req{method: http.MethodPost, target: base + "/import", body: `[{"code":"` + prefix + `-IMPORTED"}]`}, 202},
		{"update", req{method: http.MethodPut, target: base, body: `{"description":"changed while generating","discount":{"type":"PERCENT","percent_off":25}}`}, 200},
	}
}

// TestCampaignChangesDuringGeneration: adding vouchers (one, and a count),
// an import and an update sent while a campaign's vouchers are generated
// are accepted; the runner carries them out after the generation, so the
// campaign ends as if they had been sent after it (the same campaign and
// vouchers as a harness that waits for each action before the next
// request). Issue 29 point 1; docs/behaviour.md "Campaigns and categories".
func TestCampaignChangesDuringGeneration(t *testing.T) {
	h := newHarness(t)
	h.runGen(t, "campaigns/during_generation", append(duringGeneration("Queued", "QUEUED"),
		step{"get_modifying", req{method: http.MethodGet, target: "/v1/campaigns/Queued"}, 200}))
	h.runActions()
	h.runGen(t, "campaigns/during_generation", []step{
		{"get_done", req{method: http.MethodGet, target: "/v1/campaigns/Queued"}, 200},
		{"async_list", req{method: http.MethodGet, target: "/v1/async-actions?order=created_at"}, 200},
		{"vouchers", req{method: http.MethodGet, target: "/v1/vouchers?campaign=Queued&order=created_at&limit=20"}, 200},
	})
	got := campaignState(h, "Queued")
	if got.Campaign["creation_status"] != "DONE" || got.Campaign["vouchers_count"] != 7.0 {
		t.Errorf("campaign after its actions: %v", got.Campaign)
	}
	for _, v := range got.Vouchers {
		if d := v["discount"].(map[string]any); d["percent_off"] != 25.0 {
			t.Errorf("voucher %s keeps %v: the update did not reach it", v["code"], d)
		}
	}
	for _, a := range listItems(h.mustDo(req{method: http.MethodGet, target: "/v1/async-actions?limit=100"}, http.StatusOK)) {
		if a := a.(map[string]any); a["status"] != "DONE" {
			t.Errorf("action %s %s ended %s", a["id"], a["type"], a["status"])
		}
	}

	// The same requests, each after the actions before it ended.
	seq := newHarness(t)
	for _, s := range duringGeneration("Queued", "QUEUED") {
		seq.mustDo(s.req, s.want)
		seq.runActions()
	}
	if d := cmp.Diff(campaignState(seq, "Queued"), got); d != "" {
		t.Errorf("final state differs from the same requests sent one after another's end (-after +during):\n%s", d)
	}
}

// TestCampaignDeleteDuringGeneration: create, then at once add a voucher,
// import, update and delete (the sequence of the SDKs' suites): every
// request is accepted, and once the runner is done the campaign and its
// vouchers are gone, as after a delete sent once the generation ended.
func TestCampaignDeleteDuringGeneration(t *testing.T) {
	h := newHarness(t)
	h.runGen(t, "campaigns/delete_during_generation", append(duringGeneration("Gone", "GONE"),
		step{"delete", req{method: http.MethodDelete, target: "/v1/campaigns/Gone"}, 202},
		step{"get_deleted", req{method: http.MethodGet, target: "/v1/campaigns/Gone"}, 404},
	))
	h.runActions()
	h.runGen(t, "campaigns/delete_during_generation", []step{
		{"async_list_after_delete", req{method: http.MethodGet, target: "/v1/async-actions?order=created_at"}, 200},
		{"vouchers_after_delete", req{method: http.MethodGet, target: "/v1/vouchers?campaign_id=camp_00000000000000000003"}, 200},
		{"voucher_after_delete", req{method: http.MethodGet, target: "/v1/vouchers/GONE-ONE"}, 404},
		{"recreate_same_name", req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gone","voucher":{"discount":{"type":"AMOUNT","amount_off":100}}}`}, 200},
	})
	for _, a := range listItems(h.mustDo(req{method: http.MethodGet, target: "/v1/async-actions?limit=100"}, http.StatusOK)) {
		if a := a.(map[string]any); a["status"] != "DONE" && a["status"] != "FAILED" {
			t.Errorf("action %s %s left %s", a["id"], a["type"], a["status"])
		}
	}
}

// settled is what a campaign's final state is compared by: the campaign
// without ids and times, and its vouchers by code (generated codes
// masked), without ids and times.
type settled struct {
	Campaign map[string]any
	Vouchers []map[string]any
}

func campaignState(h *harness, name string) settled {
	h.t.Helper()
	c := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/" + name}, http.StatusOK)
	keep := func(m map[string]any, keys ...string) map[string]any {
		out := map[string]any{}
		for _, k := range keys {
			out[k] = m[k]
		}
		return out
	}
	st := settled{Campaign: keep(c, "name", "description", "creation_status", "vouchers_generation_status", "vouchers_count", "voucher", "active", "type")}
	list := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers?campaign=" + name + "&limit=100"}, http.StatusOK)
	for _, v := range listItems(list) {
		v := v.(map[string]any)
		maskGenerated(v)
		st.Vouchers = append(st.Vouchers, keep(v, "code", "type", "discount", "active", "metadata", "campaign", "redemption"))
	}
	sort.Slice(st.Vouchers, func(i, j int) bool {
		a, _ := json.Marshal(st.Vouchers[i])
		b, _ := json.Marshal(st.Vouchers[j])
		return string(a) < string(b)
	})
	return st
}
