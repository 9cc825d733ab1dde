// Command server serves promo's REST API (the Voucherify v2018-08-01
// interface) over the memory store, or over PostgreSQL when
// PROMO_DATABASE_URL is set:
//
//	go run ./examples/server
//
// Every setting is an environment variable and a flag (internal/server; `-h`
// lists them with their defaults); credentials not given are generated and
// printed once at start. Besides the API it serves /healthz, /readyz and
// /metrics. SIGINT or SIGTERM shuts the server down gracefully.
package main
