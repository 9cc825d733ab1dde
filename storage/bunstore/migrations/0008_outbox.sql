-- promo schema, version 8: the webhook outbox. Services append events in
-- the transaction of the change they describe; seq gives their order.
-- data is json, not jsonb: its text (key order) is delivered as written.

CREATE TABLE promo_events (
    seq        bigserial PRIMARY KEY,
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    type       text COLLATE "C" NOT NULL,
    entity_id  text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL,
    data       json NOT NULL,
    UNIQUE (project_id, id)
);
