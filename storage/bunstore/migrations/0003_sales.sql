-- promo schema, version 3: customers and orders.

CREATE TABLE promo_customers (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    source_id   text COLLATE "C",
    name        text,
    description text,
    email       text,
    phone       text,
    birthdate   text,
    address     jsonb,
    metadata    jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A source id is unique among the customers of a project.
CREATE UNIQUE INDEX promo_customers_source_id_key ON promo_customers (project_id, source_id)
    WHERE source_id IS NOT NULL;

-- An order with its calculated amounts. The items (calculated lines with the
-- product and SKU data they were joined to) are one jsonb array, read and
-- written with the order.
CREATE TABLE promo_orders (
    project_id                    text COLLATE "C" NOT NULL,
    id                            text COLLATE "C" NOT NULL,
    source_id                     text COLLATE "C",
    status                        text COLLATE "C" NOT NULL,
    amount                        bigint NOT NULL,
    initial_amount                bigint NOT NULL,
    discount_amount               bigint NOT NULL,
    items_discount_amount         bigint NOT NULL,
    total_discount_amount         bigint NOT NULL,
    total_amount                  bigint NOT NULL,
    applied_discount_amount       bigint NOT NULL,
    items_applied_discount_amount bigint NOT NULL,
    total_applied_discount_amount bigint NOT NULL,
    items                         jsonb NOT NULL DEFAULT '[]',
    metadata                      jsonb NOT NULL DEFAULT '{}',
    customer_id                   text COLLATE "C",
    referrer_id                   text COLLATE "C",
    redemptions                   jsonb NOT NULL DEFAULT '{}',
    created_at                    timestamptz NOT NULL,
    updated_at                    timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A source id is unique among the orders of a project.
CREATE UNIQUE INDEX promo_orders_source_id_key ON promo_orders (project_id, source_id)
    WHERE source_id IS NOT NULL;
CREATE INDEX promo_orders_created_idx ON promo_orders (project_id, created_at NULLS FIRST, id);
CREATE INDEX promo_orders_customer_idx ON promo_orders (project_id, customer_id, created_at NULLS FIRST, id);
