package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// insertNew inserts row; a row with the same primary key is dup(). The
// conflict is found without raising an error inside the caller's
// transaction.
func insertNew(ctx context.Context, db bun.IDB, op string, row any, dup func() error) error {
	return insertAllNew(ctx, db, op, row, 1, dup)
}

// insertAllNew inserts the n rows of model (a row or a pointer to a slice
// of rows) in one statement; when any of them has a taken primary key it
// is dup() (the caller's transaction undoes the others).
func insertAllNew(ctx context.Context, db bun.IDB, op string, model any, n int, dup func() error) error {
	res, err := db.NewInsert().Model(model).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail(op, err, dup)
	}
	if got, _ := res.RowsAffected(); got != int64(n) {
		return dup()
	}
	return nil
}

// rowErr is the error of building the row of an update from a domain
// value: a value whose keys cannot be stored names no stored row
// (notFound); any other build error stands.
func rowErr(err error, projectID, id string, notFound func() error) error {
	if !storableKeys(projectID, id) {
		return notFound()
	}
	return err
}

// replaceRow overwrites every column of the row with row's primary key
// (project_id and id stay); no such row is notFound().
func replaceRow(ctx context.Context, db bun.IDB, op string, row any, notFound func() error) error {
	res, err := db.NewUpdate().Model(row).WherePK().ExcludeColumn("project_id", "id").Exec(ctx)
	if err != nil {
		return fail(op, err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}

// row is a table row that converts to its domain value D.
type row[R any, D any] interface {
	*R
	domain() (D, error)
}

// listedRow is a row that also carries the list total.
type listedRow[R any, D any] interface {
	row[R, D]
	listTotal() int
}

// getByID reads the row (projectID, id) of the table aliased alias.
func getByID[R any, P row[R, D], D any](ctx context.Context, db bun.IDB, op, alias, projectID, id string, notFound func() error) (D, error) {
	var zero D
	if !storableKeys(projectID, id) {
		return zero, notFound()
	}
	var r R
	if err := db.NewSelect().Model(&r).Where(alias+".project_id = ? AND "+alias+".id = ?", projectID, id).Scan(ctx); err != nil {
		return zero, getErr(op, err, notFound)
	}
	return P(&r).domain()
}

// listProject lists the rows of one project with q; counter names the
// list's rows in promo_list_counts ("" if the table has none).
func listProject[R any, P listedRow[R, D], D any](ctx context.Context, db bun.IDB, cols columns, alias, counter, projectID string, q promotype.Query) ([]D, int, error) {
	if !storable(projectID) {
		return []D{}, 0, nil
	}
	var t *tally
	if counter != "" {
		t = projectTally(counter, projectID, q)
	}
	return listDomain[R, P](ctx, db, cols, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where(alias+".project_id = ?", projectID)
	}, t)
}

// listDomain lists the rows where selects (see list) as domain values.
func listDomain[R any, P listedRow[R, D], D any](ctx context.Context, db bun.IDB, cols columns, q promotype.Query, where func(*bun.SelectQuery) *bun.SelectQuery, t *tally) ([]D, int, error) {
	rows, total, err := list[R, P](ctx, db, cols, q, where, t)
	if err != nil {
		return nil, 0, err
	}
	out, err := domains[R, P](rows)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// domains converts rows to their domain values.
func domains[R any, P row[R, D], D any](rows []R) ([]D, error) {
	out := make([]D, len(rows))
	for i := range rows {
		var err error
		if out[i], err = P(&rows[i]).domain(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// deleteByID deletes the row (projectID, id); no such row is notFound().
func deleteByID[R any](ctx context.Context, db bun.IDB, op, alias, projectID, id string, notFound func() error) error {
	if !storableKeys(projectID, id) {
		return notFound()
	}
	res, err := db.NewDelete().Model((*R)(nil)).Where(alias+".project_id = ? AND "+alias+".id = ?", projectID, id).Exec(ctx)
	if err != nil {
		return fail(op, err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}

// binByID moves the live row (projectID, id) of the table aliased alias to
// the bin at at; no live row is notFound().
func binByID[R any](ctx context.Context, db bun.IDB, op, alias, projectID, id string, at promotype.Time, notFound func() error) error {
	if !storableKeys(projectID, id) {
		return notFound()
	}
	res, err := db.NewUpdate().Model((*R)(nil)).Set("binned_at = ?", sqlTime(at)).
		Where(alias+".project_id = ? AND "+alias+".id = ? AND "+alias+".binned_at IS NULL", projectID, id).Exec(ctx)
	if err != nil {
		return fail(op, err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return nil
}
