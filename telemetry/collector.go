package telemetry

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/promoengine/promo"
)

// NewCollector returns a Prometheus collector over engine, read at each
// scrape:
//
//   - promo_async_actions{status}: async actions by status;
//   - promo_async_oldest_pending_age_seconds: age of the oldest action not
//     ended (0 when none);
//   - promo_webhook_outbox_events: events not fanned out yet;
//   - promo_webhook_sendouts_pending: deliveries waiting for a try;
//   - promo_background_running{service}: 1 when the async runner or the
//     webhook dispatcher runs;
//   - promo_promotion_snapshots, promo_promotion_snapshot_builds_total,
//     promo_promotion_snapshot_refreshes_total: the validation cache
//     (promotion.Service.Stats).
//
// The store-backed metrics need a storage.BacklogReporter (both stores
// are); a scrape reads them with a 5 s timeout.
func NewCollector(engine *promo.Engine) prometheus.Collector { return &collector{engine: engine} }

type collector struct{ engine *promo.Engine }

var (
	descActions = prometheus.NewDesc("promo_async_actions", "Async actions by status.", []string{"status"}, nil)
	descOldest  = prometheus.NewDesc("promo_async_oldest_pending_age_seconds",
		"Age of the oldest async action not ended (0 when none).", nil, nil)
	descOutbox   = prometheus.NewDesc("promo_webhook_outbox_events", "Webhook events not fanned out yet.", nil, nil)
	descSendouts = prometheus.NewDesc("promo_webhook_sendouts_pending", "Webhook deliveries waiting for a try.", nil, nil)
	descRunning  = prometheus.NewDesc("promo_background_running",
		"1 when the background service runs.", []string{"service"}, nil)
	descSnapshots = prometheus.NewDesc("promo_promotion_snapshots", "Projects with a cached validation snapshot.", nil, nil)
	descBuilds    = prometheus.NewDesc("promo_promotion_snapshot_builds_total",
		"Validation snapshots built while a validation waited.", nil, nil)
	descRefreshes = prometheus.NewDesc("promo_promotion_snapshot_refreshes_total",
		"Validation snapshots rebuilt in the background.", nil, nil)
	descScrapeErr = prometheus.NewDesc("promo_backlog_scrape_error",
		"1 when reading the backlog from the store failed at this scrape.", nil, nil)
)

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descActions, descOldest, descOutbox, descSendouts, descRunning,
		descSnapshots, descBuilds, descRefreshes, descScrapeErr} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	bg := c.engine.Background()
	gauge(descRunning, b2f(bg.AsyncRunner), "async_runner")
	gauge(descRunning, b2f(bg.WebhookDispatcher), "webhook_dispatcher")

	st := c.engine.Promotions().Stats()
	gauge(descSnapshots, float64(st.Projects))
	ch <- prometheus.MustNewConstMetric(descBuilds, prometheus.CounterValue, float64(st.Builds))
	ch <- prometheus.MustNewConstMetric(descRefreshes, prometheus.CounterValue, float64(st.Refreshes))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, ok, err := c.engine.Backlog(ctx)
	if !ok {
		return
	}
	gauge(descScrapeErr, b2f(err != nil))
	if err != nil {
		return
	}
	for _, s := range []string{"ENQUEUED", "IN_PROGRESS", "DONE", "FAILED"} {
		gauge(descActions, float64(b.AsyncActions[s]), s)
	}
	age := 0.0
	if !b.OldestPendingAction.IsZero() {
		age = max(0, c.engine.Clock().Now().Time.Sub(b.OldestPendingAction).Seconds())
	}
	gauge(descOldest, age)
	gauge(descOutbox, float64(b.OutboxEvents))
	gauge(descSendouts, float64(b.PendingSendouts))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
