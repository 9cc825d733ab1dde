package auth

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// ClientKey is a client-side key pair of one project: the
// X-Client-Application-Id and X-Client-Token a browser or mobile
// application sends to /client/v1, usable only from its allowed origins.
type ClientKey struct {
	AppID      string
	ProjectID  string
	SecretHash []byte // SHA-256 of the token, as for AppKey
	// Origins are the allowed values of the request's Origin header, each
	// "scheme://host[:port]" in lower case. The hosted service says the origin
	// "must be whitelisted"; it documents no wildcard, so none is accepted.
	Origins   []string
	CreatedAt promotype.Time
}

// ClientKeyParams fixes a client key pair's id and secret (empty fields are
// generated) and lists its allowed origins (at least one).
type ClientKeyParams struct {
	KeyParams
	Origins []string
}

// ClientStore is the storage port of client key pairs (part of Store).
// Client keys are global rows: an app id resolves its project.
type ClientStore interface {
	// InsertClientKey stores k; a taken app id (of a client key) is
	// duplicate_found.
	InsertClientKey(ctx context.Context, k *ClientKey) error
	// GetClientKey returns the client key appID, or not_found.
	GetClientKey(ctx context.Context, appID string) (*ClientKey, error)
	// ClientOriginAllowed reports whether any client key, of any project,
	// allows origin (the answer of a CORS preflight, which carries no
	// credentials).
	ClientOriginAllowed(ctx context.Context, origin string) (bool, error)
	// ListClientKeys returns the client keys of projectID, oldest first
	// (then by app id).
	ListClientKeys(ctx context.Context, projectID string) ([]*ClientKey, error)
	// DeleteClientKey deletes the client key appID of projectID; not_found
	// when projectID has none with that id.
	DeleteClientKey(ctx context.Context, projectID, appID string) error
}

// NormalizeOrigin checks an allowed origin and returns its canonical form:
// an http or https URL with a host and nothing after it (a trailing slash
// is dropped), in lower case. "*" and "null" are refused.
func NormalizeOrigin(o string) (string, error) {
	bad := func() (string, error) {
		return "", promotype.InvalidPayload("allowed origin %q must be scheme://host[:port] with scheme http or https", o)
	}
	u, err := url.Parse(strings.TrimSuffix(strings.TrimSpace(o), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || strings.Contains(u.Host, "*") {
		return bad()
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// NewClientKey makes a client key pair of projectID (not yet stored): the
// row to store and the credentials in clear text.
func NewClientKey(projectID string, in ClientKeyParams, now promotype.Time) (*ClientKey, Credentials, error) {
	kp, err := in.fill()
	if err != nil {
		return nil, Credentials{}, err
	}
	if len(in.Origins) == 0 {
		return nil, Credentials{}, promotype.InvalidPayload("a client key needs at least one allowed origin")
	}
	origins := make([]string, 0, len(in.Origins))
	for _, o := range in.Origins {
		n, err := NormalizeOrigin(o)
		if err != nil {
			return nil, Credentials{}, err
		}
		if !slices.Contains(origins, n) {
			origins = append(origins, n)
		}
	}
	k := &ClientKey{AppID: kp.ID, ProjectID: projectID, SecretHash: Hash(kp.Secret), Origins: origins, CreatedAt: now}
	return k, Credentials(kp), nil
}

// Allows reports whether the key may be used from origin (a request's
// Origin header, compared in canonical form).
func (k *ClientKey) Allows(origin string) bool {
	n, err := NormalizeOrigin(origin)
	return err == nil && slices.Contains(k.Origins, n)
}

// CreateClientKey creates a client key pair for projectID and returns it as
// stored (canonical origins) and in clear text; only its hash is stored.
func (s *Service) CreateClientKey(ctx context.Context, projectID string, in ClientKeyParams) (*ClientKey, Credentials, error) {
	k, creds, err := NewClientKey(projectID, in, s.env.Clock.Now())
	if err != nil {
		return nil, Credentials{}, err
	}
	if err := s.store.InsertClientKey(ctx, k); err != nil {
		return nil, Credentials{}, err
	}
	return k, creds, nil
}

// ListClientKeys returns the client key pairs of projectID, oldest first,
// without their tokens (only hashes are stored).
func (s *Service) ListClientKeys(ctx context.Context, projectID string) ([]*ClientKey, error) {
	return s.store.ListClientKeys(ctx, projectID)
}

// DeleteClientKey revokes the client key pair appID of projectID: the next
// request with it is a 401 (client keys are not cached). not_found when
// the project has no such key.
func (s *Service) DeleteClientKey(ctx context.Context, projectID, appID string) error {
	return s.store.DeleteClientKey(ctx, projectID, appID)
}

// AuthenticateClient checks a client key pair and the request's origin and
// returns the key's project id. A missing or wrong pair, an unknown id and
// an origin the key does not allow are all the 401 of promotype.Unauthorized (the hosted
// service names no other answer), with the same work for an unknown id as for a
// wrong secret. Client keys are read from the store on every call (not
// cached), so a deleted key stops working at once on every replica.
func (s *Service) AuthenticateClient(ctx context.Context, appID, token, origin string) (string, error) {
	if appID == "" || token == "" {
		return "", promotype.Unauthorized()
	}
	k, err := s.store.GetClientKey(ctx, appID)
	if errors.Is(err, promotype.ErrNotFound) {
		_ = Match(token, noSecretHash[:])
		return "", promotype.Unauthorized()
	}
	if err != nil {
		return "", err
	}
	if !Match(token, k.SecretHash) || !k.Allows(origin) {
		return "", promotype.Unauthorized()
	}
	return k.ProjectID, nil
}

// ClientOriginAllowed reports whether some client key allows origin: the
// answer to a CORS preflight of /client/v1.
func (s *Service) ClientOriginAllowed(ctx context.Context, origin string) (bool, error) {
	n, err := NormalizeOrigin(origin)
	if err != nil {
		return false, nil
	}
	return s.store.ClientOriginAllowed(ctx, n)
}
