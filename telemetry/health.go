package telemetry

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/promoengine/promo"
)

// HealthOption configures Health.
type HealthOption func(*health)

// RequireBackground makes readiness require the async runner and the
// webhook dispatcher to run (the standalone server starts both). By
// default an engine that does not run them is ready.
func RequireBackground() HealthOption { return func(h *health) { h.background = true } }

// PingTimeout bounds the store check of a readiness request (default 2 s).
func PingTimeout(d time.Duration) HealthOption {
	return func(h *health) {
		if d > 0 {
			h.timeout = d
		}
	}
}

type health struct {
	engine     *promo.Engine
	background bool
	timeout    time.Duration
}

// Health returns the health handler of engine. A path ending in /healthz
// is liveness: 200 while the process serves. Any other path (mount it at
// /readyz) is readiness: 200 when the store answers and is migrated
// (Engine.Ping) and, with RequireBackground, the background services run;
// else 503. Both answer a small JSON object naming each check.
func Health(engine *promo.Engine, opts ...HealthOption) http.Handler {
	h := &health{engine: engine, timeout: 2 * time.Second}
	for _, o := range opts {
		o(h)
	}
	return h
}

type healthAnswer struct {
	Status string            `json:"status"` // "ok" or "unavailable"
	Checks map[string]string `json:"checks,omitempty"`
}

func (h *health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if strings.HasSuffix(r.URL.Path, "/healthz") {
		_ = json.NewEncoder(w).Encode(healthAnswer{Status: "ok"})
		return
	}
	ans, ok := h.ready(r.Context())
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(ans)
}

// ready runs the readiness checks.
func (h *health) ready(ctx context.Context) (healthAnswer, bool) {
	ans := healthAnswer{Status: "ok", Checks: map[string]string{"store": "ok"}}
	ok := true
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	if err := h.engine.Ping(ctx); err != nil {
		ans.Checks["store"], ok = err.Error(), false
	}
	bg := h.engine.Background()
	for name, running := range map[string]bool{"async_runner": bg.AsyncRunner, "webhook_dispatcher": bg.WebhookDispatcher} {
		switch {
		case running:
			ans.Checks[name] = "running"
		case h.background:
			ans.Checks[name], ok = "stopped", false
		default:
			ans.Checks[name] = "not started"
		}
	}
	if !ok {
		ans.Status = "unavailable"
	}
	return ans, ok
}
