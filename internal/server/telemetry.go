package server

import (
	"context"
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/extra/bunotel"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// newTracerProvider returns the tracer provider of OTEL_TRACES_EXPORTER:
// nil for "none" (tracing off: nothing is wrapped or recorded), an OTLP/HTTP
// exporter for "otlp", which reads OTEL_EXPORTER_OTLP_* itself; the sampler
// (OTEL_TRACES_SAMPLER) and the resource (OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES) come from the environment too. shutdown
// flushes the spans left.
func newTracerProvider(ctx context.Context, cfg Config) (tp trace.TracerProvider, shutdown func(context.Context) error, err error) {
	if cfg.TracesExporter != "otlp" {
		return nil, func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, err
	}
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(resource.Default()))
	// Incoming W3C trace context joins the caller's trace (otelhttp reads
	// the global propagator; the server is the program, so it may set it).
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return sdk, sdk.Shutdown, nil
}

// instrumentDB adds Bun's OpenTelemetry hook (one span per query) when
// tracing is on. In place: bunstore keys its query deadline by the
// *bun.DB, and bun's WithQueryHook returns a copy.
func instrumentDB(db *bun.DB, tp trace.TracerProvider) {
	if tp != nil {
		*db = *db.WithQueryHook(bunotel.NewQueryHook(bunotel.WithTracerProvider(tp), bunotel.WithDBName("promo")))
	}
}

// newRegistry is the server's metrics registry: the Go runtime and the
// process, and the database pool when there is one.
func newRegistry(db *sql.DB) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		reg.MustRegister(collectors.NewDBStatsCollector(db, "promo"))
	}
	return reg
}

// flushTimeout bounds the flush of spans at exit.
const flushTimeout = 5 * time.Second
