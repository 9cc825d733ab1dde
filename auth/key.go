package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"slices"

	"github.com/promoengine/promo/promotype"
)

// AppKey is an application key pair of one project.
type AppKey struct {
	AppID      string
	ProjectID  string
	SecretHash []byte // SHA-256 of the token
	CreatedAt  promotype.Time
}

// ManagementKey is a management key pair granted to one or more projects.
type ManagementKey struct {
	ID         string
	SecretHash []byte
	ProjectIDs []string
	CreatedAt  promotype.Time
}

// Grants reports whether the key may manage projectID.
func (k *ManagementKey) Grants(projectID string) bool {
	return slices.Contains(k.ProjectIDs, projectID)
}

// Credentials are a key pair in clear text, shown once at creation.
type Credentials struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
}

// KeyParams fixes a key pair's id and secret (from configuration); empty
// fields are generated.
type KeyParams struct {
	ID     string
	Secret string
}

// Hash returns the stored form of a secret.
func Hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// Match compares a presented secret with a stored hash in constant time.
func Match(secret string, hash []byte) bool {
	h := sha256.Sum256([]byte(secret))
	return subtle.ConstantTimeCompare(h[:], hash) == 1
}

// NewUUID returns a random (version 4) UUID, the form of the hosted service's
// application ids and tokens.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// NewAppKey makes an application key pair of projectID (not yet stored):
// the row to store and the credentials in clear text.
func NewAppKey(projectID string, in KeyParams, now promotype.Time) (*AppKey, Credentials, error) {
	in, err := in.fill()
	if err != nil {
		return nil, Credentials{}, err
	}
	return &AppKey{AppID: in.ID, ProjectID: projectID, SecretHash: Hash(in.Secret), CreatedAt: now}, Credentials(in), nil
}

func (p KeyParams) fill() (KeyParams, error) {
	if p.ID == "" {
		p.ID = NewUUID()
	}
	if p.Secret == "" {
		p.Secret = NewUUID()
	}
	if len(p.Secret) < 16 {
		return p, promotype.InvalidPayload("a key secret must have at least 16 characters")
	}
	return p, nil
}
