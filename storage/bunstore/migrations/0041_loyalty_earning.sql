-- promo schema, version 41: loyalty earning rules (issue 27).
--
-- promo_earning_rules keeps each rule as its JSON document, with the
-- columns lists filter and order on. promo_earning_claims has one row per
-- rule and order that earned: its primary key is what makes a rule earn
-- once per order, however many transactions make the order PAID at once
-- (INSERT ... ON CONFLICT DO NOTHING waits for a concurrent claim and then
-- finds it). promo_earning_rule_locks has one row per project, locked by
-- a rule create so that concurrent creates count the project's rules one
-- after the other (the 100-rule limit).
CREATE TABLE promo_earning_rules (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C" NOT NULL,
    event       text COLLATE "C" NOT NULL,
    active      boolean NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz,
    doc         jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_earning_rules_campaign_idx ON promo_earning_rules (project_id, campaign_id, created_at, id);
CREATE INDEX promo_earning_rules_event_idx ON promo_earning_rules (project_id, event, active);

CREATE TABLE promo_earning_claims (
    project_id      text COLLATE "C" NOT NULL,
    earning_rule_id text COLLATE "C" NOT NULL,
    order_id        text COLLATE "C" NOT NULL,
    customer_id     text COLLATE "C" NOT NULL,
    points          bigint NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (project_id, earning_rule_id, order_id)
);

CREATE TABLE promo_earning_rule_locks (
    project_id text COLLATE "C" PRIMARY KEY
);
