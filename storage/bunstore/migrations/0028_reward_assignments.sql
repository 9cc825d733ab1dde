-- promo schema, version 28: reward assignments.
--
-- promo_reward_assignments holds each assignment of a reward to a campaign
-- with its parameters (the points it costs). A reward is assigned to a
-- campaign once; lists run per reward and per campaign in creation order.
CREATE TABLE promo_reward_assignments (
    project_id        text COLLATE "C" NOT NULL,
    id                text COLLATE "C" NOT NULL,
    reward_id         text COLLATE "C" NOT NULL,
    related_object_id text COLLATE "C" NOT NULL,
    parameters        jsonb,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX promo_reward_assignments_key ON promo_reward_assignments (project_id, reward_id, related_object_id);
CREATE INDEX promo_reward_assignments_reward_idx ON promo_reward_assignments (project_id, reward_id, created_at NULLS FIRST, id);
CREATE INDEX promo_reward_assignments_campaign_idx ON promo_reward_assignments (project_id, related_object_id, created_at NULLS FIRST, id);
