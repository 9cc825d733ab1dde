-- promo schema, version 2: OAuth tokens and the credential invalidation feed.

-- An access token, stored only as the SHA-256 of its value.
CREATE TABLE promo_oauth_tokens (
    token_hash bytea PRIMARY KEY,
    project_id text COLLATE "C" NOT NULL,
    client_id  text COLLATE "C" NOT NULL,
    scope      text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz
);
-- Counting and pruning a project's tokens; revoking an app key's tokens.
CREATE INDEX promo_oauth_tokens_project_idx ON promo_oauth_tokens (project_id, expires_at);
CREATE INDEX promo_oauth_tokens_client_idx ON promo_oauth_tokens (client_id);

-- The credential invalidation counter: every token revocation and app key
-- deletion increments it in its own transaction and sends a NOTIFY on the
-- channel promo_auth carrying the new value. A listener that finds the
-- counter ahead of the last value it was notified of has missed a
-- notification and forgets everything it cached.
CREATE TABLE promo_auth_generation (
    id  boolean PRIMARY KEY DEFAULT true CHECK (id),
    gen bigint NOT NULL
);
INSERT INTO promo_auth_generation (id, gen) VALUES (true, 0);
