-- promo schema, version 26: a project's description (PUT
-- /management/v1/projects/{projectId}; NULL until an update sets it).

ALTER TABLE promo_projects ADD COLUMN description text;
