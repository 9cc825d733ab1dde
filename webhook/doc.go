// Package webhook tells other systems what happened in a project: webhook
// configurations (a target URL and the events it wants), the catalogue of
// event names, the transactional outbox (an event is written in the
// transaction of the change it tells of, so none is lost or sent for a
// change rolled back), the delivery envelope and its signature, and the
// dispatcher that sends deliveries with retries.
//
// The [Service] (Engine.Webhooks()) creates, reads, updates and deletes a
// [Webhook]; Sendouts lists its deliveries. Engine.StartWebhookDispatcher
// starts sending; a receiver checks a delivery with its secret through the
// signature header ([Sign]).
//
//	w, err := eng.Webhooks().Create(ctx, projectID, webhook.Params{
//		TargetURL: promo.Ptr("https://example.com/hooks"),
//		Events:    []string{"redemption.succeeded"},
//	})
package webhook
