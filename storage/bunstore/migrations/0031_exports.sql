-- promo schema, version 31: exports and their files.
--
-- promo_exports holds each export (exp_): what was asked for (parameters,
-- echoed as requested), its status, the download token and, once DONE, how
-- many chunks and rows its file has. The download knows the id alone, so
-- an export is also found by id across projects (the id index).
CREATE TABLE promo_exports (
    project_id      text COLLATE "C" NOT NULL,
    id              text COLLATE "C" NOT NULL,
    created_at      timestamptz NOT NULL,
    status          text COLLATE "C" NOT NULL,
    channel         text COLLATE "C" NOT NULL,
    exported_object text COLLATE "C" NOT NULL,
    parameters      jsonb NOT NULL,
    user_id         text COLLATE "C",
    token           text COLLATE "C" NOT NULL,
    chunks          integer NOT NULL DEFAULT 0,
    rows_count      bigint NOT NULL DEFAULT 0,
    error           text,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_exports_id_idx ON promo_exports (id);
CREATE INDEX promo_exports_created_idx ON promo_exports (project_id, created_at NULLS FIRST, id);
CREATE INDEX promo_exports_status_idx ON promo_exports (project_id, status NULLS FIRST, id);

-- promo_export_chunks holds the file of an export in chunks of about 1 MB,
-- in order (seq 0, 1, ...), so that any replica serves the download one
-- chunk at a time. Deleting the export deletes its chunks; a job still
-- writing a deleted export fails on the foreign key.
CREATE TABLE promo_export_chunks (
    project_id text COLLATE "C" NOT NULL,
    export_id  text COLLATE "C" NOT NULL,
    seq        integer NOT NULL,
    data       bytea NOT NULL,
    PRIMARY KEY (project_id, export_id, seq),
    FOREIGN KEY (project_id, export_id) REFERENCES promo_exports (project_id, id) ON DELETE CASCADE
);
-- The chunks are written once and read whole: no compression pass (the
-- CSV would compress, but the download streams it as it is).
ALTER TABLE promo_export_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
