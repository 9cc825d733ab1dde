package httpadapter_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// orderBody is an order of three lines: the T-shirt by id (2 × 2500), its
// red SKU by source id with the quantity as a string (1 × its SKU price
// 2600), and the shipping product (no catalog price) priced by the request;
// a new customer by source id.
func orderBody(teeID string) string {
	return `{"source_id":"web-1","items":[` +
		`{"product_id":"` + teeID + `","quantity":2},` +
		`{"source_id":"tee-red-m","related_object":"sku","quantity":"1","metadata":{"gift_wrap":true}},` +
		`{"product_id":"prod_5h1pp1ng","price":500}],` +
		`"metadata":{"channel":"web"},"customer":{"source_id":"alice","name":"Alice","email":"alice@example.com"},"unknown_field":1}`
}

// seedOrders creates the catalog, the order "web-1" (customer alice) and the
// order "web-2" (customer bob, PAID, an amount without items).
func (h *harness) seedOrders() {
	h.t.Helper()
	h.seedCatalog()
	tee := h.mustDo(req{method: http.MethodGet, target: "/v1/products/tee"}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/orders", body: orderBody(tee["id"].(string))}, http.StatusOK)
	h.mustDo(req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"web-2","status":"PAID","amount":10000,"customer":{"source_id":"bob"}}`}, http.StatusOK)
}

func TestOrders(t *testing.T) {
	h := newHarness(t)
	h.seedCatalog()
	tee := h.mustDo(req{method: http.MethodGet, target: "/v1/products/tee"}, http.StatusOK)["id"].(string)
	h.run(t, "orders", []step{
		{"create", req{method: http.MethodPost, target: "/v1/orders", body: orderBody(tee)}, 200},
		{"get_by_id", req{method: http.MethodGet, target: "/v1/orders/ord_00000000000000000004"}, 200},
		{"get_by_source_id", req{method: http.MethodGet, target: "/v1/orders/web-1"}, 200},
		{"create_upsert_by_source_id", req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"web-1","status":"PAID","referrer":{"source_id":"bob"}}`}, 200},
		{"update_status", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"status":"FULFILLED"}`}, 200},
		{"update_created_at_metadata_amounts", req{method: http.MethodPut, target: "/v1/orders/ord_00000000000000000004",
			body: `{"created_at":"2025-12-24T18:00:00Z","metadata":{"channel":"store"},"amount":12000,"discount_amount":1500,"id":"ignored"}`}, 200},
		{"update_items", req{method: http.MethodPut, target: "/v1/orders/web-1",
			body: `{"items":[{"source_id":"tee","quantity":3,"discount_amount":500},{"price":250,"quantity":"4"}]}`}, 200},
		{"update_clear_customer_and_referrer", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"customer_id":null,"referrer_id":null,"status":"CANCELED"}`}, 200},
		{"update_customer_by_id", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"customer_id":"alice"}`}, 200},
		{"create_amount_only", req{method: http.MethodPost, target: "/v1/orders", body: `{"amount":20050,"initial_amount":20050,"status":"PAID","customer":{"source_id":"bob"}}`}, 200},
		{"create_upsert_by_id", req{method: http.MethodPost, target: "/v1/orders", body: `{"id":"ord_00000000000000000004","source_id":"web-1b"}`}, 200},
		{"list", req{method: http.MethodGet, target: "/v1/orders"}, 200},
		{"list_page", req{method: http.MethodGet, target: "/v1/orders?limit=1&page=2&order=created_at"}, 200},
		{"list_filter_status", req{method: http.MethodGet, target: "/v1/orders?filters[status][conditions][$in][0]=PAID&filters[status][conditions][$in][1]=FULFILLED"}, 200},
		{"list_filter_customer", req{method: http.MethodGet, target: "/v1/orders?filters[customer_id][conditions][$is]=cust_00000000000000000005&filters[created_at][conditions][$after]=2025-12-01"}, 200},
		{"customer_get_by_source_id", req{method: http.MethodGet, target: "/v1/customers/alice"}, 200},
		{"customer_get_by_id", req{method: http.MethodGet, target: "/v1/customers/cust_00000000000000000005"}, 200},
		{"customer_create", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"carol","name":"Carol","phone":"+48 600 100 200",` +
			`"birthdate":"1991-04-05","address":{"city":"Warsaw","country":"PL","line_1":"Main 1","postal_code":"00-001"},"metadata":{"vip":true}}`}, 200},
		{"customer_upsert_by_source_id", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice","description":"regular","metadata":{"tier":"gold"}}`}, 200},
		{"customer_upsert_by_id", req{method: http.MethodPost, target: "/v1/customers", body: `{"id":"cust_00000000000000000006","source_id":"bob-2"}`}, 200},
	})
}

// orderErrors are failing requests on a harness seeded by seedOrders.
func orderErrors() []step {
	var many strings.Builder
	many.WriteString(`{"source_id":"too-big","customer":{"source_id":"dave"},"items":[`)
	for i := range 501 {
		if i > 0 {
			many.WriteByte(',')
		}
		many.WriteString(`{"source_id":"tee","quantity":1}`)
	}
	many.WriteString(`]}`)
	return []step{
		{"items_501", req{method: http.MethodPost, target: "/v1/orders", body: many.String()}, 400},
		{"items_501_update", req{method: http.MethodPut, target: "/v1/orders/web-1", body: many.String()}, 400},
		{"bad_status", req{method: http.MethodPost, target: "/v1/orders", body: `{"status":"SHIPPED"}`}, 400},
		{"bad_status_update", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"status":"paid"}`}, 400},
		{"sku_of_another_product", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee-red-m","related_object":"sku","product_id":"prod_5h1pp1ng"}]}`}, 400},
		{"unknown_customer_id", req{method: http.MethodPost, target: "/v1/orders", body: `{"customer_id":"nobody"}`}, 404},
		{"unknown_customer_object_id", req{method: http.MethodPost, target: "/v1/orders", body: `{"customer":{"id":"cust_nope"}}`}, 404},
		{"quantity_abc", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee"},{"source_id":"tee","quantity":"abc"}]}`}, 400},
		{"quantity_fraction", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee","quantity":1.5}]}`}, 400},
		{"quantity_zero", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee","quantity":0}]}`}, 400},
		{"wrong_type_amount", req{method: http.MethodPost, target: "/v1/orders", body: `{"amount":"100"}`}, 400},
		{"wrong_type_amount_fraction", req{method: http.MethodPost, target: "/v1/orders", body: `{"amount":10.5}`}, 400},
		{"wrong_type_items", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":{"source_id":"tee"}}`}, 400},
		{"wrong_type_item_price", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee"},{"source_id":"tee","price":"10"}]}`}, 400},
		{"wrong_type_customer", req{method: http.MethodPost, target: "/v1/orders", body: `{"customer":"alice"}`}, 400},
		{"wrong_type_source_id", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"source_id":12}`}, 400},
		{"wrong_type_metadata", req{method: http.MethodPost, target: "/v1/orders", body: `{"metadata":["a"]}`}, 400},
		{"wrong_type_created_at", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"created_at":"yesterday"}`}, 400},
		{"negative_amount", req{method: http.MethodPost, target: "/v1/orders", body: `{"amount":-1}`}, 400},
		{"negative_item_price", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"price":-5}]}`}, 400},
		{"bad_related_object", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee","related_object":"bundle"}]}`}, 400},
		{"discount_above_amount", req{method: http.MethodPut, target: "/v1/orders/web-2", body: `{"discount_amount":10001}`}, 400},
		{"item_discount_above_amount", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"source_id":"tee","discount_amount":2501}]}`}, 400},
		{"amount_too_large", req{method: http.MethodPost, target: "/v1/orders", body: `{"amount":9007199254740992}`}, 400},
		{"bad_customer_birthdate", req{method: http.MethodPost, target: "/v1/orders", body: `{"customer":{"source_id":"dave","birthdate":"1990-02-30"}}`}, 400},
		{"invalid_json", req{method: http.MethodPost, target: "/v1/orders", body: `{"items": [}`}, 400},
		{"not_object", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `[]`}, 400},
		{"not_found_get", req{method: http.MethodGet, target: "/v1/orders/nope"}, 404},
		{"not_found_update", req{method: http.MethodPut, target: "/v1/orders/nope", body: `{"status":"PAID"}`}, 404},
		{"not_found_upsert_id", req{method: http.MethodPost, target: "/v1/orders", body: `{"id":"ord_nope","status":"PAID"}`}, 404},
		{"duplicate_source_id_update", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"source_id":"web-2"}`}, 409},
		{"method_not_allowed_item", req{method: http.MethodDelete, target: "/v1/orders/web-1"}, 405},
		{"method_not_allowed_collection", req{method: http.MethodPut, target: "/v1/orders", body: `{}`}, 405},
		{"unauthorized", req{method: http.MethodPost, target: "/v1/orders", body: `{}`, creds: credsNone}, 401},
		{"unsupported_media_type", req{method: http.MethodPost, target: "/v1/orders", body: `status=PAID`, contentType: "application/x-www-form-urlencoded"}, 415},
		{"list_bad_filter_field", req{method: http.MethodGet, target: "/v1/orders?filters[amount][conditions][$is]=1"}, 400},
		{"list_bad_order", req{method: http.MethodGet, target: "/v1/orders?order=-amount"}, 400},
		{"list_limit_too_big", req{method: http.MethodGet, target: "/v1/orders?limit=101"}, 400},
		{"customer_not_found", req{method: http.MethodGet, target: "/v1/customers/nobody"}, 404},
		{"customer_upsert_unknown_id", req{method: http.MethodPost, target: "/v1/customers", body: `{"id":"cust_nope","name":"x"}`}, 404},
		{"customer_bad_birthdate", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"dave","birthdate":"02/03/1990"}`}, 400},
		{"customer_wrong_type", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"dave","address":"Warsaw"}`}, 400},
		{"customer_duplicate_source_id", req{method: http.MethodPost, target: "/v1/customers", body: `{"id":"cust_00000000000000000007","source_id":"alice"}`}, 409},
		{"customer_method_not_allowed", req{method: http.MethodPatch, target: "/v1/customers/alice"}, 405},
	}
}

// TestOrderUnknownCatalogItems: an item naming a product or SKU the catalog
// lacks is kept as sent, priced from the request, as the hosted service
// stores it.
func TestOrderUnknownCatalogItems(t *testing.T) {
	h := newHarness(t)
	h.seedOrders()
	h.run(t, "orders/unknown_items", []step{
		{"unknown_product", req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"web-3","items":[{"source_id":"tee"},{"product_id":"prod_nope","quantity":2,"price":1500}]}`}, 200},
		{"unknown_sku", req{method: http.MethodPost, target: "/v1/orders", body: `{"items":[{"sku_id":"sku_nope","quantity":1,"price":700}]}`}, 200},
		{"unknown_product_source_id", req{method: http.MethodPut, target: "/v1/orders/web-1", body: `{"items":[{"source_id":"hat","related_object":"product","amount":900}]}`}, 200},
		{"get_stored", req{method: http.MethodGet, target: "/v1/orders/web-3"}, 200},
	})
}

func TestOrderErrors(t *testing.T) {
	h := newHarness(t)
	h.seedOrders()
	h.run(t, "orders/errors", orderErrors())
}

// ordersSnapshot reads every order and customer the seed made.
func (h *harness) ordersSnapshot() map[string]any {
	h.t.Helper()
	out := map[string]any{"/v1/orders": h.mustDo(req{method: http.MethodGet, target: "/v1/orders?limit=100"}, http.StatusOK)}
	for _, c := range []string{"alice", "bob"} {
		out[c] = h.mustDo(req{method: http.MethodGet, target: "/v1/customers/" + c}, http.StatusOK)
	}
	for _, c := range []string{"dave", "carol"} {
		h.mustDo(req{method: http.MethodGet, target: "/v1/customers/" + c}, http.StatusNotFound)
	}
	return out
}

// Every failing order request leaves the orders and customers as they were.
func TestOrderErrorsChangeNothing(t *testing.T) {
	h := newHarness(t)
	h.seedOrders()
	before := h.ordersSnapshot()
	for _, s := range orderErrors() {
		h.clock.Advance(1e9)
		if rec := h.do(s.req); rec.Code < 400 {
			t.Errorf("%s: %s %s = %d, want an error", s.name, s.req.method, s.req.target, rec.Code)
		}
	}
	if diff := cmp.Diff(before, h.ordersSnapshot()); diff != "" {
		t.Errorf("data changed (-before +after):\n%s", diff)
	}
}

// A 500-item order is accepted, stored and read back whole.
func TestOrder500Items(t *testing.T) {
	h := newHarness(t)
	h.seedCatalog()
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 500 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"source_id":"tee-red-m","related_object":"sku","quantity":%d}`, 1+i%3)
	}
	b.WriteString(`]}`)
	o := h.mustDo(req{method: http.MethodPost, target: "/v1/orders", body: b.String()}, http.StatusOK)
	got := h.mustDo(req{method: http.MethodGet, target: "/v1/orders/" + o["id"].(string)}, http.StatusOK)
	if n := len(got["items"].([]any)); n != 500 {
		t.Fatalf("%d items, want 500", n)
	}
	// 500 lines of 1, 2, 3 units (167, 167, 166 of each) at 2600.
	if want := float64(2600 * (167*1 + 167*2 + 166*3)); got["amount"] != want || got["total_amount"] != want {
		t.Errorf("amount %v total %v, want %v", got["amount"], got["total_amount"], want)
	}
	if d := cmp.Diff(o, got); d != "" {
		t.Errorf("GET differs from the create answer (-create +get):\n%s", d)
	}
}

// FuzzCreateOrder: order create and update bodies, and customer bodies,
// never make a 5xx. It runs through the adapter's handler (routing, the
// body's decoder and checks, the order and customer services) over a
// memory store kept small (freshHarness), at over a thousand inputs a
// second (BENCHMARKS.md). Should minimizing a failing input stall, bound
// it: go test -run XXX -fuzz FuzzCreateOrder -fuzzminimizetime 30s ./httpadapter/
func FuzzCreateOrder(f *testing.F) {
	for _, s := range []string{orderBody("prod_00000000000000000002"), `{}`, `{"items":[]}`, `{"items":null,"amount":null}`,
		`{"id":"ord_00000000000000000004","status":"PAID"}`, `{"source_id":"web-1","customer_id":null,"referrer_id":"bob"}`,
		`{"items":[{"quantity":"1e3"},{"quantity":"\u0031"},{"quantity":true}]}`, `{"items":[{"source_id":"tee","price":9007199254740991,"quantity":9007199254740991}]}`,
		`{"customer":{"id":"","source_id":"","address":{"city":null}}}`, `{"items":[{"sku_id":"tee-red-m","product":{"override":true,"price":-1}}]}`,
		`{"amount":5,"discount_amount":5,"items":[{"amount":5,"discount_amount":5}]}`, `{"created_at":"2026-01-01","source_id":"\u0000"}`,
		"{\"source_id\":\"\xff\"}", `[`, `{"items":[{"related_object":"sku","source_id":"5h1pp1ng"}]}`} {
		f.Add(s)
	}
	build := func(t testing.TB) *harness {
		h := newHarness(t)
		h.seedOrders()
		return h
	}
	hs := &freshHarness{h: build(f), build: func(t *testing.T) *harness { return build(t) }}
	f.Fuzz(func(t *testing.T, body string) {
		h := hs.get(t)
		fuzzQuick(t, h, http.MethodPost, "/v1/orders", body)
		fuzzQuick(t, h, http.MethodPut, "/v1/orders/web-2", body)
		fuzzQuick(t, h, http.MethodPost, "/v1/customers", body)
	})
}
