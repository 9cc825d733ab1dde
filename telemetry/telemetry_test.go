package telemetry_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/telemetry"
)

func get(t *testing.T, h http.Handler, path string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("GET %s: %v in %q", path, err, w.Body)
	}
	return w.Code, body
}

// TestHealth: liveness is always 200; readiness checks the store and,
// with RequireBackground, that the async runner and the webhook
// dispatcher run.
func TestHealth(t *testing.T) {
	eng, err := promo.New(memory.New())
	if err != nil {
		t.Fatal(err)
	}
	plain, strict := telemetry.Health(eng), telemetry.Health(eng, telemetry.RequireBackground())
	if code, body := get(t, strict, "/healthz"); code != 200 || body["status"] != "ok" {
		t.Errorf("/healthz = %d %v, want 200 ok", code, body)
	}
	if code, _ := get(t, plain, "/readyz"); code != 200 {
		t.Errorf("/readyz without RequireBackground = %d, want 200", code)
	}
	code, body := get(t, strict, "/readyz")
	want := map[string]any{"status": "unavailable", "checks": map[string]any{"store": "ok", "async_runner": "stopped", "webhook_dispatcher": "stopped"}}
	if code != 503 || !cmp.Equal(body, want) {
		t.Errorf("/readyz before start = %d %v, want 503 %v", code, body, want)
	}
	if err := eng.StartAsyncRunner(context.Background(), async.Config{}); err != nil {
		t.Fatal(err)
	}
	if err := eng.StartWebhookDispatcher(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, strict, "/readyz"); code != 200 || body["status"] != "ok" {
		t.Errorf("/readyz after start = %d %v, want 200 ok", code, body)
	}
	eng.Close()
	if code, _ := get(t, strict, "/readyz"); code != 503 {
		t.Errorf("/readyz after Close = %d, want 503", code)
	}
}

// TestCollector: the engine's gauges and counters are exposed by name.
func TestCollector(t *testing.T) {
	eng, err := promo.New(memory.New())
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(telemetry.NewCollector(eng))
	want := `
# HELP promo_async_actions Async actions by status.
# TYPE promo_async_actions gauge
promo_async_actions{status="DONE"} 0
promo_async_actions{status="ENQUEUED"} 0
promo_async_actions{status="FAILED"} 0
promo_async_actions{status="IN_PROGRESS"} 0
# HELP promo_async_oldest_pending_age_seconds Age of the oldest async action not ended (0 when none).
# TYPE promo_async_oldest_pending_age_seconds gauge
promo_async_oldest_pending_age_seconds 0
# HELP promo_webhook_outbox_events Webhook events not fanned out yet.
# TYPE promo_webhook_outbox_events gauge
promo_webhook_outbox_events 0
# HELP promo_webhook_sendouts_pending Webhook deliveries waiting for a try.
# TYPE promo_webhook_sendouts_pending gauge
promo_webhook_sendouts_pending 0
# HELP promo_background_running 1 when the background service runs.
# TYPE promo_background_running gauge
promo_background_running{service="async_runner"} 0
promo_background_running{service="webhook_dispatcher"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "promo_async_actions", "promo_async_oldest_pending_age_seconds",
		"promo_webhook_outbox_events", "promo_webhook_sendouts_pending", "promo_background_running"); err != nil {
		t.Error(err)
	}
	names := []string{"promo_promotion_snapshots", "promo_promotion_snapshot_builds_total", "promo_promotion_snapshot_refreshes_total", "promo_backlog_scrape_error"}
	if n, err := testutil.GatherAndCount(reg, names...); err != nil || n != len(names) {
		t.Errorf("GatherAndCount(%v) = %d, %v; want %d", names, n, err, len(names))
	}
}

// TestSteps: a validation through an engine with Steps is counted in
// promo_validations_total and traced as a promotion.validate span
// (in-memory exporter); a redemption likewise in promo_redemptions_total
// and a redemption.redeem span.
func TestSteps(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	step, err := telemetry.Steps(reg, tp)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := promo.New(memory.New(), promo.WithStep(step))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Promotions().Validate(ctx, p.ID, promotion.ValidationParams{}, promotion.ValidationQuery{}); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(mustCounter(t, reg, "promo_validations_total")); got != 1 {
		t.Errorf("promo_validations_total = %v, want 1", got)
	}
	spans := exp.GetSpans()
	if len(spans) != 1 || spans[0].Name != "promotion.validate" {
		t.Fatalf("spans = %v, want one promotion.validate", spans.Snapshots())
	}
	attrs := map[string]string{}
	for _, a := range spans[0].Attributes {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	if diff := cmp.Diff(map[string]string{"promo.project_id": p.ID, "promo.outcome": "invalid"}, attrs); diff != "" {
		t.Errorf("span attributes (-want +got):\n%s", diff)
	}

	// A redemption of a code that does not exist fails: counted as failed
	// in promo_redemptions_total, traced as redemption.redeem.
	exp.Reset()
	_, err = eng.Redemptions().Redeem(ctx, p.ID, redemption.ValidationParams{
		Redeemables: []redemption.RedeemableParams{{Object: "voucher", ID: "NO-SUCH-CODE"}},
		Order:       &order.Params{Amount: promotype.Ptr[int64](1000)},
	}, redemption.RedeemOptions{})
	if err == nil {
		t.Fatal("a redemption of an unknown code succeeded")
	}
	if got := testutil.ToFloat64(mustCounter(t, reg, "promo_redemptions_total")); got != 1 {
		t.Errorf("promo_redemptions_total = %v, want 1", got)
	}
	if spans := exp.GetSpans(); len(spans) != 1 || spans[0].Name != "redemption.redeem" {
		t.Fatalf("spans = %v, want one redemption.redeem", spans.Snapshots())
	}
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() == "promo_redemptions_total" {
			for _, l := range mf.Metric[0].Label {
				if l.GetName() == "outcome" && l.GetValue() != "failed" {
					t.Errorf("redemption outcome %q, want failed", l.GetValue())
				}
			}
		}
	}

	if f, err := telemetry.Steps(nil, nil); f != nil || err != nil {
		t.Errorf("Steps(nil, nil) = %v, %v; want nil: no observer, no cost", f != nil, err)
	}
}

// mustCounter gathers the one series of the counter name.
func mustCounter(t *testing.T, g prometheus.Gatherer, name string) prometheus.Collector {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.Metric) == 1 {
			v := mf.Metric[0].GetCounter().GetValue()
			c := prometheus.NewCounter(prometheus.CounterOpts{Name: name})
			c.Add(v)
			return c
		}
	}
	t.Fatalf("no single series of %s", name)
	return nil
}
