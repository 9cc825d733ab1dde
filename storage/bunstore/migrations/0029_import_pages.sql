-- promo schema, version 29: the input of bulk async actions.
--
-- promo_import_pages holds the rows an import or bulk update was given
-- (an uploaded CSV, a JSON item list), in pages of up to 1000 rows, so
-- that the action's worker reads one page per chunk instead of the whole
-- input, and a resumed action reads it again. The pages of an action go
-- when it ends.
CREATE TABLE promo_import_pages (
    project_id text COLLATE "C" NOT NULL,
    action_id  text COLLATE "C" NOT NULL,
    page       integer NOT NULL,
    data       bytea NOT NULL,
    PRIMARY KEY (project_id, action_id, page)
);
