package telemetry

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/promoengine/promo/promotype"
)

// tracerName is the instrumentation scope of the engine's spans.
const tracerName = "github.com/promoengine/promo"

// Steps returns the observer of the engine's steps (pass it to
// promo.WithStep). With reg it records:
//
//   - promo_validations_total{kind,outcome}: kind "promotions" (POST
//     /v1/promotions/validation) or "stackable" (POST /v1/validations),
//     outcome "valid", "invalid" or "error";
//   - promo_redemptions_total{outcome}: registered now, counted once
//     redemptions report the redemption.redeem step;
//   - promo_async_actions_finished_total{type,outcome}: async actions run,
//     by type and outcome ("done", "failed", "released", "lease_lost",
//     "error");
//   - promo_webhook_deliveries_total{outcome}: webhook tries by outcome
//     ("delivered", "retry", "failed", "canceled", "interrupted");
//   - promo_engine_step_duration_seconds{step}: the duration of each step.
//
// With tp each step is a span ("promotion.validate", "async.action", ...)
// carrying the step's attributes, a child of the caller's span. Either may
// be nil; with both nil Steps returns nil, which costs the engine nothing.
func Steps(reg prometheus.Registerer, tp trace.TracerProvider) (promotype.StepFunc, error) {
	if reg == nil && tp == nil {
		return nil, nil
	}
	o := &steps{}
	if tp != nil {
		o.tracer = tp.Tracer(tracerName)
	}
	if reg != nil {
		o.validations = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promo_validations_total", Help: "Validations by kind and outcome.",
		}, []string{"kind", "outcome"})
		o.redemptions = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promo_redemptions_total", Help: "Redemptions by outcome.",
		}, []string{"outcome"})
		o.actions = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promo_async_actions_finished_total", Help: "Async actions run, by type and outcome.",
		}, []string{"type", "outcome"})
		o.deliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promo_webhook_deliveries_total", Help: "Webhook delivery tries by outcome.",
		}, []string{"outcome"})
		o.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "promo_engine_step_duration_seconds",
			Help:    "Duration of the engine's steps (validations, async actions, webhook tries).",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
		}, []string{"step"})
		for _, c := range []prometheus.Collector{o.validations, o.redemptions, o.actions, o.deliveries, o.duration} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return o.step, nil
}

type steps struct {
	tracer                                        trace.Tracer
	validations, redemptions, actions, deliveries *prometheus.CounterVec
	duration                                      *prometheus.HistogramVec
}

func (o *steps) step(ctx context.Context, step string, attrs ...slog.Attr) (context.Context, func(string, error)) {
	var span trace.Span
	if o.tracer != nil {
		kv := make([]attribute.KeyValue, 0, len(attrs))
		for _, a := range attrs {
			kv = append(kv, attribute.String("promo."+a.Key, a.Value.String()))
		}
		ctx, span = o.tracer.Start(ctx, step, trace.WithAttributes(kv...))
	}
	start := time.Now()
	return ctx, func(outcome string, err error) {
		if o.duration != nil {
			o.count(step, outcome, attrs)
			o.duration.WithLabelValues(step).Observe(time.Since(start).Seconds())
		}
		if span != nil {
			span.SetAttributes(attribute.String("promo.outcome", outcome))
			if err != nil {
				span.RecordError(err)
				span.SetStatus(codes.Error, err.Error())
			}
			span.End()
		}
	}
}

// count increments the counter of step's outcome.
func (o *steps) count(step, outcome string, attrs []slog.Attr) {
	switch step {
	case promotype.StepPromotionValidate:
		o.validations.WithLabelValues("promotions", outcome).Inc()
	case promotype.StepStackableValidate:
		o.validations.WithLabelValues("stackable", outcome).Inc()
	case promotype.StepRedeem:
		o.redemptions.WithLabelValues(outcome).Inc()
	case promotype.StepAsyncAction:
		typ := ""
		for _, a := range attrs {
			if a.Key == "type" {
				typ = a.Value.String()
			}
		}
		o.actions.WithLabelValues(typ, outcome).Inc()
	case promotype.StepWebhookTry:
		o.deliveries.WithLabelValues(outcome).Inc()
	}
}
