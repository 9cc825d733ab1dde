-- promo schema, version 34: a project's client-side settings.
--
-- The OpenAPI's project client_* fields (trusted domains and what the
-- client-side API may do) as one JSON document; NULL (every project made
-- before) reads as the defaults, project.DefaultClientSettings.
ALTER TABLE promo_projects ADD COLUMN client_settings jsonb;
