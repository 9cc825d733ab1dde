package memory

import (
	"context"
	"slices"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

// Projects and keys are global rows: they live under the "" project key.

// InsertProject implements project.Store.
func (s *Store) InsertProject(_ context.Context, p *project.Project) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.projects.get("", p.ID); ok {
			return promotype.Duplicate("project", "Duplicated project exists with id %s", p.ID)
		}
		c := *p
		d.projects.put(u, "", p.ID, &c)
		return nil
	})
}

// GetProject implements project.Store.
func (s *Store) GetProject(_ context.Context, id string) (out *project.Project, err error) {
	s.read(func(d *data) {
		p, ok := d.projects.get("", id)
		if !ok {
			err = promotype.NotFound("project", id)
			return
		}
		c := *p
		out = &c
	})
	return out, err
}

// InsertAppKey implements auth.Store.
func (s *Store) InsertAppKey(_ context.Context, k *auth.AppKey) error {
	return s.write(func(d *data, u *undo) error {
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
func (s *Store) GetAppKey(_ context.Context, appID string) (out *auth.AppKey, err error) {
	s.read(func(d *data) {
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
func (s *Store) InsertManagementKey(_ context.Context, k *auth.ManagementKey) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.mgmtKeys.get("", k.ID); ok {
			return promotype.Duplicate("management_key", "Duplicated management key exists with id %s", k.ID)
		}
		d.mgmtKeys.put(u, "", k.ID, cloneMgmt(k))
		return nil
	})
}

// GetManagementKey implements auth.Store.
func (s *Store) GetManagementKey(_ context.Context, id string) (out *auth.ManagementKey, err error) {
	s.read(func(d *data) {
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
func (s *Store) UpdateManagementKey(_ context.Context, k *auth.ManagementKey) error {
	return s.write(func(d *data, u *undo) error {
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
