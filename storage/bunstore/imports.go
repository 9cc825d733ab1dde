package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

type importPageRow struct {
	bun.BaseModel `bun:"table:promo_import_pages,alias:ip"`

	ProjectID string `bun:"project_id,pk"`
	ActionID  string `bun:"action_id,pk"`
	Page      int    `bun:"page,pk"`
	Data      []byte `bun:"data,type:bytea"`
}

// InsertImportPages implements imports.Store: one multi-row INSERT.
func (s *Store) InsertImportPages(ctx context.Context, projectID, actionID string, pages [][]byte) error {
	if len(pages) == 0 {
		return nil
	}
	if err := checkText("import_page", str("project_id", projectID), str("action_id", actionID)); err != nil {
		return err
	}
	rows := make([]importPageRow, len(pages))
	for i, p := range pages {
		rows[i] = importPageRow{ProjectID: projectID, ActionID: actionID, Page: i, Data: p}
	}
	return insertAllNew(ctx, s.db, "insert import pages", &rows, len(rows), func() error {
		return promotype.Duplicate("import_page", "Duplicated import pages exist for %s", actionID)
	})
}

// GetImportPage implements imports.Store.
func (s *Store) GetImportPage(ctx context.Context, projectID, actionID string, n int) ([]byte, error) {
	notFound := func() error { return promotype.NotFound("import_page", actionID) }
	if !storableKeys(projectID, actionID) {
		return nil, notFound()
	}
	var data []byte
	err := s.db.NewSelect().Model((*importPageRow)(nil)).Column("data").
		Where("project_id = ? AND action_id = ? AND page = ?", projectID, actionID, n).Scan(ctx, &data)
	if err != nil {
		return nil, getErr("get import page", err, notFound)
	}
	return data, nil
}

// DeleteImportPages implements imports.Store.
func (s *Store) DeleteImportPages(ctx context.Context, projectID, actionID string) error {
	if !storableKeys(projectID, actionID) {
		return nil
	}
	_, err := s.db.NewDelete().Model((*importPageRow)(nil)).Where("project_id = ? AND action_id = ?", projectID, actionID).Exec(ctx)
	if err != nil {
		return fail("delete import pages", err, nil)
	}
	return nil
}

// InsertProducts implements imports.Store: one multi-row INSERT ... ON
// CONFLICT DO NOTHING RETURNING id; the rows not returned were rejected.
func (s *Store) InsertProducts(ctx context.Context, ps []*catalog.Product) ([]int, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	rows := make([]*productRow, len(ps))
	for i, p := range ps {
		var err error
		if rows[i], err = newProductRow(p); err != nil {
			return nil, err
		}
	}
	copied, err := copyNew(ctx, s.db, "promo_products", productCopyColumns, len(rows), func(i int) []any {
		r := rows[i]
		return []any{r.ProjectID, r.ID, nullable(r.SourceID), nullable(r.Name), nullable(r.Price), jsonb(r.Attributes), jsonb(r.Metadata),
			nullable(r.ImageURL), r.CreatedAt, nullable(r.UpdatedAt), nullable(r.BinnedAt)}
	})
	if err != nil || copied {
		return nil, err
	}
	var ids []string
	err = s.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("id").Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("insert products", err, nil)
	}
	return rejectedOf(len(ps), func(i int) string { return ps[i].ID }, ids), nil
}

// InsertSKUs implements imports.Store, as InsertProducts.
func (s *Store) InsertSKUs(ctx context.Context, ss []*catalog.SKU) ([]int, error) {
	if len(ss) == 0 {
		return nil, nil
	}
	rows := make([]*skuRow, len(ss))
	for i, sku := range ss {
		var err error
		if rows[i], err = newSKURow(sku); err != nil {
			return nil, err
		}
	}
	copied, err := copyNew(ctx, s.db, "promo_skus", skuCopyColumns, len(rows), func(i int) []any {
		r := rows[i]
		return []any{r.ProjectID, r.ID, r.ProductID, nullable(r.SourceID), nullable(r.SKU), nullable(r.Price), nullable(r.Currency),
			jsonb(r.Attributes), nullable(r.ImageURL), jsonb(r.Metadata), r.CreatedAt, nullable(r.UpdatedAt), nullable(r.BinnedAt)}
	})
	if err != nil || copied {
		return nil, err
	}
	var ids []string
	err = s.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("id").Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("insert skus", err, nil)
	}
	return rejectedOf(len(ss), func(i int) string { return ss[i].ID }, ids), nil
}

// The columns COPY fills for products and SKUs (every column of their rows).
var (
	productCopyColumns = []string{"project_id", "id", "source_id", "name", "price", "attributes", "metadata", "image_url",
		"created_at", "updated_at", "binned_at"}
	skuCopyColumns = []string{"project_id", "id", "product_id", "source_id", "sku", "price", "currency", "attributes",
		"image_url", "metadata", "created_at", "updated_at", "binned_at"}
)

// nullable is *p for COPY, or nil.
func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// jsonb is a JSON column's value for COPY: its text, or nil for NULL.
func jsonb(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// copyNew stores n new rows (row(i) in the order of cols) in table with
// COPY when db is a bulk transaction (RunInBulkTx), inside a savepoint:
// when a row's key is taken the COPY is rolled back and copyNew reports
// false, for the caller to insert the rows one statement with ON
// CONFLICT. Outside a bulk transaction it reports false at once.
func copyNew(ctx context.Context, db bun.IDB, table string, cols []string, n int, row func(i int) []any) (bool, error) {
	ct, ok := db.(copyTx)
	if !ok || n == 0 {
		return false, nil
	}
	if _, err := ct.ExecContext(ctx, "SAVEPOINT promo_import_copy"); err != nil {
		return false, fail("copy "+table, err, nil)
	}
	err := ct.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return errors.New("bunstore: COPY needs the pgx driver")
		}
		_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(n, func(i int) ([]any, error) { return row(i), nil }))
		return err
	})
	if err == nil {
		if _, err := ct.ExecContext(ctx, "RELEASE SAVEPOINT promo_import_copy"); err != nil {
			return false, fail("copy "+table, err, nil)
		}
		return true, nil
	}
	if !isUniqueViolation(err) {
		return false, fail("copy "+table, err, nil)
	}
	if _, err := ct.ExecContext(ctx, "ROLLBACK TO SAVEPOINT promo_import_copy"); err != nil {
		return false, fail("copy "+table, err, nil)
	}
	return false, nil
}
