package memory

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// authData holds OAuth tokens and the subscribers of credential
// invalidations.
type authData struct {
	// tokens: project id → string(hash) → token.
	tokens table[auth.Token]
	// tokenOwner: ("", string(hash)) → the token's project id.
	tokenOwner index
	feed       *feed
}

func newAuthData() authData {
	return authData{tokens: newTable[auth.Token](), tokenOwner: index{}, feed: newFeed()}
}

func tokenKey(h auth.TokenHash) string { return string(h[:]) }

// DeleteAppKey implements auth.Store. The key and its tokens go in one
// step; subscribers hear of it inside the write (before a surrounding
// transaction commits: a rollback only costs them a cache miss).
func (s *Store) DeleteAppKey(ctx context.Context, projectID, appID string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		k, ok := d.appKeys.get("", appID)
		if !ok || k.ProjectID != projectID {
			return promotype.NotFound("app_key", appID)
		}
		d.appKeys.del(u, "", appID)
		for key, t := range d.auth.tokens.rows[projectID] {
			if t.ClientID == appID && t.Live(at) {
				c := t.Clone()
				c.RevokedAt = at.Ptr()
				d.auth.tokens.put(u, projectID, key, c)
			}
		}
		d.auth.feed.deliver(auth.Invalidation{AppID: appID})
		return nil
	})
}

// InsertToken implements auth.Store. It runs under the store's write lock,
// so the live count cannot be raced.
func (s *Store) InsertToken(ctx context.Context, t *auth.Token, maxLive int) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if k, ok := d.appKeys.get("", t.ClientID); !ok || k.ProjectID != t.ProjectID {
			return promotype.Unauthorized()
		}
		key := tokenKey(t.Hash)
		if _, taken := d.auth.tokenOwner[[2]string{"", key}]; taken {
			return promotype.Duplicate("token", "Duplicated token exists with this hash")
		}
		live := 0
		for k, other := range d.auth.tokens.rows[t.ProjectID] {
			switch {
			case !t.CreatedAt.Before(other.ExpiresAt.Time): // expired: dropped
				d.auth.tokens.del(u, t.ProjectID, k)
				d.auth.tokenOwner.unset(u, "", k)
			case other.RevokedAt == nil:
				live++
			}
		}
		if live >= maxLive {
			return auth.TokenLimitExceeded(maxLive)
		}
		d.auth.tokens.put(u, t.ProjectID, key, t.Clone())
		d.auth.tokenOwner.set(u, "", key, t.ProjectID)
		return nil
	})
}

// GetToken implements auth.Store.
func (s *Store) GetToken(ctx context.Context, h auth.TokenHash) (out *auth.Token, err error) {
	s.read(ctx, func(d *data) {
		key := tokenKey(h)
		if p, ok := d.auth.tokenOwner[[2]string{"", key}]; ok {
			if t, ok := d.auth.tokens.get(p, key); ok {
				out = t.Clone()
				return
			}
		}
		err = promotype.NotFound("token", "")
	})
	return out, err
}

// RevokeToken implements auth.Store.
func (s *Store) RevokeToken(ctx context.Context, projectID string, h auth.TokenHash, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		key := tokenKey(h)
		t, ok := d.auth.tokens.get(projectID, key)
		if !ok || !t.Live(at) {
			return promotype.NotFound("token", "")
		}
		c := t.Clone()
		c.RevokedAt = at.Ptr()
		d.auth.tokens.put(u, projectID, key, c)
		d.auth.feed.deliver(auth.Invalidation{Token: &h})
		return nil
	})
}

// WatchCredentials implements auth.Store. Every engine over this store runs
// in this process, so invalidations are delivered synchronously, inside the
// write that makes them: the subscription is always current.
func (s *Store) WatchCredentials(fn func(auth.Invalidation)) (current func() bool, stop func()) {
	return alwaysCurrent, s.d.auth.feed.subscribe(fn)
}

func alwaysCurrent() bool { return true }

// InsertAppKey implements auth.Store.
func (s *Store) InsertAppKey(ctx context.Context, k *auth.AppKey) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.appKeys.get("", k.AppID); ok {
			return promotype.Duplicate("app_key", "Duplicated application key exists with id %s", k.AppID)
		}
		c := *k
		c.SecretHash = slices.Clone(k.SecretHash)
		d.appKeys.put(u, "", k.AppID, &c)
		return nil
	})
}

// GetAppKey implements auth.Store.
func (s *Store) GetAppKey(ctx context.Context, appID string) (out *auth.AppKey, err error) {
	s.read(ctx, func(d *data) {
		k, ok := d.appKeys.get("", appID)
		if !ok {
			err = promotype.NotFound("app_key", appID)
			return
		}
		c := *k
		c.SecretHash = slices.Clone(k.SecretHash)
		out = &c
	})
	return out, err
}

// InsertManagementKey implements auth.Store.
func (s *Store) InsertManagementKey(ctx context.Context, k *auth.ManagementKey) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.mgmtKeys.get("", k.ID); ok {
			return promotype.Duplicate("management_key", "Duplicated management key exists with id %s", k.ID)
		}
		d.mgmtKeys.put(u, "", k.ID, cloneMgmt(k))
		return nil
	})
}

// GetManagementKey implements auth.Store.
func (s *Store) GetManagementKey(ctx context.Context, id string) (out *auth.ManagementKey, err error) {
	s.read(ctx, func(d *data) {
		k, ok := d.mgmtKeys.get("", id)
		if !ok {
			err = promotype.NotFound("management_key", id)
			return
		}
		out = cloneMgmt(k)
	})
	return out, err
}

// UpdateManagementKey implements auth.Store.
func (s *Store) UpdateManagementKey(ctx context.Context, k *auth.ManagementKey) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.mgmtKeys.get("", k.ID); !ok {
			return promotype.NotFound("management_key", k.ID)
		}
		d.mgmtKeys.put(u, "", k.ID, cloneMgmt(k))
		return nil
	})
}

func cloneMgmt(k *auth.ManagementKey) *auth.ManagementKey {
	c := *k
	c.SecretHash = slices.Clone(k.SecretHash)
	c.ProjectIDs = slices.Clone(k.ProjectIDs)
	return &c
}

// InsertClientKey implements auth.Store.
func (s *Store) InsertClientKey(ctx context.Context, k *auth.ClientKey) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.clientKeys.get("", k.AppID); ok {
			return promotype.Duplicate("client_key", "Duplicated client key exists with id %s", k.AppID)
		}
		d.clientKeys.put(u, "", k.AppID, cloneClientKey(k))
		return nil
	})
}

// GetClientKey implements auth.Store.
func (s *Store) GetClientKey(ctx context.Context, appID string) (out *auth.ClientKey, err error) {
	s.read(ctx, func(d *data) {
		k, ok := d.clientKeys.get("", appID)
		if !ok {
			err = promotype.NotFound("client_key", appID)
			return
		}
		out = cloneClientKey(k)
	})
	return out, err
}

// ClientOriginAllowed implements auth.Store.
func (s *Store) ClientOriginAllowed(ctx context.Context, origin string) (ok bool, err error) {
	s.read(ctx, func(d *data) {
		for _, k := range d.clientKeys.rows[""] {
			if slices.Contains(k.Origins, origin) {
				ok = true
				return
			}
		}
	})
	return ok, nil
}

// ListClientKeys implements auth.Store.
func (s *Store) ListClientKeys(ctx context.Context, projectID string) (out []*auth.ClientKey, err error) {
	s.read(ctx, func(d *data) {
		out = []*auth.ClientKey{}
		for _, k := range d.clientKeys.rows[""] {
			if k.ProjectID == projectID {
				out = append(out, cloneClientKey(k))
			}
		}
	})
	slices.SortFunc(out, func(a, b *auth.ClientKey) int {
		if c := a.CreatedAt.Compare(b.CreatedAt.Time); c != 0 {
			return c
		}
		return strings.Compare(a.AppID, b.AppID)
	})
	return out, nil
}

// DeleteClientKey implements auth.Store.
func (s *Store) DeleteClientKey(ctx context.Context, projectID, appID string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		k, ok := d.clientKeys.get("", appID)
		if !ok || k.ProjectID != projectID {
			return promotype.NotFound("client_key", appID)
		}
		d.clientKeys.del(u, "", appID)
		return nil
	})
}

func cloneClientKey(k *auth.ClientKey) *auth.ClientKey {
	c := *k
	c.SecretHash = slices.Clone(k.SecretHash)
	c.Origins = slices.Clone(k.Origins)
	return &c
}
