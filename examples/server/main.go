// Command server serves promo's REST API (the Voucherify v2018-08-01
// interface) over the memory store, or over PostgreSQL when
// PROMO_DATABASE_URL is set:
//
//	go run ./examples/server
//
// Every setting is an environment variable and a flag (config.go; `-h`
// lists them with their defaults); credentials not given are generated and
// printed once at start. Besides the API it serves /healthz, /readyz and
// /metrics. SIGINT or SIGTERM shuts the server down gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := loadConfig(os.Getenv, os.Args[1:], os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "promo server: invalid configuration:", err)
		os.Exit(2)
	case cfg.Version:
		fmt.Println("promo server", version())
		return
	}
	if err := run(ctx, cfg, os.Stdout, newLogger(cfg, os.Stderr)); err != nil {
		fmt.Fprintln(os.Stderr, "promo server:", err)
		os.Exit(1)
	}
}

// newLogger is the server's logger: cfg's level and format on w.
func newLogger(cfg config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
