-- promo schema, version 7: webhook configurations and project settings
-- (metadata schemas, custom event schemas, branding) and custom events.
-- Each row keeps its resource as a JSON document; the columns are the keys
-- the store looks up, orders and enforces uniqueness by.

CREATE TABLE promo_webhooks (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    key        text COLLATE "C",
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    doc        jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_webhooks_created_idx ON promo_webhooks (project_id, created_at, id);

-- key: related_object, one schema per related object.
CREATE TABLE promo_metadata_schemas (LIKE promo_webhooks INCLUDING ALL);
CREATE UNIQUE INDEX promo_metadata_schemas_key ON promo_metadata_schemas (project_id, key);

-- key: name, unique.
CREATE TABLE promo_custom_event_schemas (LIKE promo_webhooks INCLUDING ALL);
CREATE UNIQUE INDEX promo_custom_event_schemas_key ON promo_custom_event_schemas (project_id, key);

-- key: the constant 'branding', one per project.
CREATE TABLE promo_brandings (LIKE promo_webhooks INCLUDING ALL);
CREATE UNIQUE INDEX promo_brandings_key ON promo_brandings (project_id, key);

CREATE TABLE promo_custom_events (LIKE promo_webhooks INCLUDING ALL);
