// Package telemetry makes a promo engine operable: readiness and liveness
// handlers (Health), Prometheus collectors over the engine (NewCollector),
// and the observer of the engine's steps (Steps) that records their
// metrics and, given an OpenTelemetry tracer provider, their spans.
//
// Nothing here is global: metrics go to the prometheus.Registerer the
// application passes, spans to its trace.TracerProvider. The HTTP side
// (request metrics, server spans, access log) is httpadapter's
// WithMetrics, WithTracerProvider and WithAccessLog.
//
//	reg := prometheus.NewRegistry()
//	steps, err := telemetry.Steps(reg, tp) // tp may be nil: metrics only
//	eng, err := promo.New(store, promo.WithStep(steps))
//	reg.MustRegister(telemetry.NewCollector(eng))
//	mux.Handle("/", httpadapter.New(eng, httpadapter.WithMetrics(reg)))
//	mux.Handle("/healthz", telemetry.Health(eng))
//	mux.Handle("/readyz", telemetry.Health(eng))
//	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
package telemetry
