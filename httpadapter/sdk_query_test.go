package httpadapter_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVoucherListIDsForms lists vouchers by ids in each form the SDKs
// serialize an array query parameter: repeated (Python), with empty
// brackets, and indexed (the JS SDK's qs: ids[0]=a&ids[1]=b), which the
// server ignored before, answering every voucher.
func TestVoucherListIDsForms(t *testing.T) {
	h := newHarness(t)
	var ids []string
	for _, code := range []string{"IDS-A", "IDS-B", "IDS-C"} {
		v := h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers", body: `{"code":"` + code + `","discount":{"type":"PERCENT","percent_off":5}}`}, http.StatusOK)
		ids = append(ids, v["id"].(string))
	}
	a, c := url.QueryEscape(ids[0]), url.QueryEscape(ids[2])
	for _, query := range []string{
		"ids=" + a + "&ids=" + c,
		"ids[]=" + a + "&ids[]=" + c,
		"ids%5B0%5D=" + a + "&ids%5B1%5D=" + c,
		"ids[1]=" + c + "&ids[0]=" + a,
		"ids[0]=" + a + "&ids[x]=" + url.QueryEscape(ids[1]) + "&ids[1]=" + c, // a bad index is ignored
	} {
		t.Run(query, func(t *testing.T) {
			list := h.with(t).mustDo(req{method: http.MethodGet, target: "/v1/vouchers?order=created_at&" + query}, http.StatusOK)
			var got []string
			for _, v := range list["vouchers"].([]any) {
				got = append(got, v.(map[string]any)["code"].(string))
			}
			if diff := cmp.Diff([]string{"IDS-A", "IDS-C"}, got); diff != "" {
				t.Errorf("GET /v1/vouchers?%s codes (-want +got):\n%s", query, diff)
			}
		})
	}
}
