package httpadapter_test

import "net/http"

// Isolation rows of orders and customers (isolation_test.go): project B
// reads, updates and upserts A's order and customer, and joins an order to
// A's product, by id and by source id.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		p := h.mustDo(req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"iso-product","price":100}`}, http.StatusOK)
		ids["orderProductId"] = p["id"].(string)
		ids["orderProductSourceId"] = "iso-product"
		o := h.mustDo(req{method: http.MethodPost, target: "/v1/orders",
			body: `{"source_id":"iso-order","items":[{"source_id":"iso-product"}],"customer":{"source_id":"iso-customer"}}`}, http.StatusOK)
		ids["orderId"] = o["id"].(string)
		ids["orderSourceId"] = "iso-order"
		ids["customerId"] = o["customer_id"].(string)
		ids["customerSourceId"] = "iso-customer"
	})
	isolationRows = append(isolationRows,
		isolationRow{"get order", http.MethodGet, "/v1/orders/{orderId}", ""},
		isolationRow{"get order by source id", http.MethodGet, "/v1/orders/{orderSourceId}", ""},
		isolationRow{"update order", http.MethodPut, "/v1/orders/{orderId}", `{"status":"CANCELED"}`},
		isolationRow{"update order by source id", http.MethodPut, "/v1/orders/{orderSourceId}", `{"status":"CANCELED"}`},
		isolationRow{"upsert order by id", http.MethodPost, "/v1/orders", `{"id":"{orderId}","status":"CANCELED"}`},
		isolationRow{"order naming A's customer", http.MethodPost, "/v1/orders", `{"customer_id":"{customerId}"}`},
		isolationRow{"order naming A's customer object", http.MethodPost, "/v1/orders", `{"customer":{"id":"{customerId}"}}`},
		isolationRow{"get customer", http.MethodGet, "/v1/customers/{customerId}", ""},
		isolationRow{"get customer by source id", http.MethodGet, "/v1/customers/{customerSourceId}", ""},
		isolationRow{"upsert customer by id", http.MethodPost, "/v1/customers", `{"id":"{customerId}","name":"Taken"}`},
	)
	isolationJoins = append(isolationJoins,
		isolationRow{"order item of A's product", http.MethodPost, "/v1/orders", `{"items":[{"product_id":"{orderProductId}"}]}`},
		isolationRow{"order item of A's product source id", http.MethodPost, "/v1/orders", `{"items":[{"source_id":"{orderProductSourceId}"}]}`},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list orders", http.MethodGet, "/v1/orders", ""},
	)
}
