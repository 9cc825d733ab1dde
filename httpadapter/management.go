package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

// createdProject is the answer of POST /management/v1/projects: the project
// and the application key pair made for it (its token is shown only here).
type createdProject struct {
	*project.Project
	AppKeys []appKeyPair `json:"app_keys"`
}

// appKeyPair is an application key pair in clear text.
type appKeyPair struct {
	AppID    string `json:"app_id"`
	AppToken string `json:"app_token"`
}

// managementRoutes are the project endpoints of the management API: the
// create (an extension that lets a standalone server be set up through its
// API), the list of the projects the calling management key is granted,
// and the read, update and delete of one of them; and the users of a
// project (userRoutes).
func (s *server) managementRoutes() []route {
	projects := s.engine.Projects()
	return []route{
		{http.MethodPost, "/management/v1/projects", managementKey, withBody(s.createProject)},
		{http.MethodGet, "/management/v1/projects", managementKey, withoutBody(func(c *call) (*promotype.List[*project.Project], error) {
			return projects.List(c.ctx(), c.management.ProjectIDs)
		})},
		{http.MethodGet, "/management/v1/projects/{projectId}", managementKey, withoutBody(func(c *call) (*project.Project, error) {
			return projects.Get(c.ctx(), c.projectID)
		})},
		{http.MethodPut, "/management/v1/projects/{projectId}", managementKey, withBody(func(c *call, in project.UpdateParams) (*project.Project, error) {
			return projects.Update(c.ctx(), c.projectID, in)
		})},
		{http.MethodDelete, "/management/v1/projects/{projectId}", managementKey, noContent(func(c *call) error {
			return projects.Delete(c.ctx(), c.projectID)
		})},
	}
}

// userRoutes are the users of a project. The engine has no login accounts:
// a user is its stored assignments to projects, made by an invitation
// (which sends no e-mail) and extended by assign; a management key sees
// users only through the projects it is granted.
func (s *server) userRoutes() []route {
	projects := s.engine.Projects()
	const users = "/management/v1/projects/{projectId}/users"
	return []route{
		{http.MethodPost, "/management/v1/projects/users/invite", managementKey, func(c *call) (int, any, error) {
			var in project.InviteParams
			if err := decodeBody(c.w, c.r, c.maxBody, &in); err != nil {
				return 0, nil, err
			}
			return http.StatusNoContent, nil, projects.InviteUser(c.ctx(), c.management.ProjectIDs, in)
		}},
		{http.MethodPost, users, managementKey, withBody(func(c *call, in project.AssignParams) (*project.User, error) {
			return projects.AssignUser(c.ctx(), c.management.ProjectIDs, c.projectID, in)
		})},
		{http.MethodGet, users, managementKey, withoutBody(func(c *call) (*promotype.List[*project.User], error) {
			return projects.ListUsers(c.ctx(), c.management.ProjectIDs, c.projectID)
		})},
		{http.MethodGet, users + "/{userId}", managementKey, withoutBody(func(c *call) (*project.User, error) {
			return projects.GetUser(c.ctx(), c.management.ProjectIDs, c.projectID, c.path("userId"))
		})},
		{http.MethodPut, users + "/{userId}", managementKey, withBody(func(c *call, in project.RoleParams) (*project.User, error) {
			return projects.UpdateUser(c.ctx(), c.management.ProjectIDs, c.projectID, c.path("userId"), in)
		})},
		{http.MethodDelete, users + "/{userId}", managementKey, noContent(func(c *call) error {
			return projects.UnassignUser(c.ctx(), c.management.ProjectIDs, c.projectID, c.path("userId"))
		})},
	}
}

// createProject creates a project from {name, timezone} (an id in the body
// is ignored), grants it to the calling management key and creates an
// application key pair for it, in one transaction.
func (s *server) createProject(c *call, in project.Params) (*createdProject, error) {
	in.ID = ""
	p, key, err := s.engine.Projects().Provision(c.ctx(), in, auth.KeyParams{}, c.management.ID)
	if err != nil {
		return nil, err
	}
	return &createdProject{Project: p, AppKeys: []appKeyPair{{AppID: key.ID, AppToken: key.Secret}}}, nil
}
