-- promo schema, version 10: what pruning the outbox reads (webhook
-- dispatcher retention): settled sendouts by age, the sendouts of an event,
-- and fanned-out events by age.
CREATE INDEX promo_webhook_sendouts_settled_idx ON promo_webhook_sendouts (created_at) WHERE status <> 'PENDING';
CREATE INDEX promo_webhook_sendouts_event_idx ON promo_webhook_sendouts (project_id, event_id);
CREATE INDEX promo_events_fanned_idx ON promo_events (created_at) WHERE fanned_out;
