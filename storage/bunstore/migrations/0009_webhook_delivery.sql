-- promo schema, version 9: webhook delivery.

-- The secret that signs a project's deliveries. Projects created before
-- this version get a random one (two UUIDv4s: 244 random bits, 64 hex
-- characters); new projects bring their own.
ALTER TABLE promo_projects ADD COLUMN webhook_token text COLLATE "C" NOT NULL
    DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
ALTER TABLE promo_projects ALTER COLUMN webhook_token DROP DEFAULT;

-- Events are fanned out into sendouts once; the partial index holds only
-- those still waiting, in outbox order.
ALTER TABLE promo_events ADD COLUMN fanned_out boolean NOT NULL DEFAULT false;
CREATE INDEX promo_events_fan_out_idx ON promo_events (seq) WHERE NOT fanned_out;

-- One sendout per event and configuration: the delivery log. A pending
-- sendout is due at next_attempt_at; a claimed one is leased until then.
-- seq orders sendouts due at the same instant. Deleting a configuration
-- deletes its sendouts.
CREATE TABLE promo_webhook_sendouts (
    seq              bigserial PRIMARY KEY,
    project_id       text COLLATE "C" NOT NULL,
    id               text COLLATE "C" NOT NULL,
    webhook_id       text COLLATE "C" NOT NULL,
    event_id         text COLLATE "C" NOT NULL,
    event_type       text COLLATE "C" NOT NULL,
    target_url       text NOT NULL,
    status           text COLLATE "C" NOT NULL,
    attempts         integer NOT NULL,
    created_at       timestamptz NOT NULL,
    next_attempt_at  timestamptz,
    last_attempt_at  timestamptz,
    delivered_at     timestamptz,
    last_status_code integer,
    last_error       text,
    UNIQUE (project_id, id),
    UNIQUE (project_id, webhook_id, event_id),
    FOREIGN KEY (project_id, webhook_id) REFERENCES promo_webhooks (project_id, id) ON DELETE CASCADE,
    FOREIGN KEY (project_id, event_id) REFERENCES promo_events (project_id, id)
);
CREATE INDEX promo_webhook_sendouts_due_idx ON promo_webhook_sendouts (next_attempt_at, seq) WHERE status = 'PENDING';
CREATE INDEX promo_webhook_sendouts_list_idx ON promo_webhook_sendouts (project_id, webhook_id, created_at, id);
