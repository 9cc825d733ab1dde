// Package server is the promo server shared by the promo command (cmd/promo)
// and the example server (examples/server): configuration from flags and
// environment variables, the store (memory or PostgreSQL, migrated or
// checked), the project and credentials bootstrap, the REST API with
// health and metrics, and the migrate and version commands.
package server
