// Package imports holds the bulk async actions of the API: imports (CSV
// uploads and JSON item lists of products, SKUs, customers, vouchers and
// orders) and bulk and metadata updates. Each is an async action whose
// input rows are stored with it in pages (the port's ImportPages), read a
// chunk at a time by its worker, which records the rows that fail with
// their reason in the action's result.
package imports
