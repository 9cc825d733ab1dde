package auth

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// Service issues and checks credentials.
type Service struct {
	store Store
	env   promotype.Env
}

// NewService returns an auth service.
func NewService(store Store, env promotype.Env) *Service { return &Service{store: store, env: env} }

// CreateAppKey creates an application key pair for projectID and returns it
// in clear text; only its hash is stored.
func (s *Service) CreateAppKey(ctx context.Context, projectID string, in KeyParams) (Credentials, error) {
	k, creds, err := NewAppKey(projectID, in, s.env.Clock.Now())
	if err != nil {
		return Credentials{}, err
	}
	if err := s.store.InsertAppKey(ctx, k); err != nil {
		return Credentials{}, err
	}
	return creds, nil
}

// AuthenticateApp checks an application key pair and returns its project id.
// Any failure is the spec's 401.
func (s *Service) AuthenticateApp(ctx context.Context, appID, token string) (string, error) {
	if appID == "" || token == "" {
		return "", promotype.Unauthorized()
	}
	k, err := s.store.GetAppKey(ctx, appID)
	if err != nil {
		return "", unauthorizedOr(err)
	}
	if !Match(token, k.SecretHash) {
		return "", promotype.Unauthorized()
	}
	return k.ProjectID, nil
}

// CreateManagementKey creates a management key pair granted to projectIDs.
func (s *Service) CreateManagementKey(ctx context.Context, in KeyParams, projectIDs ...string) (Credentials, error) {
	in, err := in.fill()
	if err != nil {
		return Credentials{}, err
	}
	k := &ManagementKey{ID: in.ID, SecretHash: Hash(in.Secret), ProjectIDs: append([]string{}, projectIDs...), CreatedAt: s.env.Clock.Now()}
	if err := s.store.InsertManagementKey(ctx, k); err != nil {
		return Credentials{}, err
	}
	return Credentials{ID: in.ID, Secret: in.Secret}, nil
}

// GrantProject lets a management key manage one more project.
func (s *Service) GrantProject(ctx context.Context, keyID, projectID string) error {
	return Grant(ctx, s.store, keyID, projectID)
}

// Grant lets management key keyID manage projectID, through st (which may
// be bound to the caller's transaction).
func Grant(ctx context.Context, st Store, keyID, projectID string) error {
	k, err := st.GetManagementKey(ctx, keyID)
	if err != nil {
		return err
	}
	if k.Grants(projectID) {
		return nil
	}
	k.ProjectIDs = append(k.ProjectIDs, projectID)
	return st.UpdateManagementKey(ctx, k)
}

// AuthenticateManagement checks a management key pair.
func (s *Service) AuthenticateManagement(ctx context.Context, id, token string) (*ManagementKey, error) {
	if id == "" || token == "" {
		return nil, promotype.Unauthorized()
	}
	k, err := s.store.GetManagementKey(ctx, id)
	if err != nil {
		return nil, unauthorizedOr(err)
	}
	if !Match(token, k.SecretHash) {
		return nil, promotype.Unauthorized()
	}
	return k, nil
}

func unauthorizedOr(err error) error {
	if errors.Is(err, promotype.ErrNotFound) {
		return promotype.Unauthorized()
	}
	return err
}
