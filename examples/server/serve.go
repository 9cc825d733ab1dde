package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/webhook"
)

// run opens the store, bootstraps the project and credentials (printed to
// out), and serves the API on cfg.Addr until ctx is done; then it shuts the
// server down gracefully and returns nil.
func run(ctx context.Context, cfg config, out io.Writer, logger *slog.Logger) error {
	store, closeStore, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() {
		if err := closeStore(); err != nil {
			logger.Error("closing the store", "err", err)
		}
	}()
	eng, err := promo.New(store, promo.WithLogger(logger),
		promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: cfg.WebhookAllowLoopback}))
	if err != nil {
		return err
	}
	// The async runner generates and imports vouchers in the background;
	// Close lets it finish its chunk and hand its action back.
	if err := eng.StartAsyncRunner(context.Background(), async.Config{}); err != nil {
		return err
	}
	defer func() {
		if err := eng.Close(); err != nil {
			logger.Error("stopping the async runner and the webhook dispatcher", "err", err)
		}
	}()
	// The webhook dispatcher delivers the outbox to the projects' webhook
	// configurations; Close stops it too, letting tries in flight end.
	if err := eng.StartWebhookDispatcher(context.Background()); err != nil {
		return err
	}
	s, err := bootstrap(ctx, eng, cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	s.print(out)
	fmt.Fprintf(out, "listening on http://%s\n", ln.Addr())
	logger.Info("promo server started", "addr", ln.Addr().String(), "store", storeName(cfg), "project", s.ProjectID)
	return serve(ctx, ln, newServer(httpadapter.New(eng, httpadapter.WithLogger(logger)), logger), cfg.ShutdownTimeout, logger)
}

// newServer returns an http.Server with timeouts that keep slow or idle
// clients from holding connections forever.
func newServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// serve runs srv on ln until ctx is done, then shuts it down, waiting at
// most timeout for requests in flight.
func serve(ctx context.Context, ln net.Listener, srv *http.Server, timeout time.Duration, logger *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err // the listener failed before any shutdown
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", timeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

func storeName(cfg config) string {
	if cfg.DatabaseURL != "" {
		return "postgres"
	}
	return "memory"
}
