-- promo schema, version 1: projects, keys, catalog, rewards, locations.
-- Identifiers and filterable strings use the "C" collation, so equality,
-- ordering and substring tests are bytewise, exactly as the memory store's.

CREATE TABLE promo_projects (
    id         text COLLATE "C" PRIMARY KEY,
    name       text NOT NULL,
    time_zone  text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE promo_app_keys (
    app_id      text COLLATE "C" PRIMARY KEY,
    project_id  text COLLATE "C" NOT NULL,
    secret_hash bytea,
    created_at  timestamptz NOT NULL
);
CREATE INDEX promo_app_keys_project_idx ON promo_app_keys (project_id);

CREATE TABLE promo_management_keys (
    id          text COLLATE "C" PRIMARY KEY,
    secret_hash bytea,
    project_ids text[] COLLATE "C",
    created_at  timestamptz NOT NULL
);

CREATE TABLE promo_products (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    source_id  text COLLATE "C",
    name       text COLLATE "C",
    price      bigint,
    attributes jsonb,
    metadata   jsonb NOT NULL DEFAULT '{}',
    image_url  text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    binned_at  timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A source id is unique among the live products of a project.
CREATE UNIQUE INDEX promo_products_source_id_key ON promo_products (project_id, source_id)
    WHERE binned_at IS NULL AND source_id IS NOT NULL;
CREATE INDEX promo_products_created_idx ON promo_products (project_id, created_at NULLS FIRST, id);

CREATE TABLE promo_skus (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    product_id text COLLATE "C" NOT NULL,
    source_id  text COLLATE "C",
    sku        text COLLATE "C",
    price      bigint,
    currency   text,
    attributes jsonb NOT NULL DEFAULT '{}',
    image_url  text,
    metadata   jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    binned_at  timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A SKU source id is unique among the live SKUs of a project (not per product).
CREATE UNIQUE INDEX promo_skus_source_id_key ON promo_skus (project_id, source_id)
    WHERE binned_at IS NULL AND source_id IS NOT NULL;
CREATE INDEX promo_skus_created_idx ON promo_skus (project_id, created_at NULLS FIRST, id);
CREATE INDEX promo_skus_product_idx ON promo_skus (project_id, product_id, created_at NULLS FIRST, id);

CREATE TABLE promo_rewards (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    type       text COLLATE "C" NOT NULL,
    stock      bigint,
    redeemed   bigint,
    metadata   jsonb NOT NULL DEFAULT '{}',
    attributes jsonb,
    parameters jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_rewards_created_idx ON promo_rewards (project_id, created_at NULLS FIRST, id);

CREATE TABLE promo_locations (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    shape      jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_locations_created_idx ON promo_locations (project_id, created_at NULLS FIRST, id);
