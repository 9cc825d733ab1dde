-- promo schema, version 23: client-side key pairs.
--
-- promo_client_keys holds each client key pair (X-Client-Application-Id,
-- X-Client-Token) of a project: the SHA-256 of its token, as
-- promo_app_keys, and its allowed origins (canonical scheme://host[:port]).
-- The GIN index answers a CORS preflight ("does any key allow this
-- origin?") without a scan.
CREATE TABLE promo_client_keys (
    app_id      text COLLATE "C" PRIMARY KEY,
    project_id  text COLLATE "C" NOT NULL,
    secret_hash bytea NOT NULL,
    origins     text[] COLLATE "C" NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX promo_client_keys_project_idx ON promo_client_keys (project_id);
CREATE INDEX promo_client_keys_origins_idx ON promo_client_keys USING gin (origins);
