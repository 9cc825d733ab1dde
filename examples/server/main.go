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

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/promoengine/promo/internal/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code := server.Main(ctx, "server", os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
