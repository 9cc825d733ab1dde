// Command server serves promo's REST API (the Voucherify v2018-08-01
// interface) over the memory store, or over PostgreSQL when
// PROMO_DATABASE_URL is set:
//
//	go run ./examples/server
//
// Configuration comes from the environment (see config.go); credentials not
// given are generated and printed once at start. One flag,
// -webhook-allow-loopback, lets webhooks target this machine (as
// PROMO_WEBHOOK_ALLOW_LOOPBACK=1 does). SIGINT or SIGTERM shuts the server
// down gracefully.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	cfg, err := parseFlags(loadConfig(os.Getenv), os.Args[1:])
	if err != nil {
		os.Exit(2) // the flag package printed the error and the usage
	}
	if err := run(ctx, cfg, os.Stdout, logger); err != nil {
		fmt.Fprintln(os.Stderr, "promo server:", err)
		os.Exit(1)
	}
}
