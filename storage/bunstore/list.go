package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// counted is a row struct with a scan-only "total" column, filled by the
// total subquery of a list query.
type counted[R any] interface {
	*R
	listTotal() int
}

// tally names the rows of promo_list_counts that hold how many rows a
// list's scope selects (migration 0015: statement triggers keep them
// exact in the writing transaction). scope is "" for every live row of the
// project, or "<column>=<value>" for those with one value of a column
// counted per value.
type tally struct {
	list, projectID, scope string
}

// projectTally is the tally of every live row of the project, for a query
// without conditions of its own; nil (count the matches) otherwise.
func projectTally(list, projectID string, q promotype.Query) *tally {
	if len(q.Must) > 0 || len(q.Filter.Conditions) > 0 {
		return nil
	}
	return &tally{list: list, projectID: projectID}
}

// list runs a list query over the rows scope selects: the page q asks for,
// in q's order, and the number of rows matching q's conditions (ignoring
// limit and offset). One statement returns both, so they agree: the page
// is read off an index in q's order (never sorting or counting the whole
// project), and the total is a subquery evaluated once, reading the
// counter rows of t when the caller gives them (t must count exactly what
// scope and q select), else counting the matches, which the list indexes
// make cheap for selective filters; the store's query deadline bounds it
// otherwise. A second statement reads the total alone when the page is
// empty.
func list[R any, P counted[R]](ctx context.Context, db bun.IDB, cols columns, q promotype.Query,
	scope func(*bun.SelectQuery) *bun.SelectQuery, t *tally,
) ([]R, int, error) {
	where, args, err := cols.where(q)
	if err != nil {
		return nil, 0, err
	}
	totalQuery := func() *bun.SelectQuery {
		if t != nil {
			return db.NewSelect().Table("promo_list_counts").ColumnExpr("coalesce(sum(n), 0)").
				Where("project_id = ? AND list = ? AND scope = ?", t.projectID, t.list, t.scope)
		}
		sel := scope(db.NewSelect().Model((*R)(nil))).ColumnExpr("count(*)")
		if where != "" {
			sel = sel.Where(where, args...)
		}
		return sel
	}
	offset := max(q.Offset, 0)
	var rows []R
	if q.Limit > 0 { // bun reads Limit(0) as "no limit"
		sel := scope(db.NewSelect().Model(&rows)).
			ColumnExpr("?TableColumns").
			ColumnExpr("(?) AS total", totalQuery())
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
	var n int
	if err := totalQuery().Scan(ctx, &n); err != nil {
		return nil, 0, fail("count", err, nil)
	}
	return rows, n, nil
}
