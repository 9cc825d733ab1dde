package httpadapter_test

import "net/http"

// Isolation rows of the customer endpoints beyond the read and upsert
// (isolation_orders_test.go holds those and the seed of {customerId} and
// {customerSourceId}): project B updates, deletes and permanently deletes
// A's customer, by id and by source id, and lists customers; and of the
// management project endpoints: a management key granted project B only
// reads, updates and deletes project A, and lists projects.
func init() {
	isolationRows = append(isolationRows,
		isolationRow{"update customer", http.MethodPut, "/v1/customers/{customerId}", `{"name":"Taken"}`},
		isolationRow{"update customer by source id", http.MethodPut, "/v1/customers/{customerSourceId}", `{"name":"Taken"}`},
		isolationRow{"delete customer", http.MethodDelete, "/v1/customers/{customerId}", ""},
		isolationRow{"delete customer by source id", http.MethodDelete, "/v1/customers/{customerSourceId}", ""},
		isolationRow{"permanently delete customer", http.MethodPost, "/v1/customers/{customerId}/permanent-deletion", ""},
		isolationRow{"permanently delete customer by source id", http.MethodPost, "/v1/customers/{customerSourceId}/permanent-deletion", ""},
	)
	isolationLists = append(isolationLists,
		isolationRow{"list customers", http.MethodGet, "/v1/customers", ""},
		isolationRow{"list customers by name", http.MethodGet, "/v1/customers?name=iso-customer", ""},
	)
}
