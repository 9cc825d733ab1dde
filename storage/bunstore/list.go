package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// counted is a row struct with a scan-only "total" column, filled by the
// count(*) OVER () window of a list query.
type counted[R any] interface {
	*R
	listTotal() int
}

// list runs a list query over the rows scope selects: the page q asks for,
// in q's order, and the number of rows matching q's conditions (ignoring
// limit and offset). One query returns both; a second one counts only when
// the page is empty past the first row.
func list[R any, P counted[R]](ctx context.Context, db bun.IDB, cols columns, q promotype.Query,
	scope func(*bun.SelectQuery) *bun.SelectQuery,
) ([]R, int, error) {
	where, args, err := cols.where(q)
	if err != nil {
		return nil, 0, err
	}
	offset := max(q.Offset, 0)
	var rows []R
	if q.Limit > 0 { // bun reads Limit(0) as "no limit"
		sel := scope(db.NewSelect().Model(&rows)).
			ColumnExpr("?TableColumns").
			ColumnExpr("count(*) OVER () AS total")
		if where != "" {
			sel = sel.Where(where, args...)
		}
		if sel, err = cols.order(sel, q); err != nil {
			return nil, 0, err
		}
		if err := sel.Limit(int64(q.Limit)).Offset(int64(offset)).Scan(ctx); err != nil {
			return nil, 0, fail("list", err, nil)
		}
		if len(rows) > 0 {
			return rows, P(&rows[0]).listTotal(), nil
		}
		if offset == 0 {
			return rows, 0, nil
		}
	}
	sel := scope(db.NewSelect().Model((*R)(nil)))
	if where != "" {
		sel = sel.Where(where, args...)
	}
	n, err := sel.Count(ctx)
	if err != nil {
		return nil, 0, fail("count", err, nil)
	}
	return rows, int(n), nil
}
