-- promo schema, version 27: product collections.
--
-- promo_product_collections holds each collection of a project: its type
-- (STATIC, AUTO_UPDATE) and, in doc, its filter or its list of products
-- and SKUs (at most 1000), read whole into each promotion snapshot. A
-- name is unique in a project.
CREATE TABLE promo_product_collections (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    type       text COLLATE "C" NOT NULL,
    doc        jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX promo_product_collections_name_key ON promo_product_collections (project_id, name);
CREATE INDEX promo_product_collections_created_idx ON promo_product_collections (project_id, created_at NULLS FIRST, id);
