package promo

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/webhook"
)

// StartAsyncRunner starts the background runner of async actions (voucher
// generation, imports, campaign updates and deletes): see async.Runner;
// and the loyalty scheduler, which activates pending points on their date
// (loyalty.Scheduler).
// Close stops it gracefully; cancelling ctx stops it at once, as a crash
// would. It returns an error if the runner is running.
func (e *Engine) StartAsyncRunner(ctx context.Context, cfg async.Config) error {
	if err := e.actions.Runner().Start(ctx, cfg); err != nil {
		return err
	}
	e.loyalty.Scheduler().Start(ctx) // the loyalty work due by date (pending points)
	return nil
}

// StartWebhookDispatcher starts delivering webhook events in the
// background: see webhook.Service.StartDispatcher. The dispatcher uses the
// engine's clock, outbox id generator (WithOutboxIDGenerator), logger and
// webhook target policy (WithWebhookTargets); opts override them.
func (e *Engine) StartWebhookDispatcher(ctx context.Context, opts ...webhook.Option) error {
	return e.webhooks.StartDispatcher(ctx, opts...)
}

// Close stops the webhook dispatcher and the async runner, if started: the
// dispatcher lets its tries in flight end and records them; each runner
// worker finishes the chunk in hand, hands its action back (another runner
// may take it at once) and returns. Close waits for them.
func (e *Engine) Close() error {
	e.webhooks.StopDispatcher()
	e.actions.Runner().Stop()
	e.loyalty.Scheduler().Stop()
	return nil
}

// BackgroundStatus tells which background services run.
type BackgroundStatus struct {
	AsyncRunner       bool // StartAsyncRunner was called and Close was not
	WebhookDispatcher bool // StartWebhookDispatcher was called and Close was not
}

// Background reports which background services are running.
func (e *Engine) Background() BackgroundStatus {
	return BackgroundStatus{
		AsyncRunner:       e.actions.Runner().Running(),
		WebhookDispatcher: e.webhooks.DispatcherRunning(),
	}
}

// Ping checks that the store can serve (storage.Pinger: for PostgreSQL,
// the database answers and is migrated). A store without that ability is
// taken as reachable.
func (e *Engine) Ping(ctx context.Context) error {
	if p, ok := e.store.(storage.Pinger); ok {
		return p.Ping(ctx)
	}
	return ctx.Err()
}

// Backlog reports the work waiting in the store across projects (async
// actions by status, the webhook outbox); ok is false when the store cannot
// tell (it is not a storage.BacklogReporter).
func (e *Engine) Backlog(ctx context.Context) (b storage.Backlog, ok bool, err error) {
	r, ok := e.store.(storage.BacklogReporter)
	if !ok {
		return storage.Backlog{}, false, nil
	}
	b, err = r.Backlog(ctx)
	return b, true, err
}
