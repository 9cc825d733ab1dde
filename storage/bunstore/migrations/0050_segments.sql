-- promo schema, version 50: customer segments (issue 28).
--
-- promo_segments keeps each segment as its JSON document, with the
-- columns lists filter and order on; the filter is kept as sent (text:
-- jsonb would reorder its keys). promo_segment_members has one row per
-- segment and customer: a customer change enters or leaves segments with
-- INSERT ... ON CONFLICT DO NOTHING RETURNING and DELETE ... RETURNING, so
-- concurrent changes of one customer report each actual entry and exit
-- once. The (project_id, customer_id, segment_id) index serves the one
-- read a validation makes of a customer's segments.
CREATE TABLE promo_segments (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    type       text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL,
    filter     text,
    doc        jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_segments_type_idx ON promo_segments (project_id, type, created_at, id);

CREATE TABLE promo_segment_members (
    project_id  text COLLATE "C" NOT NULL,
    customer_id text COLLATE "C" NOT NULL,
    segment_id  text COLLATE "C" NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (project_id, customer_id, segment_id)
);
CREATE INDEX promo_segment_members_segment_idx ON promo_segment_members (project_id, segment_id, customer_id);
