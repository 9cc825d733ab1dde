-- promo schema, version 37: the users of a project (management API).
--
-- The engine has no login accounts: a project user is its assignment to
-- the project, one row per project, carrying the user's identity (login,
-- names). A project holds a user id once and a login once. The catalogue
-- finds the table by its project_id column, so deleting a project deletes
-- its rows.
CREATE TABLE promo_project_users (
    project_id text COLLATE "C" NOT NULL,
    user_id    text COLLATE "C" NOT NULL,
    login      text COLLATE "C" NOT NULL,
    first_name text,
    last_name  text,
    role       text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE UNIQUE INDEX promo_project_users_login ON promo_project_users (project_id, login);
CREATE INDEX promo_project_users_created ON promo_project_users (project_id, created_at, user_id);
