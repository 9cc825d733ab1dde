package bunstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// keyed describes a table whose live rows of a project carry a unique key
// besides the id (a source id, a code, a name). Its writes are guarded so a
// clash is found without raising an error inside the caller's transaction.
type keyed struct {
	kind   string   // resource type in errors: "product"
	table  string   // "promo_products"
	alias  string   // the row model's alias: "p"
	column string   // the unique column: "source_id"
	live   string   // the condition of a live row on one column ("binned_at IS NULL"), or ""
	keep   []string // columns besides project_id and id an update leaves as they are
}

// duplicateKey is the 409 for a live row holding key already.
func (k keyed) duplicateKey(key *string) error {
	v := ""
	if key != nil {
		v = *key
	}
	return promotype.Duplicate(k.kind, "Duplicated %s exists with %s %s", k.kind, k.column, v)
}

// insert stores row (projectID, id); a taken id or live key is duplicate_found.
func (k keyed) insert(ctx context.Context, db bun.IDB, row any, projectID, id string, key *string) error {
	res, err := db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert "+k.kind, err, func() error { return k.duplicateKey(key) })
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	return k.conflict(ctx, db, projectID, id, key)
}

// conflict is the error of an insert of row (projectID, id) that inserted
// nothing: the id or a live key is taken.
func (k keyed) conflict(ctx context.Context, db bun.IDB, projectID, id string, key *string) error {
	exists, err := db.NewSelect().Table(k.table).Where("project_id = ? AND id = ?", projectID, id).Exists(ctx)
	if err != nil {
		return fail("insert "+k.kind, err, nil)
	}
	if exists {
		return promotype.Duplicate(k.kind, "Duplicated %s exists with id %s", k.kind, id)
	}
	return k.duplicateKey(key)
}

// update replaces every column of the live row (projectID, id) but the key
// columns; a key held by another live row is refused without touching the
// row. get reports whether the row exists (its not-found error) when
// nothing was updated.
func (k keyed) update(ctx context.Context, db bun.IDB, row any, key *string, get func() error) error {
	upd := db.NewUpdate().Model(row).WherePK().ExcludeColumn(append([]string{"project_id", "id"}, k.keep...)...)
	if k.live != "" {
		upd = upd.Where(k.alias + "." + k.live)
	}
	if key != nil {
		clash := fmt.Sprintf(`NOT EXISTS (SELECT 1 FROM %s AS o WHERE o.project_id = %s.project_id AND o.%s = ? AND o.id <> %s.id`,
			k.table, k.alias, k.column, k.alias)
		if k.live != "" {
			clash += " AND o." + k.live
		}
		upd = upd.Where(clash+")", *key)
	}
	res, err := upd.Exec(ctx)
	if err != nil {
		return fail("update "+k.kind, err, func() error { return k.duplicateKey(key) })
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	if err := get(); err != nil {
		return err
	}
	return k.duplicateKey(key)
}

// getLive reads the live row of the project whose column ("id" or the
// key column) is key; notFound when there is none.
func getLive[R any, P row[R, D], D any](ctx context.Context, db bun.IDB, k keyed, column, projectID, key string, notFound func() error) (D, error) {
	return readLive[R, P](ctx, db, k, column, projectID, key, notFound, false)
}

// getLiveForUpdate is getLive with the row locked (FOR UPDATE) until the
// transaction ends: a lock and a read in one statement.
func getLiveForUpdate[R any, P row[R, D], D any](ctx context.Context, db bun.IDB, k keyed, column, projectID, key string, notFound func() error) (D, error) {
	return readLive[R, P](ctx, db, k, column, projectID, key, notFound, true)
}

func readLive[R any, P row[R, D], D any](ctx context.Context, db bun.IDB, k keyed, column, projectID, key string, notFound func() error, lock bool) (D, error) {
	var zero D
	if !storableKeys(projectID, key) {
		return zero, notFound()
	}
	var r R
	name := k.table + "." + column
	if lock {
		name += ".for_update"
	}
	st := cachedStatement(name, k.table, func(db bun.IDB) string {
		q := db.NewSelect().Model(new(R)).Where(k.alias+".project_id = ? AND "+k.alias+"."+column+" = ?", placeholder(1), placeholder(2))
		if k.live != "" {
			q = q.Where(k.alias + "." + k.live)
		}
		if lock {
			q = q.For("UPDATE")
		}
		return q.String()
	})
	if err := getPrepared(ctx, db, st, &r, projectID, key); err != nil {
		return zero, getErr("get "+k.kind, err, notFound)
	}
	return P(&r).domain()
}

// replace is update for a row built from a domain value: buildErr is the
// error of building it (see rowErr), get reports whether the row exists.
func (k keyed) replace(ctx context.Context, db bun.IDB, row any, buildErr error, projectID, id string, key *string, notFound, get func() error) error {
	if buildErr != nil {
		return rowErr(buildErr, projectID, id, notFound)
	}
	return k.update(ctx, db, row, key, get)
}
