-- promo schema, version 57: campaign templates (issue 29,
-- /v1/templates/campaigns).
--
-- A template is a stored campaign definition (the create body of a
-- campaign without its name, category and code count, as JSON), named
-- uniquely in its project; the list pages by id.
CREATE TABLE promo_campaign_templates (
    project_id    text COLLATE "C" NOT NULL,
    id            text COLLATE "C" NOT NULL,
    name          text COLLATE "C" NOT NULL,
    description   text,
    campaign_type text COLLATE "C" NOT NULL,
    definition    jsonb NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX promo_campaign_templates_name_key ON promo_campaign_templates (project_id, name);
