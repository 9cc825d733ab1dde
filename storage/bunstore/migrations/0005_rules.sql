-- promo schema, version 5: validation rules and their assignments.

CREATE TABLE promo_validation_rules (
    project_id        text COLLATE "C" NOT NULL,
    id                text COLLATE "C" NOT NULL,
    name              text COLLATE "C" NOT NULL,
    rules             jsonb NOT NULL,
    error             jsonb,
    applicable_to     jsonb NOT NULL,
    type              text NOT NULL,
    context_type      text NOT NULL,
    assignments_count integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_validation_rules_created_idx ON promo_validation_rules (project_id, created_at NULLS FIRST, id);

CREATE TABLE promo_rule_assignments (
    project_id          text COLLATE "C" NOT NULL,
    id                  text COLLATE "C" NOT NULL,
    rule_id             text COLLATE "C" NOT NULL,
    related_object_id   text COLLATE "C" NOT NULL,
    related_object_type text COLLATE "C" NOT NULL,
    created_at          timestamptz NOT NULL,
    PRIMARY KEY (project_id, id)
);
-- One assignment of a rule to an object.
CREATE UNIQUE INDEX promo_rule_assignments_key ON promo_rule_assignments (project_id, rule_id, related_object_type, related_object_id);
-- Validation reads the assignments of the objects it evaluates.
CREATE INDEX promo_rule_assignments_object_idx ON promo_rule_assignments (project_id, related_object_type, related_object_id);
