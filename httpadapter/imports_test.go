package httpadapter_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo/imports"
)

// csvBoundary is the multipart boundary of the uploads of the tests.
const csvBoundary = "promo-csv-boundary"

// csvContentType is the Content-Type of an upload built by multipartCSV.
const csvContentType = "multipart/form-data; boundary=" + csvBoundary

// multipartCSV is a multipart/form-data body whose part file is csv.
func multipartCSV(csv string) string {
	return "--" + csvBoundary + "\r\n" +
		"Content-Disposition: form-data; name=\"file\"; filename=\"import.csv\"\r\n" +
		"Content-Type: text/csv\r\n\r\n" + csv + "\r\n--" + csvBoundary + "--\r\n"
}

func csvReq(target, csv string) req {
	return req{method: http.MethodPost, target: target, body: multipartCSV(csv), contentType: csvContentType}
}

// Isolation rows of the imports (isolation_test.go): project B imports
// into A's campaign.
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"import CSV into campaign", http.MethodPost, "/v1/campaigns/{campaignId}/importCSV", multipartCSV("Code\nISO-1\n")},
	)
}

// TestImportsHTTP starts each bulk action over HTTP, runs it and reads its
// result (goldens under testdata/imports, validated against the OpenAPI).
func TestImportsHTTP(t *testing.T) {
	h := newHarness(t)
	h.mustDo(req{method: http.MethodPost, target: "/v1/campaigns", body: `{"name":"Gifts","campaign_type":"GIFT_VOUCHERS","type":"STATIC","vouchers_count":1,"voucher":{"gift":{"amount":100}}}`}, http.StatusOK)
	h.runActions()
	for _, s := range []struct {
		name string
		r    req
		want int
	}{
		{"products_csv", csvReq("/v1/products/importCSV", "name,source_id,price,attributes,color\nShirt,shirt,2000,\"color,size\",red\n,nameless,1,,\nCap,cap,abc,,\n"), 200},
		{"skus_csv", csvReq("/v1/skus/importCSV", "product_id,source_id,sku,price,attributes\nshirt,shirt-red,Red shirt,2100,\"{\"\"color\"\":\"\"red\"\"}\"\nnope,x-1,X,1,\n"), 200},
		{"customers_csv", csvReq("/v1/customers/importCSV", "Source_id,Name,Email,Address_City,Tier\nann,Ann,ann@example.com,Paris,gold\n"), 202},
		{"vouchers_csv", csvReq("/v1/vouchers/importCSV", "Code,Voucher Type,Value,Discount Type,Expiration Date\nTEN-OFF,DISCOUNT_VOUCHER,10,PERCENT,2030-01-01\nGIFT-1,GIFT_VOUCHER,5000,,\nBAD,DISCOUNT_VOUCHER,x,,\n"), 202},
		{"campaign_csv", csvReq("/v1/campaigns/Gifts/importCSV", "Code,Value,Voucher Type\nGIFTS-1,700,GIFT_VOUCHER\nTEN-OFF,,\n"), 200},
		{"vouchers_import", req{method: http.MethodPost, target: "/v1/vouchers/import",
			body: `[{"code":"JSON-1","type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"metadata":{"origin":"api"}},{"code":"GIFT-1","gift":{"amount":100}}]`}, 202},
		{"products_bulk", req{method: http.MethodPost, target: "/v1/products/bulk/async", body: `[{"source_id":"shirt","name":"T-shirt"},{"source_id":"new-one","price":-1}]`}, 202},
		{"customers_bulk", req{method: http.MethodPost, target: "/v1/customers/bulk/async", body: `[{"source_id":"ann","name":"Anna"}]`}, 202},
		{"vouchers_bulk", req{method: http.MethodPost, target: "/v1/vouchers/bulk/async", body: `[{"code":"TEN-OFF","metadata":{"channel":"mail"}},{"code":"NOPE","metadata":{"channel":"mail"}}]`}, 202},
		{"products_metadata", req{method: http.MethodPost, target: "/v1/products/metadata/async", body: `{"source_ids":["shirt","cap"],"metadata":{"label":true}}`}, 202},
		{"customers_metadata", req{method: http.MethodPost, target: "/v1/customers/metadata/async", body: `{"source_ids":["ann"],"metadata":{"vip":true}}`}, 202},
		{"vouchers_metadata", req{method: http.MethodPost, target: "/v1/vouchers/metadata/async", body: `{"codes":["TEN-OFF"],"metadata":{"wave":2}}`}, 202},
		{"orders_import", req{method: http.MethodPost, target: "/v1/orders/import", body: `[{"source_id":"hist-1","status":"PAID","amount":2000,"customer":{"source_id":"ann"}},{"source_id":"hist-2","amount":-5}]`}, 200},
	} {
		rec := h.golden("imports/"+s.name, s.r)
		if rec.Code != s.want {
			t.Fatalf("%s = %d, want %d\n%s", s.name, rec.Code, s.want, rec.Body)
		}
		var ref struct {
			ID string `json:"async_action_id"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &ref); err != nil || ref.ID == "" {
			t.Fatalf("%s: %s", s.name, rec.Body)
		}
		h.runActions()
		got := h.golden("imports/"+s.name+"_result", req{method: http.MethodGet, target: "/v1/async-actions/" + ref.ID})
		if got.Code != http.StatusOK || !strings.Contains(got.Body.String(), `"status":"DONE"`) {
			t.Errorf("%s result: %s", s.name, got.Body)
		}
	}
	h.run(t, "imports", []step{
		{"get_imported_product", req{method: http.MethodGet, target: "/v1/products/shirt"}, 200},
		{"get_imported_voucher", req{method: http.MethodGet, target: "/v1/vouchers/TEN-OFF"}, 200},
	})
}

// importErrors are refused uploads and bodies: nothing is enqueued.
func TestImportErrorsHTTP(t *testing.T) {
	h := newHarness(t)
	h.run(t, "imports", []step{
		{"error_not_multipart", req{method: http.MethodPost, target: "/v1/products/importCSV", body: `{"file":"x"}`}, 415},
		{"error_no_file_part", req{method: http.MethodPost, target: "/v1/products/importCSV", contentType: csvContentType,
			body: "--" + csvBoundary + "\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--" + csvBoundary + "--\r\n"}, 400},
		{"error_too_large", csvReq("/v1/vouchers/importCSV", "Code\n"+strings.Repeat("A", imports.MaxCSVBytes+1)+"\n"), 413},
		{"error_no_code_column", csvReq("/v1/vouchers/importCSV", "Name\nx\n"), 400},
		{"error_campaign_not_found", csvReq("/v1/campaigns/Nope/importCSV", "Code\nX\n"), 404},
		{"error_bulk_not_array", req{method: http.MethodPost, target: "/v1/products/bulk/async", body: `{"source_id":"x"}`}, 400},
		{"error_bulk_no_source_id", req{method: http.MethodPost, target: "/v1/customers/bulk/async", body: `[{"name":"x"}]`}, 400},
		{"error_metadata_empty_key", req{method: http.MethodPost, target: "/v1/vouchers/metadata/async", body: `{"codes":["A",""],"metadata":{"a":1}}`}, 400},
		{"error_vouchers_import_empty", req{method: http.MethodPost, target: "/v1/vouchers/import", body: `[]`}, 400},
		{"async_list_empty", req{method: http.MethodGet, target: "/v1/async-actions"}, 200},
	})
}
