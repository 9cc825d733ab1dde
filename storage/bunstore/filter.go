package bunstore

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

// column is a filterable or orderable field of a list: its SQL column and
// its kind.
type column struct {
	name string
	kind promotype.FieldKind
}

// columns maps the field names of a list (as promotype.Query names them) to
// columns. It is the whitelist of what reaches SQL: values always go in as
// arguments.
type columns map[string]column

// where returns the WHERE fragment (with '?' placeholders) and arguments of
// q's filter and Must conditions, with exactly promotype.Query.Match's
// semantics: Must conditions and the filter are ANDed, the filter's
// conditions are joined by its junction, and nulls match only $is_unknown and
// the negative string operators. A query without conditions gives "".
func (cols columns) where(q promotype.Query) (string, []any, error) {
	var parts []string
	var args []any
	for _, c := range q.Must {
		sql, a, err := cols.condition(c)
		if err != nil {
			return "", nil, err
		}
		parts, args = append(parts, sql), append(args, a...)
	}
	if len(q.Filter.Conditions) > 0 {
		junction := " AND "
		if q.Filter.Junction == promotype.JunctionOr {
			junction = " OR "
		}
		group := make([]string, 0, len(q.Filter.Conditions))
		for _, c := range q.Filter.Conditions {
			sql, a, err := cols.condition(c)
			if err != nil {
				return "", nil, err
			}
			group, args = append(group, sql), append(args, a...)
		}
		parts = append(parts, "("+strings.Join(group, junction)+")")
	}
	return strings.Join(parts, " AND "), args, nil
}

// condition translates one condition. Every fragment is parenthesized and
// evaluates to NULL only where Match says false, so AND/OR combine them
// exactly as Match does. A value PostgreSQL text cannot hold (invalid UTF-8
// or NUL) equals no stored string but may still be a byte-wise part of one,
// so the substring operators compare bytes for it.
func (cols columns) condition(c promotype.Condition) (string, []any, error) {
	col, ok := cols[c.Field]
	if !ok {
		return "", nil, fmt.Errorf("bunstore: %q is not a filterable field", c.Field)
	}
	id := bun.Ident(col.name)
	switch c.Op {
	case promotype.OpHasValue:
		return "(? IS NOT NULL)", []any{id}, nil
	case promotype.OpIsUnknown:
		return "(? IS NULL)", []any{id}, nil
	}
	if col.kind == promotype.FieldTime {
		switch c.Op {
		case promotype.OpAfter:
			return "(? > ?)", []any{id, sqlTime(c.At)}, nil
		case promotype.OpBefore:
			return "(? < ?)", []any{id, sqlTime(c.At)}, nil
		}
		return "", nil, fmt.Errorf("bunstore: operator %s does not apply to the time field %s", c.Op, c.Field)
	}
	switch c.Op {
	case promotype.OpIn, promotype.OpNotIn:
		if len(c.Values) == 0 {
			return "", nil, fmt.Errorf("bunstore: %s %s needs a value", c.Field, c.Op)
		}
		vals := make([]string, 0, len(c.Values))
		for _, v := range c.Values {
			if storable(v) {
				vals = append(vals, v)
			}
		}
		if c.Op == promotype.OpIn {
			if len(vals) == 0 {
				return "(FALSE)", nil, nil
			}
			return "(? IN (?))", []any{id, bun.List(vals)}, nil
		}
		if len(vals) == 0 {
			return "(TRUE)", nil, nil
		}
		return "(? IS NULL OR ? NOT IN (?))", []any{id, id, bun.List(vals)}, nil
	}
	if len(c.Values) != 1 {
		return "", nil, fmt.Errorf("bunstore: %s %s needs exactly one value", c.Field, c.Op)
	}
	v := c.Values[0]
	if !storable(v) {
		return bytesCondition(id, c.Op, []byte(v))
	}
	switch c.Op {
	case promotype.OpIs:
		return "(? = ?)", []any{id, v}, nil
	case promotype.OpIsNot:
		return "(? IS DISTINCT FROM ?)", []any{id, v}, nil
	case promotype.OpStartsWith:
		return "(starts_with(?, ?))", []any{id, v}, nil
	case promotype.OpEndsWith:
		return "(right(?, ?) = ?)", []any{id, utf8.RuneCountInString(v), v}, nil
	case promotype.OpContains:
		return "(strpos(?, ?) > 0)", []any{id, v}, nil
	case promotype.OpNotContain:
		return "(? IS NULL OR strpos(?, ?) = 0)", []any{id, id, v}, nil
	}
	return "", nil, fmt.Errorf("bunstore: operator %s does not apply to the string field %s", c.Op, c.Field)
}

// bytesCondition tests a column against a value that no text column can
// equal, comparing the column's UTF-8 bytes.
func bytesCondition(id bun.Ident, op promotype.Op, v []byte) (string, []any, error) {
	const b = "convert_to(?, 'UTF8')"
	switch op {
	case promotype.OpIs:
		return "(FALSE)", nil, nil
	case promotype.OpIsNot:
		return "(TRUE)", nil, nil
	case promotype.OpStartsWith:
		return "(substr(" + b + ", 1, ?) = CAST(? AS bytea))", []any{id, len(v), v}, nil
	case promotype.OpEndsWith:
		return "(length(" + b + ") >= ? AND substr(" + b + ", length(" + b + ") - ? + 1) = CAST(? AS bytea))",
			[]any{id, len(v), id, id, len(v), v}, nil
	case promotype.OpContains:
		return "(position(CAST(? AS bytea) IN " + b + ") > 0)", []any{v, id}, nil
	case promotype.OpNotContain:
		return "(? IS NULL OR position(CAST(? AS bytea) IN " + b + ") = 0)", []any{id, v, id}, nil
	}
	return "", nil, fmt.Errorf("bunstore: operator %s does not apply to a string field", op)
}

// order applies q's order: by the ordered field, then id, both in q's
// direction, nulls first ascending and last descending, strings bytewise.
// An empty OrderBy orders by id alone (every row's field is null).
func (cols columns) order(sel *bun.SelectQuery, q promotype.Query) (*bun.SelectQuery, error) {
	dir, nulls := "ASC", "NULLS FIRST"
	if q.Desc {
		dir, nulls = "DESC", "NULLS LAST"
	}
	if q.OrderBy != "" {
		col, ok := cols[q.OrderBy]
		if !ok {
			return nil, fmt.Errorf("bunstore: %q is not an order field", q.OrderBy)
		}
		collate := ""
		if col.kind == promotype.FieldString {
			collate = ` COLLATE "C"`
		}
		sel = sel.OrderExpr("?"+collate+" "+dir+" "+nulls, bun.Ident(col.name))
	}
	return sel.OrderExpr(`"id" COLLATE "C" ` + dir), nil
}

// idPage applies q's conditions and order to sel and, when after is not
// empty, keeps the rows past the id after in q's direction: a page of a
// list paged by id (starting_after_id). alias names the rows' table.
func (cols columns) idPage(sel *bun.SelectQuery, alias string, q promotype.Query, after string) (*bun.SelectQuery, error) {
	where, args, err := cols.where(q)
	if err != nil {
		return nil, err
	}
	if where != "" {
		sel = sel.Where(where, args...)
	}
	if after != "" {
		op := ">"
		if q.Desc {
			op = "<"
		}
		sel = sel.Where(alias+`.id COLLATE "C" `+op+` ?`, after)
	}
	return cols.order(sel, q)
}
