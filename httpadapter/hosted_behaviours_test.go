package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/httpadapter"
)

// TestHostedBehaviours: the behaviours of the hosted service an
// application written against it relies on (issue 29 point 3;
// docs/behaviour.md). Run on PostgreSQL too (PROMO_TEST_HTTP_STORE).
func TestHostedBehaviours(t *testing.T) {
	t.Run("publication from an AUTO_UPDATE campaign without a free code", func(t *testing.T) {
		h := newHarness(t)
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns",
			body: `{"name":"Auto","type":"AUTO_UPDATE","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"code_config":{"pattern":"GEN-####"}}}`}, http.StatusOK)
		for _, s := range []step{
			{"publication_generates", req{method: http.MethodPost, target: "/v1/publications",
				body: `{"campaign":{"name":"Auto","count":2},"customer":{"source_id":"auto-alice"}}`}, 200},
			{"publication_generates_by_query", req{method: http.MethodGet,
				target: "/v1/publications/create?campaign=Auto&customer%5Bsource_id%5D=auto-bob"}, 200},
		} {
			rec := h.do(s.req)
			checkGolden(t, "hosted_behaviours/"+s.name, s.req, rec, maskCodes)
			if rec.Code != s.want {
				t.Errorf("%s = %d, want %d\n%s", s.name, rec.Code, s.want, rec.Body)
			}
		}
		c := h.mustDo(req{method: http.MethodGet, target: "/v1/campaigns/Auto"}, http.StatusOK)
		if c["vouchers_count"] != 3.0 {
			t.Errorf("vouchers_count after three generated publications = %v, want 3", c["vouchers_count"])
		}
		// A FIXED campaign without a free code still refuses.
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns",
			body: `{"name":"Fixed","type":"STATIC","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500}}}`}, http.StatusOK)
		h.mustDo(req{method: http.MethodPost, target: "/v1/publications",
			body: `{"campaign":"Fixed","customer":{"source_id":"auto-alice"}}`}, http.StatusBadRequest)
	})

	t.Run("bulk and metadata updates take what the SDKs send", func(t *testing.T) {
		h := newHarness(t)
		h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/BULK-1", body: `{"discount":{"type":"AMOUNT","amount_off":1},"metadata":{"a":1}}`}, http.StatusOK)
		steps := []step{
			{"vouchers_bulk_empty_body", req{method: http.MethodPost, target: "/v1/vouchers/bulk/async", contentType: "application/json"}, 202},
			{"vouchers_bulk_no_metadata", req{method: http.MethodPost, target: "/v1/vouchers/bulk/async", body: `[{"code":"BULK-1"}]`}, 202},
			{"vouchers_metadata_no_metadata", req{method: http.MethodPost, target: "/v1/vouchers/metadata/async", body: `{"codes":["BULK-1"]}`}, 202},
			{"vouchers_metadata_empty_body", req{method: http.MethodPost, target: "/v1/vouchers/metadata/async", contentType: "application/json"}, 202},
			{"customers_bulk_empty_body", req{method: http.MethodPost, target: "/v1/customers/bulk/async", contentType: "application/json"}, 202},
			{"customers_metadata_empty_object", req{method: http.MethodPost, target: "/v1/customers/metadata/async", body: `{}`}, 202},
			{"products_bulk_empty_list", req{method: http.MethodPost, target: "/v1/products/bulk/async", body: `[]`}, 202},
			{"products_metadata_no_metadata", req{method: http.MethodPost, target: "/v1/products/metadata/async", body: `{"source_ids":["bulk-prod"]}`}, 202},
			{"vouchers_import_empty_body", req{method: http.MethodPost, target: "/v1/vouchers/import", contentType: "application/json"}, 400},
		}
		var ids []string
		for _, s := range steps {
			rec := h.golden("hosted_behaviours/"+s.name, s.req)
			if rec.Code != s.want {
				t.Fatalf("%s = %d, want %d\n%s", s.name, rec.Code, s.want, rec.Body)
			}
			if s.want == http.StatusAccepted {
				ids = append(ids, decode(t, rec.Body.Bytes())["async_action_id"].(string))
			}
		}
		h.runActions()
		for _, id := range ids {
			a := h.mustDo(req{method: http.MethodGet, target: "/v1/async-actions/" + id}, http.StatusOK)
			if a["status"] != "DONE" {
				t.Errorf("action %s (%v) = %v, want DONE: %v", id, a["type"], a["status"], a["result"])
			}
		}
		v := h.mustDo(req{method: http.MethodGet, target: "/v1/vouchers/BULK-1"}, http.StatusOK)
		if diff := cmp.Diff(map[string]any{"a": 1.0}, v["metadata"]); diff != "" {
			t.Errorf("metadata after updates without metadata (-want +got):\n%s", diff)
		}
		h.mustDo(req{method: http.MethodGet, target: "/v1/products/bulk-prod"}, http.StatusOK)
	})

	t.Run("qualifications take options.limit up to 100", func(t *testing.T) {
		h := newHarness(t)
		h.mustDo(req{method: http.MethodPost, target: "/v1/qualifications", body: `{"order":{"amount":100},"options":{"limit":100}}`}, http.StatusOK)
		h.mustDo(req{method: http.MethodPost, target: "/v1/qualifications", body: `{"order":{"amount":100},"options":{"limit":101}}`}, http.StatusBadRequest)
	})

	t.Run("vouchers filter by filters[campaign_ids]", func(t *testing.T) {
		h := newHarness(t)
		var camps []string
		for _, name := range []string{"Spring", "Autumn", "Winter"} {
			c := h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns",
				body: `{"name":"` + name + `","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`}, http.StatusOK)
			camps = append(camps, c["id"].(string))
			h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns/" + name + "/vouchers/" + strings.ToUpper(name) + "-1", body: `{}`}, http.StatusOK)
		}
		h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/LONE-1", body: `{"discount":{"type":"AMOUNT","amount_off":1}}`}, http.StatusOK)
		h.run(t, "hosted_behaviours", []step{
			{"vouchers_campaign_ids_in", req{method: http.MethodGet,
				target: "/v1/vouchers?filters%5Bcampaign_ids%5D%5Bconditions%5D%5B%24in%5D%5B0%5D=" + camps[0] + "&filters%5Bcampaign_ids%5D%5Bconditions%5D%5B%24in%5D%5B1%5D=" + camps[2]}, 200},
			{"vouchers_campaign_ids_is", req{method: http.MethodGet,
				target: "/v1/vouchers?filters%5Bcampaign_ids%5D%5Bconditions%5D%5B%24is%5D=" + camps[1]}, 200},
		})
	})

	t.Run("reward assignments", func(t *testing.T) {
		h := newHarness(t)
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: loyaltyCampaignBody}, http.StatusOK)
		coin := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards", body: coinRewardBody}, http.StatusOK)["id"].(string)
		e := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards/" + coin + "/assignments", body: `{"campaign":"Points","parameters":{"loyalty":{"points":3}}}`}, http.StatusBadRequest)
		if !strings.Contains(e["details"].(string), "COIN") {
			t.Errorf("COIN with parameters.loyalty: %v", e)
		}
		a := h.mustDo(req{method: http.MethodPost, target: "/v1/rewards/" + coin + "/assignments", body: `{"campaign":"Points"}`}, http.StatusOK)
		if _, ok := a["parameters"]; ok {
			t.Errorf("a COIN assignment shows parameters: %v", a)
		}
		h.mustDo(req{method: http.MethodPut, target: "/v1/rewards/" + coin + "/assignments/" + a["id"].(string), body: `{"parameters":{"loyalty":{"points":3}}}`}, http.StatusBadRequest)
	})

	t.Run("date-only validity in the project's time zone", func(t *testing.T) {
		h := newHarness(t)
		h.mustDo(req{method: http.MethodPut, target: "/management/v1/projects/" + h.project.ID, body: `{"timezone":"Europe/Warsaw"}`}, http.StatusOK)
		h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Promo","campaign_type":"PROMOTION"}`}, http.StatusOK)
		h.run(t, "hosted_behaviours", []step{
			{"dates_campaign", req{method: http.MethodPost, target: "/v1/campaigns",
				body: `{"name":"Dated","start_date":"2026-01-02","expiration_date":"2026-01-03","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`}, 200},
			{"dates_campaign_update", req{method: http.MethodPut, target: "/v1/campaigns/Dated", body: `{"expiration_date":"2026-07-01"}`}, 200},
			{"dates_voucher", req{method: http.MethodPost, target: "/v1/vouchers/DATED-1",
				body: `{"discount":{"type":"AMOUNT","amount_off":1},"start_date":"2026-01-02","expiration_date":"2026-01-02T12:00:00Z"}`}, 200},
			{"dates_voucher_update", req{method: http.MethodPut, target: "/v1/vouchers/DATED-1", body: `{"expiration_date":"2026-01-02"}`}, 200},
			{"dates_tier", req{method: http.MethodPost, target: "/v1/promotions/Promo/tiers",
				body: `{"name":"Dated tier","start_date":"2026-06-30","expiration_date":"2026-06-30","action":{"discount":{"type":"AMOUNT","amount_off":100}}}`}, 200},
		})
		for _, tc := range []struct{ target, field, want string }{
			{"/v1/campaigns/Dated", "start_date", "2026-01-01T23:00:00.000Z"},
			{"/v1/campaigns/Dated", "expiration_date", "2026-07-01T21:59:59.999Z"}, // summer time
			{"/v1/vouchers/DATED-1", "start_date", "2026-01-01T23:00:00.000Z"},
			{"/v1/vouchers/DATED-1", "expiration_date", "2026-01-02T22:59:59.999Z"},
		} {
			if got := h.mustDo(req{method: http.MethodGet, target: tc.target}, http.StatusOK)[tc.field]; got != tc.want {
				t.Errorf("%s %s = %v, want %s", tc.target, tc.field, got, tc.want)
			}
		}
		// A voucher valid until the end of 2 January, Warsaw time, is valid
		// at 23:30 Warsaw time (22:30 UTC).
		h.clock.Set(time.Date(2026, 1, 2, 22, 30, 0, 0, time.UTC))
		r := h.mustDo(req{method: http.MethodPost, target: "/v1/validations", body: `{"redeemables":[{"object":"voucher","id":"DATED-1"}],"order":{"amount":1000}}`}, http.StatusOK)
		if r["valid"] != true {
			t.Errorf("DATED-1 at 23:30 Warsaw time on its last day: %v", r)
		}
	})
}

// TestExportResultURL: an export starts SCHEDULED with result null,
// finishes in the background, and its result.url is absolute: on
// WithPublicBaseURL's base, else on the request's own scheme and host.
func TestExportResultURL(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   []httpadapter.Option
		target string // of the GET
		want   string // the url's prefix
	}{
		{"request host", nil, "http://api.shop.test/v1/exports/", "http://api.shop.test/v1/exports/"},
		{"public base URL", []httpadapter.Option{httpadapter.WithPublicBaseURL("https://promo.example.com/")}, "/v1/exports/",
			"https://promo.example.com/v1/exports/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.opts...)
			h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/EXP-1", body: `{"discount":{"type":"AMOUNT","amount_off":1}}`}, http.StatusOK)
			e := h.mustDo(req{method: http.MethodPost, target: "/v1/exports", body: `{"exported_object":"voucher"}`}, http.StatusOK)
			id := e["id"].(string)
			for _, got := range []map[string]any{e, h.mustDo(req{method: http.MethodGet, target: tc.target + id}, http.StatusOK)} {
				if r, ok := got["result"]; !ok || r != nil || got["status"] != "SCHEDULED" {
					t.Errorf("export before its job ran: status %v, result %v (present %v), want SCHEDULED, null", got["status"], r, ok)
				}
			}
			h.runActions()
			got := h.mustDo(req{method: http.MethodGet, target: tc.target + id}, http.StatusOK)
			u, _ := got["result"].(map[string]any)["url"].(string)
			if got["status"] != "DONE" || !strings.HasPrefix(u, tc.want+id+"?token=") {
				t.Fatalf("export after its job: status %v, url %q, want DONE and %s%s?token=…", got["status"], u, tc.want, id)
			}
			list := h.mustDo(req{method: http.MethodGet, target: "/v1/exports"}, http.StatusOK)
			if lu := list["exports"].([]any)[0].(map[string]any)["result"].(map[string]any)["url"]; !strings.HasPrefix(lu.(string), "http") {
				t.Errorf("listed url %v is not absolute", lu)
			}
			if rec := h.download(u); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "EXP-1") {
				t.Errorf("download of %s = %d\n%s", u, rec.Code, rec.Body)
			}
		})
	}
}

// maskCodes hides generated codes (GEN-…) wherever they appear: in
// vouchers, their URLs and assets, the customer's summary.
func maskCodes(body any) {
	switch v := body.(type) {
	case []any:
		for i, x := range v {
			if s, ok := x.(string); ok && strings.Contains(s, "GEN-") {
				v[i] = "GEN-<random>"
			}
			maskCodes(x)
		}
	case map[string]any:
		if code, _ := v["code"].(string); strings.HasPrefix(code, "GEN-") {
			delete(v, "assets") // base64 of the code
		}
		for k, x := range v {
			if s, ok := x.(string); ok && strings.Contains(s, "GEN-") {
				v[k] = "GEN-<random>"
			}
			maskCodes(x)
		}
	}
}
