package auth

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// Service issues and checks credentials. Verified app keys and tokens are
// cached in process (see cache), kept true by the store's invalidation
// feed, so a repeated request is authenticated without reading the store.
type Service struct {
	store Store
	env   promotype.Env
	cache *cache
}

// NewService returns an auth service over store, subscribed to its
// invalidation feed for as long as the process runs.
func NewService(store Store, env promotype.Env) *Service {
	s := &Service{store: store, env: env, cache: newCache()}
	s.cache.watch(store)
	return s
}

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
	s.cache.forgetUnknownApp(k.AppID)
	return creds, nil
}

// DeleteAppKey deletes the application key appID of projectID and revokes
// every token it issued. Every engine over the same store (every replica
// over the same database) stops accepting both at once: this engine
// before DeleteAppKey returns, the others when the store's feed delivers
// the change (see the store's documentation).
func (s *Service) DeleteAppKey(ctx context.Context, projectID, appID string) error {
	err := s.store.DeleteAppKey(ctx, projectID, appID, s.env.Clock.Now())
	s.cache.invalidate(Invalidation{AppID: appID})
	return err
}

// ForgetProject drops the cached credentials of projectID at once, for a
// project deleted through this engine (other engines over the store hear
// of its deleted keys through the store's credential feed).
func (s *Service) ForgetProject(projectID string) { s.cache.forgetProject(projectID) }

// AuthenticateApp checks an application key pair and returns its project id.
// Any failure is the hosted API's 401. The presented token is hashed and compared
// in constant time with the stored hash on every call; the stored hash comes
// from the cache when the key was seen before. An unknown app id does the
// same work (against a hash no secret has), so that the answer's timing
// does not tell an unknown id from a wrong secret, and is remembered for a
// moment (see cache) so that repeating it does not read the store.
func (s *Service) AuthenticateApp(ctx context.Context, appID, token string) (string, error) {
	if appID == "" || token == "" {
		return "", promotype.Unauthorized()
	}
	presented := HashToken(token)
	if e, ok := s.cache.app(appID); ok {
		if !equalHash(presented, e.hash) {
			return "", promotype.Unauthorized()
		}
		return e.projectID, nil
	}
	now := s.env.Clock.Now().Time
	if s.cache.unknownApp(appID, now) {
		_ = equalHash(presented, noSecretHash)
		return "", promotype.Unauthorized()
	}
	gen := s.cache.generation()
	k, err := s.store.GetAppKey(ctx, appID)
	if errors.Is(err, promotype.ErrNotFound) {
		s.cache.putUnknownApp(appID, gen, now)
		_ = equalHash(presented, noSecretHash)
		return "", promotype.Unauthorized()
	}
	if err != nil {
		return "", err
	}
	s.cache.putApp(k, gen)
	if len(k.SecretHash) != len(presented) || !equalHash(presented, TokenHash(k.SecretHash)) {
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
	return Credentials(in), nil
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

// AuthenticateManagement checks a management key pair. Management keys are
// not cached: the management API is not a hot path, and grants change.
func (s *Service) AuthenticateManagement(ctx context.Context, id, token string) (*ManagementKey, error) {
	if id == "" || token == "" {
		return nil, promotype.Unauthorized()
	}
	k, err := s.store.GetManagementKey(ctx, id)
	if err != nil {
		_ = Match(token, noSecretHash[:]) // the same work as a wrong secret
		return nil, unauthorizedOr(err)
	}
	if !Match(token, k.SecretHash) {
		return nil, promotype.Unauthorized()
	}
	return k, nil
}

// AuthorizeManagement checks a management key pair and that it is granted
// projectID (when not empty). A project the key is not granted is answered
// exactly as a project that does not exist: 404 not_found.
func (s *Service) AuthorizeManagement(ctx context.Context, id, token, projectID string) (*ManagementKey, error) {
	k, err := s.AuthenticateManagement(ctx, id, token)
	if err != nil {
		return nil, err
	}
	if projectID != "" && !k.Grants(projectID) {
		return nil, promotype.NotFound("project", projectID)
	}
	return k, nil
}

// noSecretHash is compared with the presented secret of an unknown key id,
// so that it costs what a wrong secret costs. No secret hashes to it
// (it is not a SHA-256 output anyone can find).
var noSecretHash = TokenHash{0: 0xff, 31: 0xff}

func unauthorizedOr(err error) error {
	if errors.Is(err, promotype.ErrNotFound) {
		return promotype.Unauthorized()
	}
	return err
}
