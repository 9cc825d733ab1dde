package bunstore

import (
	"context"

	"github.com/uptrace/bun"
)

// insertNew inserts row; a row with the same primary key is dup(). The
// conflict is found without raising an error inside the caller's
// transaction.
func insertNew(ctx context.Context, db bun.IDB, op string, row any, dup func() error) error {
	res, err := db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail(op, err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
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
