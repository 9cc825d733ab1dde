package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/trace"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/telemetry"
	"github.com/promoengine/promo/webhook"
)

// run opens the store, bootstraps the project and credentials (printed to
// out), and serves the API with /healthz, /readyz and /metrics on cfg.Addr
// until ctx is done; then it shuts the server down gracefully and returns
// nil.
func run(ctx context.Context, cfg config, out io.Writer, logger *slog.Logger) error {
	tp, flush, err := newTracerProvider(ctx, cfg)
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer func() {
		fctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
		defer cancel()
		if err := flush(fctx); err != nil {
			logger.Error("flushing traces", "err", err)
		}
	}()
	st, err := openStore(ctx, cfg, tp)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.close(); err != nil {
			logger.Error("closing the store", "err", err)
		}
	}()
	var reg *prometheus.Registry
	var sqlDB *sql.DB
	if st.db != nil {
		sqlDB = st.db.DB
	}
	if cfg.Metrics {
		reg = newRegistry(sqlDB)
	}
	engOpts := []promo.Option{promo.WithLogger(logger),
		promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: cfg.WebhookAllowLoopback})}
	var stepReg prometheus.Registerer
	if reg != nil {
		stepReg = reg
	}
	steps, err := telemetry.Steps(stepReg, tp)
	if err != nil {
		return err
	}
	if steps != nil {
		engOpts = append(engOpts, promo.WithStep(steps))
	}
	eng, err := promo.New(st.store, engOpts...)
	if err != nil {
		return err
	}
	if reg != nil {
		reg.MustRegister(telemetry.NewCollector(eng))
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
	reused := false
	if cfg.ProjectID == "" {
		if cfg.ProjectID, err = existingProject(ctx, st.db); err != nil {
			return err
		}
		reused = cfg.ProjectID != ""
	}
	s, err := bootstrap(ctx, eng, cfg)
	if err != nil {
		return err
	}
	s.reused = reused
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	s.print(out)
	fmt.Fprintf(out, "listening on http://%s\n", ln.Addr())
	logger.Info("promo server started", "version", version(), "addr", ln.Addr().String(), "store", storeName(cfg),
		"project", s.ProjectID, "metrics", cfg.Metrics, "tracing", tp != nil)
	return serve(ctx, ln, newServer(handler(eng, cfg, reg, tp, logger), logger), cfg.ShutdownTimeout, logger)
}

// handler is the server's handler: the API, /healthz and /readyz, and
// /metrics when reg is set.
func handler(eng *promo.Engine, cfg config, reg *prometheus.Registry, tp trace.TracerProvider, logger *slog.Logger) http.Handler {
	opts := []httpadapter.Option{httpadapter.WithLogger(logger)}
	if cfg.UniformLists {
		opts = append(opts, httpadapter.WithUniformLists())
	}
	if cfg.AccessLog {
		opts = append(opts, httpadapter.WithAccessLog(logger))
	}
	if reg != nil {
		opts = append(opts, httpadapter.WithMetrics(reg))
	}
	if tp != nil {
		opts = append(opts, httpadapter.WithTracerProvider(tp))
	}
	mux := http.NewServeMux()
	health := telemetry.Health(eng, telemetry.RequireBackground())
	mux.Handle("GET /healthz", health)
	mux.Handle("GET /readyz", health)
	if reg != nil {
		mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{
			ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelError)}))
	}
	mux.Handle("/", httpadapter.New(eng, opts...))
	return mux
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
