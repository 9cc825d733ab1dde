package bunstore

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// Keys are global rows: an app key names its project; a management key
// lists the projects it may manage.

type appKeyRow struct {
	bun.BaseModel `bun:"table:promo_app_keys,alias:k"`

	AppID      string    `bun:"app_id,pk"`
	ProjectID  string    `bun:"project_id"`
	SecretHash []byte    `bun:"secret_hash"`
	CreatedAt  time.Time `bun:"created_at"`
}

type managementKeyRow struct {
	bun.BaseModel `bun:"table:promo_management_keys,alias:k"`

	ID         string    `bun:"id,pk"`
	SecretHash []byte    `bun:"secret_hash"`
	ProjectIDs []string  `bun:"project_ids,array"`
	CreatedAt  time.Time `bun:"created_at"`
}

// InsertAppKey implements auth.Store.
func (s *Store) InsertAppKey(ctx context.Context, k *auth.AppKey) error {
	if err := checkText("application key", str("id", k.AppID), str("project_id", k.ProjectID)); err != nil {
		return err
	}
	row := &appKeyRow{AppID: k.AppID, ProjectID: k.ProjectID, SecretHash: slices.Clone(k.SecretHash), CreatedAt: sqlTime(k.CreatedAt)}
	dup := func() error {
		return promotype.Duplicate("app_key", "Duplicated application key exists with id %s", k.AppID)
	}
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert app key", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
}

// GetAppKey implements auth.Store.
func (s *Store) GetAppKey(ctx context.Context, appID string) (*auth.AppKey, error) {
	notFound := func() error { return promotype.NotFound("app_key", appID) }
	if !storable(appID) {
		return nil, notFound()
	}
	var row appKeyRow
	if err := s.db.NewSelect().Model(&row).Where("app_id = ?", appID).Scan(ctx); err != nil {
		return nil, getErr("get app key", err, notFound)
	}
	return &auth.AppKey{AppID: row.AppID, ProjectID: row.ProjectID, SecretHash: row.SecretHash, CreatedAt: domainTime(row.CreatedAt)}, nil
}

func newManagementKeyRow(k *auth.ManagementKey) (*managementKeyRow, error) {
	fields := []text{str("id", k.ID)}
	for _, p := range k.ProjectIDs {
		fields = append(fields, str("project_ids", p))
	}
	if err := checkText("management key", fields...); err != nil {
		return nil, err
	}
	return &managementKeyRow{
		ID:         k.ID,
		SecretHash: slices.Clone(k.SecretHash),
		ProjectIDs: slices.Clone(k.ProjectIDs),
		CreatedAt:  sqlTime(k.CreatedAt),
	}, nil
}

// InsertManagementKey implements auth.Store.
func (s *Store) InsertManagementKey(ctx context.Context, k *auth.ManagementKey) error {
	row, err := newManagementKeyRow(k)
	if err != nil {
		return err
	}
	dup := func() error {
		return promotype.Duplicate("management_key", "Duplicated management key exists with id %s", k.ID)
	}
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert management key", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
}

// GetManagementKey implements auth.Store.
func (s *Store) GetManagementKey(ctx context.Context, id string) (*auth.ManagementKey, error) {
	notFound := func() error { return promotype.NotFound("management_key", id) }
	if !storable(id) {
		return nil, notFound()
	}
	var row managementKeyRow
	if err := s.db.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, getErr("get management key", err, notFound)
	}
	return &auth.ManagementKey{ID: row.ID, SecretHash: row.SecretHash, ProjectIDs: row.ProjectIDs, CreatedAt: domainTime(row.CreatedAt)}, nil
}

// UpdateManagementKey implements auth.Store.
func (s *Store) UpdateManagementKey(ctx context.Context, k *auth.ManagementKey) error {
	notFound := func() error { return promotype.NotFound("management_key", k.ID) }
	row, err := newManagementKeyRow(k)
	if err != nil {
		if !storable(k.ID) {
			return notFound()
		}
		return err
	}
	res, err := s.db.NewUpdate().Model(row).WherePK().ExcludeColumn("id").Exec(ctx)
	if err != nil {
		return fail("update management key", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}
