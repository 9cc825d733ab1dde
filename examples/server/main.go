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
