package promo

import (
	"context"
	"errors"
	"sync"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/webhook"
)

// webhookState is the engine's webhook delivery: the target policy of
// promo.WithWebhookTargets and the dispatcher, when started.
type webhookState struct {
	policy webhook.TargetPolicy

	mu         sync.Mutex
	dispatcher *webhook.Dispatcher
}

// StartWebhookDispatcher starts delivering the outbox in the background:
// every event committed by this engine (or, on PostgreSQL, by any engine
// over the same database) is sent to the active webhook configurations of
// its project that list it, signed with the project's webhook token, and
// retried on failure (webhook.DefaultSchedule; after the last try the
// configuration is deactivated). Several engines over one database may run
// dispatchers: each sendout is claimed by one of them at a time.
//
// The dispatcher uses the engine's clock, outbox id generator
// (WithOutboxIDGenerator), logger and webhook target policy; opts override
// them and set the rest (schedule, poll
// interval, lease, concurrency, HTTP client). Close (or
// StopWebhookDispatcher) stops it gracefully, letting tries in flight end;
// cancelling ctx stops it at once, as a crash would (their sendouts are
// tried again when their lease runs out). It returns an error if a
// dispatcher is running.
func (e *Engine) StartWebhookDispatcher(ctx context.Context, opts ...webhook.Option) error {
	w := &e.webhooks
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dispatcher != nil {
		return errors.New("promo: the webhook dispatcher is already running")
	}
	// Sendout ids come from the outbox's generator, not the resources' one,
	// so that delivering does not shift the ids resources get.
	var ids promotype.IDGenerator = promotype.RandomIDs{}
	if e.env.OutboxIDs != nil {
		ids = e.env.OutboxIDs
	}
	all := append([]webhook.Option{
		webhook.WithClock(e.env.Clock), webhook.WithIDGenerator(ids),
		webhook.WithLogger(e.logger), webhook.WithTargetPolicy(w.policy),
	}, opts...)
	d := webhook.NewDispatcher(e.store, all...)
	if err := d.Start(ctx); err != nil {
		return err
	}
	w.dispatcher = d
	return nil
}

// StopWebhookDispatcher stops the webhook dispatcher, if running: it
// claims nothing more and returns once the tries in flight are recorded.
func (e *Engine) StopWebhookDispatcher() {
	w := &e.webhooks
	w.mu.Lock()
	d := w.dispatcher
	w.dispatcher = nil
	w.mu.Unlock()
	if d != nil {
		d.Stop()
	}
}

// WebhookSendouts lists the sendouts of webhook configuration webhookID of
// a project (the delivery log: one per event sent to it, with its tries),
// newest first by default. An unknown configuration is 404.
func (e *Engine) WebhookSendouts(ctx context.Context, projectID, webhookID string, p promotype.ListParams) (*promotype.List[*webhook.Sendout], error) {
	if _, err := e.store.GetWebhook(ctx, projectID, webhookID); err != nil {
		return nil, err
	}
	q, err := p.Query(webhook.SendoutListSpec, e.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items, total, err := e.store.ListSendouts(ctx, projectID, webhookID, q)
	if err != nil {
		return nil, err
	}
	for _, s := range items {
		s.Object = "webhook_sendout"
	}
	return promotype.NewList(items, total, q), nil
}
