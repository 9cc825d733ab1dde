package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
)

type tokenRow struct {
	bun.BaseModel `bun:"table:promo_oauth_tokens,alias:t"`

	TokenHash []byte     `bun:"token_hash,pk"`
	ProjectID string     `bun:"project_id"`
	ClientID  string     `bun:"client_id"`
	Scope     string     `bun:"scope"`
	CreatedAt time.Time  `bun:"created_at"`
	ExpiresAt time.Time  `bun:"expires_at"`
	RevokedAt *time.Time `bun:"revoked_at"`
}

func (r *tokenRow) domain() *auth.Token {
	t := &auth.Token{ProjectID: r.ProjectID, ClientID: r.ClientID, Scope: r.Scope,
		CreatedAt: domainTime(r.CreatedAt), ExpiresAt: domainTime(r.ExpiresAt), RevokedAt: domainTimePtr(r.RevokedAt)}
	copy(t.Hash[:], r.TokenHash)
	return t
}

// tokensLockKey is the first key of the transaction-scoped advisory lock
// that serializes token issue and app key deletion in one project ("tokn");
// the second is a hash of the project id.
const tokensLockKey = 0x746f6b6e

// authChannel is the NOTIFY channel of credential invalidations.
const authChannel = "promo_auth"

// notifyColumns is the select list that bumps nothing by itself but sends
// the notification of one invalidation: the JSON payload names the schema
// (the channel is shared by every schema of the database), the new
// generation g, and the revoked token's hash t or the deleted app id a.
const notifyColumns = `g.gen, pg_notify('` + authChannel + `', json_build_object('s', coalesce(current_schema(), ''), 'g', g.gen, %s)::text)::text`

// inTx runs fn in a read-committed transaction of its own, or in the
// transaction s is bound to. Read committed matters: every statement after
// the advisory lock sees what the previous holder committed.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, db bun.IDB) error) error {
	switch s.db.(type) {
	case bun.Tx, *bun.Tx, pendingTx:
		return fn(ctx, s.db)
	}
	return s.db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, func(ctx context.Context, tx bun.Tx) error {
		return fn(ctx, tx)
	})
}

// lockTokens takes the advisory lock of projectID's tokens until the
// transaction ends.
func lockTokens(ctx context.Context, db bun.IDB, projectID string) error {
	if _, err := db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?, hashtext(?))", tokensLockKey, projectID); err != nil {
		return fail("lock tokens", err, nil)
	}
	return nil
}

// InsertToken implements auth.Store: under the project's advisory lock, one
// statement drops the project's expired tokens and inserts t if its app key
// exists and the live count is below maxLive; when nothing was inserted, a
// second query tells why.
func (s *Store) InsertToken(ctx context.Context, t *auth.Token, maxLive int) error {
	if !storableKeys(t.ProjectID, t.ClientID) {
		return promotype.Unauthorized() // no such key can exist
	}
	if err := checkText("token", str("scope", t.Scope)); err != nil {
		return err
	}
	return s.inTx(ctx, func(ctx context.Context, db bun.IDB) error {
		if err := lockTokens(ctx, db, t.ProjectID); err != nil {
			return err
		}
		created, expires := sqlTime(t.CreatedAt), sqlTime(t.ExpiresAt)
		citus, err := s.onCitus(ctx, db)
		if err != nil {
			return err
		}
		prune := `WITH pruned AS (
				DELETE FROM promo_oauth_tokens WHERE project_id = ? AND expires_at <= ?
			)
			`
		args := []any{t.ProjectID, created}
		if citus {
			// Citus cannot run the insert of a reference table beside a
			// delete of it in one statement ("cannot execute a distributed
			// query from a query on a shard"): the prune goes first.
			if _, err := db.ExecContext(ctx, "DELETE FROM promo_oauth_tokens WHERE project_id = ? AND expires_at <= ?", args...); err != nil {
				return fail("prune tokens", err, nil)
			}
			prune, args = "", nil
		}
		res, err := db.ExecContext(ctx, prune+`INSERT INTO promo_oauth_tokens (token_hash, project_id, client_id, scope, created_at, expires_at, revoked_at)
			SELECT ?, ?, ?, ?, ?, ?, NULL
			WHERE EXISTS (SELECT 1 FROM promo_app_keys WHERE app_id = ? AND project_id = ?)
			  AND (SELECT count(*) FROM promo_oauth_tokens
			       WHERE project_id = ? AND revoked_at IS NULL AND expires_at > ?) < ?
			ON CONFLICT DO NOTHING`,
			append(args, t.Hash[:], t.ProjectID, t.ClientID, t.Scope, created, expires,
				t.ClientID, t.ProjectID,
				t.ProjectID, created, maxLive)...)
		if err != nil {
			return fail("insert token", err, nil)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		var why struct {
			Key  bool `bun:"key"`
			Hash bool `bun:"hash"`
		}
		err = db.NewRaw(`SELECT EXISTS (SELECT 1 FROM promo_app_keys WHERE app_id = ? AND project_id = ?) AS key,
			EXISTS (SELECT 1 FROM promo_oauth_tokens WHERE token_hash = ?) AS hash`,
			t.ClientID, t.ProjectID, t.Hash[:]).Scan(ctx, &why)
		switch {
		case err != nil:
			return fail("insert token", err, nil)
		case !why.Key:
			return promotype.Unauthorized()
		case why.Hash:
			return promotype.Duplicate("token", "Duplicated token exists with this hash")
		}
		return auth.TokenLimitExceeded(maxLive)
	})
}

// GetToken implements auth.Store.
func (s *Store) GetToken(ctx context.Context, h auth.TokenHash) (*auth.Token, error) {
	var row tokenRow
	err := s.db.NewSelect().Model(&row).Where("token_hash = ?", h[:]).Scan(ctx)
	if err != nil {
		return nil, getErr("get token", err, func() error { return promotype.NotFound("token", "") })
	}
	return row.domain(), nil
}

// RevokeToken implements auth.Store in one statement: the revocation, the
// generation bump and the notification commit together.
func (s *Store) RevokeToken(ctx context.Context, projectID string, h auth.TokenHash, at promotype.Time) error {
	if !storable(projectID) {
		return promotype.NotFound("token", "")
	}
	n, err := countRows(ctx, s.db, `WITH r AS (
			UPDATE promo_oauth_tokens SET revoked_at = ?
			WHERE token_hash = ? AND project_id = ? AND revoked_at IS NULL AND expires_at > ?
			RETURNING token_hash
		), g AS (
			UPDATE promo_auth_generation SET gen = gen + 1 WHERE EXISTS (SELECT 1 FROM r) RETURNING gen
		)
		SELECT `+notifyPayload("'t', encode(r.token_hash, 'hex')")+` FROM g, r`,
		sqlTime(at), h[:], projectID, sqlTime(at))
	if err != nil {
		return fail("revoke token", err, nil)
	}
	if n == 0 {
		return promotype.NotFound("token", "")
	}
	return nil
}

// DeleteAppKey implements auth.Store: under the project's token lock (so
// no token of the key can be issued meanwhile), one statement deletes the
// key, revokes its live tokens, bumps the generation and notifies.
func (s *Store) DeleteAppKey(ctx context.Context, projectID, appID string, at promotype.Time) error {
	notFound := func() error { return promotype.NotFound("app_key", appID) }
	if !storableKeys(projectID, appID) {
		return notFound()
	}
	return s.inTx(ctx, func(ctx context.Context, db bun.IDB) error {
		if err := lockTokens(ctx, db, projectID); err != nil {
			return err
		}
		n, err := countRows(ctx, db, `WITH k AS (
				DELETE FROM promo_app_keys WHERE app_id = ? AND project_id = ? RETURNING app_id
			), t AS (
				UPDATE promo_oauth_tokens SET revoked_at = ?
				WHERE client_id = ? AND project_id = ? AND revoked_at IS NULL AND expires_at > ?
				  AND EXISTS (SELECT 1 FROM k)
			), g AS (
				UPDATE promo_auth_generation SET gen = gen + 1 WHERE EXISTS (SELECT 1 FROM k) RETURNING gen
			)
			SELECT `+notifyPayload("'a', k.app_id")+` FROM g, k`,
			appID, projectID, sqlTime(at), appID, projectID, sqlTime(at))
		if err != nil {
			return fail("delete app key", err, nil)
		}
		if n == 0 {
			return notFound()
		}
		return nil
	})
}

// notifyPayload returns notifyColumns with the invalidation's own JSON
// member (a key and a value expression).
func notifyPayload(member string) string {
	return fmt.Sprintf(notifyColumns, member)
}

// countRows runs a query and counts the rows it returns.
func countRows(ctx context.Context, db bun.IDB, query string, args ...any) (int, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	defer func() { _ = rows.Close() }() // rows.Err reports a failed read
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

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

// WatchCredentials implements auth.Store.
func (s *Store) WatchCredentials(fn func(auth.Invalidation)) (current func() bool, stop func()) {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return neverCurrent, func() {}
	}
	return listenerFor(db.DB).subscribe(fn)
}

type clientKeyRow struct {
	bun.BaseModel `bun:"table:promo_client_keys,alias:ck"`

	AppID      string    `bun:"app_id,pk"`
	ProjectID  string    `bun:"project_id"`
	SecretHash []byte    `bun:"secret_hash"`
	Origins    []string  `bun:"origins,array"`
	CreatedAt  time.Time `bun:"created_at"`
}

// InsertClientKey implements auth.Store.
func (s *Store) InsertClientKey(ctx context.Context, k *auth.ClientKey) error {
	fields := []text{str("id", k.AppID), str("project_id", k.ProjectID)}
	for _, o := range k.Origins {
		fields = append(fields, str("origins", o))
	}
	if err := checkText("client key", fields...); err != nil {
		return err
	}
	row := &clientKeyRow{AppID: k.AppID, ProjectID: k.ProjectID, SecretHash: slices.Clone(k.SecretHash),
		Origins: slices.Clone(k.Origins), CreatedAt: sqlTime(k.CreatedAt)}
	dup := func() error {
		return promotype.Duplicate("client_key", "Duplicated client key exists with id %s", k.AppID)
	}
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert client key", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
}

// GetClientKey implements auth.Store.
func (s *Store) GetClientKey(ctx context.Context, appID string) (*auth.ClientKey, error) {
	notFound := func() error { return promotype.NotFound("client_key", appID) }
	if !storable(appID) {
		return nil, notFound()
	}
	var row clientKeyRow
	if err := s.db.NewSelect().Model(&row).Where("app_id = ?", appID).Scan(ctx); err != nil {
		return nil, getErr("get client key", err, notFound)
	}
	return row.domain(), nil
}

func (row *clientKeyRow) domain() *auth.ClientKey {
	return &auth.ClientKey{AppID: row.AppID, ProjectID: row.ProjectID, SecretHash: row.SecretHash,
		Origins: row.Origins, CreatedAt: domainTime(row.CreatedAt)}
}

// ListClientKeys implements auth.Store.
func (s *Store) ListClientKeys(ctx context.Context, projectID string) ([]*auth.ClientKey, error) {
	out := []*auth.ClientKey{}
	if !storable(projectID) {
		return out, nil
	}
	var rows []clientKeyRow
	if err := s.db.NewSelect().Model(&rows).Where("project_id = ?", projectID).
		OrderExpr("created_at, app_id").Scan(ctx); err != nil {
		return nil, fail("list client keys", err, nil)
	}
	for i := range rows {
		out = append(out, rows[i].domain())
	}
	return out, nil
}

// DeleteClientKey implements auth.Store.
func (s *Store) DeleteClientKey(ctx context.Context, projectID, appID string) error {
	notFound := func() error { return promotype.NotFound("client_key", appID) }
	if !storableKeys(projectID, appID) {
		return notFound()
	}
	res, err := s.db.NewDelete().Model((*clientKeyRow)(nil)).
		Where("app_id = ? AND project_id = ?", appID, projectID).Exec(ctx)
	if err != nil {
		return fail("delete client key", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}

// ClientOriginAllowed implements auth.Store through the GIN index on
// origins.
func (s *Store) ClientOriginAllowed(ctx context.Context, origin string) (bool, error) {
	if !storable(origin) {
		return false, nil
	}
	ok, err := s.db.NewSelect().Model((*clientKeyRow)(nil)).
		Where("origins @> ARRAY[?]::text[]", origin).Exists(ctx)
	if err != nil {
		return false, fail("client origin", err, nil)
	}
	return ok, nil
}
