package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"

	"github.com/promoengine/promo/promotype"
)

// send writes the held rows in one prepared statement of data-modifying
// WITH queries, one multi-row INSERT per table. The statement's text
// depends only on how many rows of each table it writes (its shape), so a
// redemption's flush is parsed and planned once per connection and then
// only bound: Bun's texts carry the values and were parsed and planned on
// every call, a quarter of PostgreSQL's time per redemption.
func (p *pending) send(ctx context.Context, db bun.IDB) error {
	shape := [6]int{len(p.customers), len(p.orders), len(p.redemptions), len(p.activities), len(p.events)}
	if p.heard {
		shape[5] = 1
	}
	st := heldStatement(db, shape)
	args := make([]any, 0, st.args)
	customers, orders := tableOf(db, customerRow{}), tableOf(db, orderRow{})
	redemptions, activities := tableOf(db, redemptionRow{}), tableOf(db, activityRow{})
	for _, c := range p.customers {
		args = appendFields(args, reflect.ValueOf(c).Elem(), customers.fields)
	}
	for _, o := range p.orders {
		args = appendFields(args, reflect.ValueOf(o).Elem(), orders.fields)
	}
	for _, r := range p.redemptions {
		args = appendFields(args, reflect.ValueOf(r).Elem(), redemptions.fields)
	}
	for i := range p.activities {
		args = appendFields(args, reflect.ValueOf(&p.activities[i]).Elem(), activities.fields)
	}
	for i := range p.events {
		e := &p.events[i]
		args = append(args, e.ProjectID, e.ID, e.Type, e.EntityID, e.CreatedAt, e.Data)
	}
	var inserted, added []string
	var redeemed, notified int64
	err := queryPrepared(ctx, db, st.prepared, args, func(_ *bun.DB, rows *sql.Rows) error {
		if !rows.Next() {
			return rows.Err()
		}
		return rows.Scan(pgdialect.Array(&added), pgdialect.Array(&inserted), &redeemed, &notified)
	})
	if err != nil {
		return fail("write held rows", err, nil)
	}
	for _, c := range p.customers {
		if !slices.Contains(added, c.ID) {
			return customerKeys.conflict(ctx, db, c.ProjectID, c.ID, c.SourceID)
		}
	}
	if int(redeemed) != len(p.redemptions) {
		return promotype.Duplicate("redemption", "Duplicated redemption exists")
	}
	for _, o := range p.orders {
		if !slices.Contains(inserted, o.ID) {
			return orderKeys.conflict(ctx, db, o.ProjectID, o.ID, o.SourceID)
		}
	}
	return nil
}

// heldShape is a prepared statement that writes held rows, and how many
// arguments it takes.
type heldShape struct {
	prepared *prepared
	args     int
}

// heldStatements caches the texts of the shapes of at most
// maxCachedShape rows (a checkout's); a larger one is written again on
// each use, so no sequence of requests grows the cache past a few
// thousand small texts. pgx keeps each connection's prepared statements
// in its own bounded cache either way.
var heldStatements sync.Map // [6]int (customers, orders, redemptions, activities, events, 1 if heard) → *heldShape

const maxCachedShape = 16

// heldStatement is the statement that writes shape[0] customers, shape[1]
// orders, shape[2] redemptions, shape[3] activities and shape[4] events. It
// answers one row: the ids of the customers and of the orders inserted (a
// taken key inserts none), how many
// redemption rows were inserted, and whether events were (notifying
// eventsChannel then). When shape[5] is 1 the events were kept in Go
// (pending.heard) and all are inserted.
func heldStatement(db bun.IDB, shape [6]int) *heldShape {
	cached := shape[0]+shape[1]+shape[2]+shape[3]+shape[4] <= maxCachedShape
	if st, ok := heldStatements.Load(shape); ok {
		return st.(*heldShape)
	}
	var b strings.Builder
	n := 0
	with := func(name string) {
		if n == 0 {
			b.WriteString("WITH ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(name + " AS (")
	}
	insert := func(name string, t *heldTable, rows int, tail string) {
		with(name)
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", t.name, t.columns)
		n = t.values(&b, n, rows, false)
		b.WriteString(" " + tail + ")")
	}
	if shape[0] > 0 {
		insert("w_customers", tableOf(db, customerRow{}), shape[0], "ON CONFLICT DO NOTHING RETURNING id")
	}
	if shape[1] > 0 {
		insert("w_orders", tableOf(db, orderRow{}), shape[1], "ON CONFLICT DO NOTHING RETURNING id")
	}
	if shape[2] > 0 {
		insert("w_redemptions", tableOf(db, redemptionRow{}), shape[2], "ON CONFLICT DO NOTHING RETURNING 1")
	}
	if shape[3] > 0 {
		insert("w_activities", tableOf(db, activityRow{}), shape[3], "RETURNING 1")
	}
	if shape[4] > 0 {
		with("w_events")
		b.WriteString(`INSERT INTO promo_events (project_id, id, type, entity_id, created_at, data)
	SELECT v.project_id, v.id, v.type, v.entity_id, v.created_at, v.data FROM (VALUES `)
		n = eventColumns.values(&b, n, shape[4], true)
		b.WriteString(`) AS v (project_id, id, type, entity_id, created_at, data)`)
		if shape[5] == 1 {
			b.WriteString(" RETURNING 1)")
		} else {
			b.WriteString(`
	WHERE EXISTS (SELECT 1 FROM promo_webhooks AS w WHERE w.project_id = v.project_id AND (w.doc->>'active')::boolean
		AND w.created_at <= v.created_at AND jsonb_exists(w.doc->'events', v.type))
	RETURNING 1)`)
		}
	}
	b.WriteString(" SELECT ")
	b.WriteString(pick(shape[0] > 0, "(SELECT coalesce(array_agg(id), '{}') FROM w_customers)", "'{}'::text[]"))
	b.WriteString(", " + pick(shape[1] > 0, "(SELECT coalesce(array_agg(id), '{}') FROM w_orders)", "'{}'::text[]"))
	b.WriteString(", " + pick(shape[2] > 0, "(SELECT count(*) FROM w_redemptions)", "0"))
	b.WriteString(", " + pick(shape[4] > 0, "(SELECT count(*) FROM (SELECT pg_notify('"+eventsChannel+"', coalesce(current_schema(), ''))::text FROM w_events LIMIT 1) AS n)", "0"))
	// (pg_notify's void is cast to text: Citus materializes the subquery,
	// and a void column cannot be.) Activities are the one table every shape may hold without a
	// barrier; the statement's table is "" so it never waits for itself.
	st := &heldShape{prepared: rawPrepared("", b.String()), args: n}
	if !cached {
		return st
	}
	got, _ := heldStatements.LoadOrStore(shape, st)
	return got.(*heldShape)
}

func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// heldTable is what a held row's INSERT writes of its model: the table,
// and the fields Bun inserts (not the scan-only ones, not those the
// database numbers), with their SQL types.
type heldTable struct {
	name    string
	columns string // "a", "b", ...
	types   []string
	fields  []*schema.Field
}

var heldTables sync.Map // reflect.Type → *heldTable

// tableOf is the heldTable of model (a row struct value).
func tableOf(db bun.IDB, model any) *heldTable {
	typ := reflect.TypeOf(model)
	if t, ok := heldTables.Load(typ); ok {
		return t.(*heldTable)
	}
	st := db.Dialect().Tables().Get(typ)
	t := &heldTable{name: string(st.SQLName)}
	var cols []string
	for _, f := range st.Fields {
		if f.AutoIncrement {
			continue
		}
		t.fields = append(t.fields, f)
		cols = append(cols, string(f.SQLName))
	}
	t.columns = strings.Join(cols, ", ")
	got, _ := heldTables.LoadOrStore(typ, t)
	return got.(*heldTable)
}

// eventColumns is the outbox columns the event insert writes, with the
// types its VALUES list casts to (it is not an INSERT's VALUES, whose
// types the columns give).
var eventColumns = &heldTable{name: "promo_events", types: []string{"text", "text", "text", "text", "timestamptz", "json"}}

// values writes rows tuples of placeholders from $(n+1) and returns the
// last number written; with cast each carries its column's type.
func (t *heldTable) values(b *strings.Builder, n, rows int, cast bool) int {
	width := len(t.fields)
	if cast {
		width = len(t.types)
	}
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range width {
			if c > 0 {
				b.WriteString(", ")
			}
			n++
			fmt.Fprintf(b, "$%d", n)
			if cast {
				b.WriteString("::" + t.types[c])
			}
		}
		b.WriteByte(')')
	}
	return n
}

// appendFields appends the values of fields of the row strct.
func appendFields(args []any, strct reflect.Value, fields []*schema.Field) []any {
	for _, f := range fields {
		args = append(args, f.Value(strct).Interface())
	}
	return args
}
