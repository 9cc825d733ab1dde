-- promo schema, version 38: customers' activity logs.
--
-- promo_customer_activities holds an activity row per event about a
-- customer (GET /v1/customers/{customerId}/activity), written in the
-- transaction of the change whether or not a webhook listens: a bunstore
-- transaction writes all its activities in one multi-row INSERT before it
-- commits. The one index is the list's keyset order per customer: by time,
-- then by seq, the order the rows were written in (the changes of one
-- transaction share their time; event ids are random). A cursor's row is
-- found by its id within the customer's rows of that index; the id needs
-- no index of its own (ids are generated unique). data is the event's
-- payload text, kept as json (not parsed into jsonb on the write path).
CREATE TABLE promo_customer_activities (
    project_id    text COLLATE "C" NOT NULL,
    customer_id   text COLLATE "C" NOT NULL,
    created_at    timestamptz NOT NULL,
    seq           bigserial,
    id            text COLLATE "C" NOT NULL,
    type          text COLLATE "C" NOT NULL,
    campaign_id   text COLLATE "C",
    campaign_type text COLLATE "C",
    data          json NOT NULL,
    PRIMARY KEY (project_id, customer_id, created_at, seq)
);
