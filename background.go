package promo

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/webhook"
)

// StartAsyncRunner starts the background runner of async actions (voucher
// generation, imports, campaign updates and deletes): see async.Runner.
// Close stops it gracefully; cancelling ctx stops it at once, as a crash
// would. It returns an error if the runner is running.
func (e *Engine) StartAsyncRunner(ctx context.Context, cfg async.Config) error {
	return e.actions.Runner().Start(ctx, cfg)
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
	return nil
}
