package server

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

// Run opens the store, bootstraps the project and credentials (printed to
// out), and serves the API with /healthz, /readyz and /metrics on cfg.Addr
// until ctx is done; then it shuts the server down gracefully and returns
// nil.
func Run(ctx context.Context, cfg Config, out io.Writer, logger *slog.Logger) error {
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
	given := cfg
	if cfg.KeysFile != "" {
		if cfg, err = readKeysFile(cfg); err != nil {
			return err
		}
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
	if cfg.KeysFile != "" && s.generatedAny() {
		if err := writeKeysFile(cfg.KeysFile, s, given); err != nil {
			return err
		}
		s.keysFile = cfg.KeysFile
	} else if reused && s.generatedAny() {
		logger.Warn("the project existed and new key pairs were generated: each such restart adds pairs; "+
			"set the credentials or "+envKeysFile+" to keep them", "project", s.ProjectID)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	defer func() { _ = ln.Close() }() // when the admin listener fails
	var admin net.Listener
	if cfg.AdminAddr != "" {
		if admin, err = net.Listen("tcp", cfg.AdminAddr); err != nil {
			return fmt.Errorf("admin address: %w", err)
		}
	}
	s.print(out)
	if admin != nil {
		fmt.Fprintf(out, "admin on http://%s\n", admin.Addr())
	}
	fmt.Fprintf(out, "listening on http://%s\n", ln.Addr())
	logger.Info("promo server started", "version", Version(), "addr", ln.Addr().String(), "admin", cfg.AdminAddr,
		"store", storeName(cfg), "project", s.ProjectID, "metrics", cfg.Metrics, "tracing", tp != nil)
	public, adminHandler := handlers(eng, cfg, reg, tp, logger)
	if admin == nil {
		return serve(ctx, ln, newServer(public, logger), cfg.ShutdownTimeout, logger)
	}
	// Both listeners stop together: when one fails, the other is shut down.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- serve(ctx, admin, newServer(adminHandler, logger), cfg.ShutdownTimeout, logger)
		cancel()
	}()
	err = serve(ctx, ln, newServer(public, logger), cfg.ShutdownTimeout, logger)
	cancel()
	return errors.Join(err, <-errc)
}

// handlers are the server's handlers: the public one serves the API,
// /healthz and /readyz, and /metrics when reg is set and there is no admin
// address; the admin one (for cfg.AdminAddr) serves /healthz, /readyz and
// /metrics when reg is set.
func handlers(eng *promo.Engine, cfg Config, reg *prometheus.Registry, tp trace.TracerProvider, logger *slog.Logger) (public, admin http.Handler) {
	opts := []httpadapter.Option{httpadapter.WithLogger(logger), httpadapter.WithPublicBaseURL(cfg.PublicURL)}
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
	health := telemetry.Health(eng, telemetry.RequireBackground())
	observe := func(mux *http.ServeMux, metrics bool) {
		mux.Handle("GET /healthz", health)
		mux.Handle("GET /readyz", health)
		if metrics && reg != nil {
			mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{
				ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelError)}))
		}
	}
	opts = append(opts, httpadapter.WithRequestTimeout(requestTimeout))
	mux := http.NewServeMux()
	observe(mux, cfg.AdminAddr == "")
	mux.Handle("/", httpadapter.New(eng, opts...))
	adminMux := http.NewServeMux()
	observe(adminMux, true)
	return mux, adminMux
}

// requestTimeout bounds a write request's work; writeTimeout, the server's
// bound on a whole request, leaves it room to send its answer. A write
// either commits and is answered, or is rolled back and answered 503 with
// Retry-After: the write timeout never cuts the connection of a committed
// write before its answer.
const (
	requestTimeout = 30 * time.Second
	writeTimeout   = 60 * time.Second
)

// newServer returns an http.Server with timeouts that keep slow or idle
// clients from holding connections forever.
func newServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      writeTimeout,
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

func storeName(cfg Config) string {
	if cfg.DatabaseURL != "" {
		return "postgres"
	}
	return "memory"
}
