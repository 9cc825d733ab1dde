package project

import (
	"context"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// User is a user of projects as the management API shows it (GET
// /management/v1/projects/{projectId}/users/{userId}). The engine has no
// login accounts: a user is the set of its Member rows, one per project it
// is assigned to, and is seen only through the projects the caller may
// manage.
type User struct {
	ID        string  `json:"id"`
	Login     string  `json:"login"`
	Email     string  `json:"email"`
	FirstName *string `json:"first_name"`
	LastName  *string `json:"last_name"`
	// Role is the user's role in the project of the request (the
	// OpenAPI's response schemas require it).
	Role string `json:"role"`
	// Projects maps each project the user is assigned to, among those the
	// caller may manage, to the user's role there.
	Projects map[string]string `json:"projects"`
	// IsOwner is always false: the engine has no organisation owner.
	IsOwner bool `json:"is_owner"`
}

// Member is the stored assignment of a user to one project, with the
// user's identity copied on every row (a user has no row of its own).
type Member struct {
	ProjectID string
	UserID    string
	// Login is the user's e-mail address, in lower case; it is also the
	// user's email.
	Login     string
	FirstName *string
	LastName  *string
	Role      string
	CreatedAt promotype.Time
}

// Clone returns a deep copy.
func (m *Member) Clone() *Member {
	c := *m
	c.FirstName = promotype.ClonePtr(m.FirstName)
	c.LastName = promotype.ClonePtr(m.LastName)
	return &c
}

// UserStore is the storage port of project users.
type UserStore interface {
	// InsertMembers inserts the rows in one statement. A row whose
	// project already has its user id or its login is duplicate_found
	// (and none is inserted).
	InsertMembers(ctx context.Context, ms []*Member) error
	// FindMembers returns the rows of the projects projectIDs whose user
	// id or login is one of keys, ordered by user id then project id.
	FindMembers(ctx context.Context, projectIDs, keys []string) ([]*Member, error)
	// ListMembers returns the rows of the project, oldest first (then by
	// user id).
	ListMembers(ctx context.Context, projectID string) ([]*Member, error)
	// UpdateMemberRole sets the role of the user userID in the project; no
	// such row is not_found (user).
	UpdateMemberRole(ctx context.Context, projectID, userID, role string) error
	// DeleteMember removes the user userID from the project; no such row
	// is not_found (user).
	DeleteMember(ctx context.Context, projectID, userID string) error
}

// Roles are the predefined roles of the hosted service; a custom role
// (role_…) is made in its dashboard, which this engine has not.
var roles = map[string]bool{"ADMIN": true, "USER": true, "VIEWER": true, "MERCHANT": true, "USER_RESTRICTED": true}

// checkRole refuses a role that is not one of the predefined ones: a
// custom role id names a role that does not exist here (404), anything
// else is a bad payload.
func checkRole(prop, role string) error {
	switch {
	case roles[role]:
		return nil
	case strings.HasPrefix(role, "role_"):
		return promotype.NotFound("role", role)
	case role == "":
		return promotype.InvalidPayload("Payload must have required property 'role'")
	}
	return promotype.InvalidPayload("Property %s must be equal to one of the allowed values: ADMIN, USER, VIEWER, MERCHANT, USER_RESTRICTED", prop)
}

// maxLogin and maxName bound the stored user fields.
const (
	maxLogin    = 254
	maxUserName = 100
)

// normLogin returns the login address in lower case, or a 400 when it is
// not a plain e-mail address.
func normLogin(prop, login string) (string, error) {
	a, err := mail.ParseAddress(login)
	if err != nil || a.Address != login || a.Name != "" || len(login) > maxLogin {
		return "", promotype.InvalidPayload("Property %s must match format \"email\"", prop)
	}
	return strings.ToLower(login), nil
}

// checkName refuses a name longer than maxUserName characters.
func checkName(prop string, s *string) error {
	if s != nil && utf8.RuneCountInString(*s) > maxUserName {
		return promotype.InvalidPayload("Property %s must NOT have more than %d characters", prop, maxUserName)
	}
	return nil
}

// users groups rows into the users of order (user ids) as the project
// projectID presents them; a user without a row in projectID is left out.
func users(projectID string, rows []*Member, order []string) []*User {
	byID := map[string]*User{}
	for _, m := range rows {
		u := byID[m.UserID]
		if u == nil {
			u = &User{ID: m.UserID, Login: m.Login, Email: m.Login, Projects: map[string]string{}}
			byID[m.UserID] = u
		}
		u.Projects[m.ProjectID] = m.Role
		if m.ProjectID == projectID {
			u.Role = m.Role
			u.FirstName, u.LastName = promotype.ClonePtr(m.FirstName), promotype.ClonePtr(m.LastName)
		}
	}
	out := make([]*User, 0, len(order))
	for _, id := range order {
		if u := byID[id]; u != nil && u.Role != "" {
			out = append(out, u)
		}
	}
	return out
}
