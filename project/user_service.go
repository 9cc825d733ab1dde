package project

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// AssignParams is the body of POST /management/v1/projects/{projectId}/users:
// an existing user, by id or by login (one of them), and the role it gets.
type AssignParams struct {
	ID    *string `json:"id"`
	Login *string `json:"login"`
	Role  *string `json:"role"`
}

// RoleParams is the body of PUT /management/v1/projects/{projectId}/users/{userId}.
type RoleParams struct {
	Role *string `json:"role"`
}

// InviteParams is the body of POST /management/v1/projects/users/invite: a
// new user (its e-mail address is its login) and its role in each project.
type InviteParams struct {
	Email     *string           `json:"email"`
	FirstName *string           `json:"first_name"`
	LastName  *string           `json:"last_name"`
	Projects  map[string]string `json:"projects"`
}

// In every method below, scope is the projects the caller may manage (a
// management key's grants): a project outside it answers as a missing one,
// and a user's other projects are shown and looked up only within it.

// ListUsers returns the users assigned to the project, oldest assignment
// first.
func (s *Service) ListUsers(ctx context.Context, scope []string, projectID string) (*promotype.List[*User], error) {
	if err := s.inScope(ctx, s.store, scope, projectID); err != nil {
		return nil, err
	}
	ms, err := s.store.ListMembers(ctx, projectID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.UserID
	}
	rows, err := s.store.FindMembers(ctx, scope, ids)
	if err != nil {
		return nil, err
	}
	us := users(projectID, rows, ids)
	return &promotype.List[*User]{Object: "list", DataRef: promotype.DataRefData, Data: us, Total: len(us)}, nil
}

// GetUser returns the user key (its id or login) of the project.
func (s *Service) GetUser(ctx context.Context, scope []string, projectID, key string) (*User, error) {
	if err := s.inScope(ctx, s.store, scope, projectID); err != nil {
		return nil, err
	}
	return findUser(ctx, s.store, scope, projectID, key)
}

// AssignUser assigns a user already assigned to a project of scope to the
// project projectID with a role.
func (s *Service) AssignUser(ctx context.Context, scope []string, projectID string, in AssignParams) (*User, error) {
	key, err := in.validate()
	if err != nil {
		return nil, err
	}
	var out *User
	err = s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		if err := s.inScope(ctx, tx, scope, projectID); err != nil {
			return err
		}
		rows, err := tx.FindMembers(ctx, scope, []string{key})
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return promotype.NotFound("user", key)
		}
		m := rows[0].Clone()
		rows = slices.DeleteFunc(rows, func(r *Member) bool { return r.UserID != m.UserID })
		if slices.ContainsFunc(rows, func(r *Member) bool { return r.ProjectID == projectID }) {
			return promotype.Duplicate("user", "User %s is already assigned to project %s", m.UserID, projectID)
		}
		m.ProjectID, m.Role, m.CreatedAt = projectID, *in.Role, s.env.Clock.Now()
		if err := tx.InsertMembers(ctx, []*Member{m}); err != nil {
			return err
		}
		out = users(projectID, append(rows, m), []string{m.UserID})[0]
		return nil
	})
	return out, err
}

// validate checks the body and returns the user's id or login.
func (in AssignParams) validate() (string, error) {
	if err := checkRole(".role", deref(in.Role)); err != nil {
		return "", err
	}
	switch {
	case in.ID != nil && in.Login != nil:
		return "", promotype.InvalidPayload("Payload must have either property 'id' or property 'login', not both")
	case in.ID != nil && *in.ID != "":
		return *in.ID, nil
	case in.Login != nil:
		return normLogin(".login", *in.Login)
	}
	return "", promotype.InvalidPayload("Payload must have required property 'id' or 'login'")
}

// UpdateUser changes the role of the user key (its id or login) in the
// project.
func (s *Service) UpdateUser(ctx context.Context, scope []string, projectID, key string, in RoleParams) (*User, error) {
	if err := checkRole(".role", deref(in.Role)); err != nil {
		return nil, err
	}
	var out *User
	err := s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		if err := s.inScope(ctx, tx, scope, projectID); err != nil {
			return err
		}
		u, err := findUser(ctx, tx, scope, projectID, key)
		if err != nil {
			return err
		}
		if err := tx.UpdateMemberRole(ctx, projectID, u.ID, *in.Role); err != nil {
			return err
		}
		u.Role, u.Projects[projectID] = *in.Role, *in.Role
		out = u
		return nil
	})
	return out, err
}

// UnassignUser removes the user key (its id or login) from the project. As
// on the hosted service a user cannot leave its only project; here that is
// its only project within scope.
func (s *Service) UnassignUser(ctx context.Context, scope []string, projectID, key string) error {
	return s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		if err := s.inScope(ctx, tx, scope, projectID); err != nil {
			return err
		}
		u, err := findUser(ctx, tx, scope, projectID, key)
		if err != nil {
			return err
		}
		if len(u.Projects) < 2 {
			return promotype.BadRequest("user_only_project", "User cannot be unassigned",
				"User %s is assigned to project %s only and cannot be unassigned from it", u.ID, projectID)
		}
		return tx.DeleteMember(ctx, projectID, u.ID)
	})
}

// InviteUser makes a new user whose login is the e-mail address and
// assigns it to the given projects of scope with their roles, in one
// transaction. The engine sends no e-mail: the user exists at once.
func (s *Service) InviteUser(ctx context.Context, scope []string, in InviteParams) error {
	if in.Email == nil {
		return promotype.InvalidPayload("Payload must have required property 'email'")
	}
	login, err := normLogin(".email", *in.Email)
	if err != nil {
		return err
	}
	if err := checkName(".first_name", in.FirstName); err != nil {
		return err
	}
	if err := checkName(".last_name", in.LastName); err != nil {
		return err
	}
	if len(in.Projects) == 0 {
		return promotype.InvalidPayload("Property .projects must NOT have fewer than 1 properties")
	}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range in.Projects {
			if !yield(id) {
				return
			}
		}
	})
	for _, id := range ids {
		if err := checkRole(".projects."+id, in.Projects[id]); err != nil {
			return err
		}
	}
	userID, now := s.env.IDs.NewID(promotype.PrefixUser), s.env.Clock.Now()
	return s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		ms := make([]*Member, len(ids))
		for i, id := range ids {
			if err := s.inScope(ctx, tx, scope, id); err != nil {
				return err
			}
			ms[i] = &Member{ProjectID: id, UserID: userID, Login: login, FirstName: in.FirstName, LastName: in.LastName, Role: in.Projects[id], CreatedAt: now}
		}
		taken, err := tx.FindMembers(ctx, scope, []string{login})
		if err != nil {
			return err
		}
		if len(taken) > 0 {
			return promotype.Duplicate("user", "Duplicated user exists with login %s", login)
		}
		return tx.InsertMembers(ctx, ms)
	})
}

// findUser returns the user key (id or login) of the project as the project
// presents it; none is not_found (user).
func findUser(ctx context.Context, st UserStore, scope []string, projectID, key string) (*User, error) {
	if strings.Contains(key, "@") {
		key = strings.ToLower(key)
	}
	rows, err := st.FindMembers(ctx, scope, []string{key})
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(rows, func(m *Member) bool { return m.ProjectID == projectID })
	if i < 0 {
		return nil, promotype.NotFound("user", key)
	}
	return users(projectID, rows, []string{rows[i].UserID})[0], nil
}

// inScope answers not_found (project) for a project outside scope or
// missing from the store.
func (s *Service) inScope(ctx context.Context, st Store, scope []string, projectID string) error {
	if !slices.Contains(scope, projectID) {
		return promotype.NotFound("project", projectID)
	}
	_, err := st.GetProject(ctx, projectID)
	return err
}

// deref returns *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
